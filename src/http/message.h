// Parley's own request and response types. Handlers see only these; Boost.Beast stays inside
// src/http (one translation unit), which keeps both the build and the handlers light.
#pragma once

#include <functional>
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

// Writes the chunks of a streamed body. write() blocks until the bytes are handed to the socket;
// it returns false once the client has gone away.
class ChunkWriter {
 public:
  virtual ~ChunkWriter() = default;
  virtual bool write(std::string_view chunk) = 0;
  // Ends the body without its terminating chunk and closes the connection, so the client sees a
  // reply cut short instead of a complete one (for failures after text was sent).
  virtual void abort() = 0;
};

struct Response {
  int status = 200;
  std::string_view content_type = "application/json";  // a string literal
  std::string body;
  std::vector<std::pair<std::string_view, std::string>> headers;  // names are string literals
  // When set, the body is produced by this function as chunked transfer encoding after the
  // headers are sent; `body` is ignored. It runs on a blocking-pool thread.
  std::function<void(ChunkWriter&)> stream;
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
};

// Decodes %XX and '+' in a query component.
std::string url_decode(std::string_view s);
// Decodes %XX in a path; '+' stays itself there.
std::string path_decode(std::string_view s);

}  // namespace parley
