#include "test_site.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>

#include "loopback_listener.h"
#include "stand_in_http.h"

namespace parley::e2e {

namespace {
// An HTTP date a version of a page was "last modified": one minute per version from 2024.
std::string http_date(int64_t version) {
  std::time_t t = 1'704'067'200 + version * 60;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return buf;
}

uint32_t crc32(const std::string& data) {
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char byte : data) {
    crc ^= byte;
    for (int i = 0; i < 8; ++i) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

void put_le(std::string& out, uint32_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
}

std::string pdf_string(const std::string& s) {
  std::string out = "(";
  for (char c : s) {
    if (c == '(' || c == ')' || c == '\\') out += '\\';
    out += c;
  }
  return out + ")";
}
}  // namespace

std::string gzip_stored(const std::string& data) {
  std::string out("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10);
  size_t pos = 0;
  do {
    size_t n = std::min<size_t>(65535, data.size() - pos);
    bool last = pos + n == data.size();
    out += static_cast<char>(last ? 1 : 0);
    put_le(out, static_cast<uint32_t>(n), 2);
    put_le(out, static_cast<uint32_t>(~n & 0xFFFF), 2);
    out.append(data, pos, n);
    pos += n;
  } while (pos < data.size());
  put_le(out, crc32(data), 4);
  put_le(out, static_cast<uint32_t>(data.size()), 4);
  return out;
}

std::string tiny_pdf(const std::string& title, const std::vector<std::string>& lines) {
  std::string content = "BT /F1 12 Tf 72 720 Td 16 TL";
  for (const auto& line : lines) content += " " + pdf_string(line) + " Tj T*";
  content += " ET";
  std::vector<std::string> objects = {
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
      " /Resources << /Font << /F1 5 0 R >> >> >>",
      "<< /Length " + std::to_string(content.size()) + " >>\nstream\n" + content + "\nendstream",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
      "<< /Title " + pdf_string(title) + " >>"};
  std::string out = "%PDF-1.4\n";
  std::vector<size_t> offsets;
  for (size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(out.size());
    out += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  size_t xref = out.size();
  out += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (size_t off : offsets) {
    char line[32];
    std::snprintf(line, sizeof line, "%010zu 00000 n \n", off);
    out += line;
  }
  out += "trailer\n<< /Size " + std::to_string(objects.size() + 1) +
         " /Root 1 0 R /Info 6 0 R >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return out;
}

TestSite::TestSite() {
  auto listener = listen_on_loopback(128);
  listen_fd_ = listener.fd;
  port_ = listener.port;
  acceptor_ = std::thread([this] { accept_loop(); });
}

TestSite::~TestSite() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  ::shutdown(listen_fd_, SHUT_RDWR);
  ::close(listen_fd_);
  acceptor_.join();
  for (auto& t : workers_) t.join();
}

std::string TestSite::base_url() const { return "http://127.0.0.1:" + std::to_string(port_); }

void TestSite::set(const std::string& path, SitePage page) {
  std::lock_guard lock(mu_);
  pages_[path] = Version{std::move(page), ++versions_};
}

void TestSite::set_html(const std::string& path, const std::string& html) {
  SitePage page;
  page.body = html;
  set(path, std::move(page));
}

void TestSite::remove(const std::string& path) {
  std::lock_guard lock(mu_);
  pages_.erase(path);
}

std::vector<SiteRequest> TestSite::requests() const {
  std::lock_guard lock(mu_);
  return requests_;
}

size_t TestSite::hits(const std::string& path) const {
  std::lock_guard lock(mu_);
  size_t n = 0;
  for (const auto& r : requests_) n += r.path == path ? 1 : 0;
  return n;
}

size_t TestSite::request_count() const {
  std::lock_guard lock(mu_);
  return request_count_;
}

void TestSite::keep_requests(bool keep) {
  std::lock_guard lock(mu_);
  keep_requests_ = keep;
}

bool TestSite::pause(int ms) {
  std::unique_lock lock(mu_);
  return !stop_cv_.wait_for(lock, std::chrono::milliseconds(ms), [this] { return stopping_; });
}

void TestSite::accept_loop() {
  accept_until(
      listen_fd_, mu_, workers_, [this] { return stopping_; }, [this](int fd) { serve(fd); });
}

void TestSite::serve(int fd) {
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  timeval tv{1, 0};  // a read wakes each second to see whether the site is stopping
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  std::string in;
  char buf[8192];
  for (;;) {
    size_t end;
    while ((end = in.find("\r\n\r\n")) == std::string::npos) {
      ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        std::lock_guard lock(mu_);
        if (stopping_) break;
        continue;
      }
      if (n <= 0) break;
      in.append(buf, static_cast<size_t>(n));
    }
    if (end == std::string::npos) break;
    std::string head = in.substr(0, end);
    in.erase(0, end + 4);
    SiteRequest req;
    size_t line_end = head.find("\r\n");
    std::string line = head.substr(0, line_end);
    size_t sp1 = line.find(' '), sp2 = line.find(' ', sp1 + 1);
    if (sp1 == std::string::npos || sp2 == std::string::npos) break;
    std::string method = line.substr(0, sp1);
    req.path = line.substr(sp1 + 1, sp2 - sp1 - 1);
    bool http10 = line.substr(sp2 + 1) == "HTTP/1.0";
    for (size_t pos = line_end == std::string::npos ? head.size() : line_end + 2;
         pos < head.size();) {
      size_t e = head.find("\r\n", pos);
      if (e == std::string::npos) e = head.size();
      std::string h = head.substr(pos, e - pos);
      size_t colon = h.find(':');
      if (colon != std::string::npos) {
        std::string value = h.substr(colon + 1);
        value.erase(0, value.find_first_not_of(' '));
        req.headers[ascii_lower(h.substr(0, colon))] = value;
      }
      pos = e + 2;
    }
    size_t length =
        req.headers.count("content-length") ? std::stoul(req.headers["content-length"]) : 0;
    while (in.size() < length) {
      ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) break;
      in.append(buf, static_cast<size_t>(n));
    }
    in.erase(0, std::min(length, in.size()));
    {
      std::lock_guard lock(mu_);
      ++request_count_;
      if (keep_requests_) requests_.push_back(req);
    }
    if (!answer(fd, req, method == "HEAD")) break;
    if (http10 || ascii_lower(req.headers["connection"]) == "close") break;
  }
  ::shutdown(fd, SHUT_RDWR);
  ::close(fd);
}

bool TestSite::answer(int fd, const SiteRequest& req, bool head) {
  Version v;
  bool found = false;
  {
    std::lock_guard lock(mu_);
    auto it = pages_.find(req.path);
    if (it != pages_.end()) {
      v = it->second;
      found = true;
    }
  }
  if (!found) {
    v.page.status = 404;
    v.page.body =
        "<html><head><title>Not found</title></head><body><p>No such page.</p></body></html>";
  }
  if (v.page.delay_ms > 0 && !pause(v.page.delay_ms)) return false;
  const std::string etag = "\"v" + std::to_string(v.number) + "\"";
  const std::string modified = http_date(v.number);
  auto sent = [&](const char* name) {
    auto it = req.headers.find(name);
    return it == req.headers.end() ? std::string() : it->second;
  };
  int status = v.page.status;
  std::string body = v.page.body;
  std::string extra;
  if (found && status == 200) {
    extra += "ETag: " + etag + "\r\nLast-Modified: " + modified + "\r\n";
    if (sent("if-none-match") == etag ||
        (sent("if-none-match").empty() && sent("if-modified-since") == modified)) {
      status = 304;
      body.clear();
    }
  }
  if (!v.page.location.empty()) extra += "Location: " + v.page.location + "\r\n";
  if (status == 200 && v.page.gzip && sent("accept-encoding").find("gzip") != std::string::npos) {
    body = gzip_stored(body);
    extra += "Content-Encoding: gzip\r\n";
  }
  std::string out = "HTTP/1.1 " + std::to_string(status) + " " + status_reason(status) + "\r\n";
  if (status != 304) out += "Content-Type: " + v.page.content_type + "\r\n";
  out += extra + "Content-Length: " + std::to_string(status == 304 ? 0 : body.size()) + "\r\n\r\n";
  if (!head && status != 304) out += body;
  return send_all(fd, out);
}

}  // namespace parley::e2e
