// TestSite: a website served by a real HTTP/1.1 server on a loopback port, for the crawler's
// tests and bench. The test sets each path's answer (status, type, body, a redirect's Location,
// a delay before answering, gzip) and may change or remove it while the server runs; a removed
// or unknown path answers 404. Every answer carries an ETag and a Last-Modified of the page's
// current version, and a request that sends the current one back (If-None-Match or
// If-Modified-Since) gets 304. Connections are kept alive. Requests are recorded (path and
// headers) so a test can tell what was fetched, how often, and with which User-Agent.
// Thread-safe; stops (interrupting any delay) when destroyed.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace parley::e2e {

struct SitePage {
  int status = 200;
  std::string content_type = "text/html; charset=utf-8";
  std::string body;
  std::string location;  // a redirect's target
  int delay_ms = 0;      // waits this long before answering
  bool gzip = false;     // sent with Content-Encoding: gzip to a client that accepts it
};

struct SiteRequest {
  std::string path;
  std::map<std::string, std::string> headers;  // names lower-cased
};

class TestSite {
 public:
  TestSite();
  ~TestSite();
  TestSite(const TestSite&) = delete;
  TestSite& operator=(const TestSite&) = delete;

  // "http://127.0.0.1:PORT"
  std::string base_url() const;
  std::string url(const std::string& path) const { return base_url() + path; }

  // Sets (or replaces: a new version, a new ETag) the answer of `path` (with its query).
  void set(const std::string& path, SitePage page);
  void set_html(const std::string& path, const std::string& html);
  void remove(const std::string& path);

  std::vector<SiteRequest> requests() const;
  size_t hits(const std::string& path) const;
  size_t request_count() const;
  // A site of thousands of pages (the bench) keeps no request log (counts only).
  void keep_requests(bool keep);

 private:
  struct Version {
    SitePage page;
    int64_t number = 0;
  };
  void accept_loop();
  void serve(int fd);
  bool answer(int fd, const SiteRequest& req, bool head);
  bool pause(int ms);  // false when stopping

  int listen_fd_ = -1;
  uint16_t port_ = 0;
  std::thread acceptor_;
  std::vector<std::thread> workers_;
  mutable std::mutex mu_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;
  std::map<std::string, Version> pages_;
  int64_t versions_ = 0;
  std::vector<SiteRequest> requests_;
  size_t request_count_ = 0;
  bool keep_requests_ = true;
};

// A gzip member holding `data` in stored (uncompressed) deflate blocks: a valid gzip body any
// client inflates, made without a compression library.
std::string gzip_stored(const std::string& data);

// A one-page PDF whose page shows `lines` (Helvetica, ASCII), with `title` in its document
// information: enough for poppler to read the text back.
std::string tiny_pdf(const std::string& title, const std::vector<std::string>& lines);

}  // namespace parley::e2e
