// The bytes of an HTTP/1.1 response head, written by hand: the server answers every request with
// one status line, a fixed set of headers and the handler's own, so a general-purpose serializer
// costs more than it gives (see docs/decisions/foundation.md, "HTTP layer").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace parley {

struct ResponseHead {
  int status = 200;
  std::string_view content_type;
  std::string_view request_id;
  const std::vector<std::pair<std::string_view, std::string>>* headers = nullptr;
  bool chunked = false;        // Transfer-Encoding: chunked instead of Content-Length
  size_t content_length = 0;   // when not chunked
  bool close = false;          // Connection: close
  bool http10_keep_alive = false;  // an HTTP/1.0 client asked to keep the connection
  // Served over TLS: Strict-Transport-Security tells browsers to use https only for a year.
  bool hsts = false;
};

// Appends the status line, the headers and the blank line that ends them. Every control
// character in a header value but HTAB (CR, LF, NUL...; RFC 9110 5.5) becomes a space, here for
// every header whatever set it, so no value can start a header of its own or carry a NUL that a
// client or proxy would cut the value at.
void write_response_head(std::string& out, const ResponseHead& head);

// False for 1xx, 204 and 304, which carry neither a body nor a Content-Length (RFC 9110 8.6).
bool status_has_body(int status);

// "OK", "Not Found"...; "Unknown" for a code without a phrase here.
std::string_view reason_phrase(int status);

// The current time as an IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), formatted at most once a
// second per thread.
std::string_view http_date();

// Appends a chunk's size line ("1a2b\r\n").
void append_chunk_size(std::string& out, size_t size);

}  // namespace parley
