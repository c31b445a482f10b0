// Parley's own request and response types. Handlers see only these; Boost.Beast stays inside
// src/http (one translation unit), which keeps both the build and the handlers light.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace parley {

class Request {
 public:
  using HeaderLookup = std::string_view (*)(const void* native, std::string_view name);

  std::string_view method;  // "GET", "POST", ...
  std::string_view path;    // without the query string
  std::string_view query;   // after '?', without it
  std::string body;
  std::string request_id;
  std::string remote_address;
  std::vector<std::string_view> params;  // path parameters, in pattern order
  // When the request's last byte arrived: a deadline counts from here, not from when a thread
  // got to it.
  std::chrono::steady_clock::time_point received_at = std::chrono::steady_clock::now();
  // Milliseconds since received_at.
  int64_t waited_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - received_at)
        .count();
  }

  // A header's value, or empty when absent. Case-insensitive name.
  std::string_view header(std::string_view name) const { return lookup_(native_, name); }
  void set_header_source(const void* native, HeaderLookup lookup) {
    native_ = native;
    lookup_ = lookup;
  }
  // A query parameter's decoded value; `found` tells absent from empty.
  std::string query_param(std::string_view name, bool* found = nullptr) const;

 private:
  const void* native_ = nullptr;
  HeaderLookup lookup_ = [](const void*, std::string_view) { return std::string_view(); };
};

class Responder;

struct Response {
  int status = 200;
  std::string_view content_type = "application/json";  // a string literal
  std::string body;
  std::vector<std::pair<std::string_view, std::string>> headers;  // names are string literals
  // When set, the handler answers later: the server calls this with a Responder (below) and
  // sends nothing until the Responder is told what; this response's headers (the gate chain's)
  // are added to that answer. The connection waits without holding any thread.
  std::function<void(std::shared_ptr<Responder>)> deferred;
  // When set by a handler running on the I/O thread, nothing is sent yet: this function runs on the
  // blocking pool and its response is sent instead, with this response's headers added. A handler
  // that answers from memory when it can (a cache hit) and must block otherwise (a database read)
  // stays inline for the first and hands only the second to the pool.
  std::function<Response()> finish_on_pool;

  // `name` must be a string literal (or otherwise outlive the response).
  Response& header(std::string_view name, std::string value) {
    headers.emplace_back(name, std::move(value));
    return *this;
  }
  static Response json(int status, std::string body) {
    Response r;
    r.status = status;
    r.body = std::move(body);
    return r;
  }
  static Response on_pool(std::function<Response()> finish) {
    Response r;
    r.finish_on_pool = std::move(finish);
    return r;
  }
  static Response later(std::function<void(std::shared_ptr<Responder>)> start) {
    Response r;
    r.deferred = std::move(start);
    return r;
  }
};

// Answers a request whose handler returned Response::later. Every method is safe from any
// thread and returns at once; the connection's own thread does the writing. Exactly one party
// answers: whoever first claims (the code that produced the answer, or the expiry set by
// expire_at); the loser's send(), begin() and write() do nothing.
//
// A streamed body is written as it is handed over; when more than kHighWater bytes wait to be
// taken by the client, behind() says so and calls its `resume` once they have drained, so that a
// producer can pause its own source (a provider stream) instead of buffering without bound, where
// it can (not a provider stream multiplexed with others: net/outbound.h). A client that takes
// nothing for the server's read timeout is disconnected.
class Responder {
 public:
  static constexpr size_t kHighWater = 64 * 1024;

  virtual ~Responder() = default;
  // True for the first caller; false once anything else has answered (or the client left before).
  virtual bool claim() = 0;
  // After claim(): a whole response, ending the exchange.
  virtual void send(Response response) = 0;
  // After claim(): the status and headers of a chunked body that write() then fills.
  virtual void begin(Response head) = 0;
  // Queues a piece of the body; false once the client has gone (the piece is dropped).
  virtual bool write(std::string_view piece) = 0;
  // True when the client is over kHighWater behind; `resume` then runs once it has caught up (or
  // has gone). False: `resume` is dropped.
  virtual bool behind(std::function<void()> resume) = 0;
  // Ends the body with its terminating chunk.
  virtual void end() = 0;
  // Ends the body without its terminating chunk and closes the connection, so the client sees a
  // reply cut short instead of a complete one (for failures after text was sent).
  virtual void abort() = 0;
  // When nothing has claimed the answer by `at`, what `fallback` makes is sent instead (a 504
  // timeout); it is made only then.
  virtual void expire_at(std::chrono::steady_clock::time_point at, std::function<Response()> fallback) = 0;
};

// Decodes %XX and '+' in a query component.
std::string url_decode(std::string_view s);
// Decodes %XX in a path; '+' stays itself there.
std::string path_decode(std::string_view s);

}  // namespace parley
