#include "http/wire.h"

#include <cstdio>
#include <ctime>

#include "core/swar.h"
#include "core/text_append.h"

namespace parley {

std::string_view reason_phrase(int status) {
  switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 402: return "Payment Required";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 411: return "Length Required";
    case 412: return "Precondition Failed";
    case 413: return "Content Too Large";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Content";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "Unknown";
  }
}

std::string_view http_date() {
  thread_local std::time_t formatted_at = -1;
  thread_local char text[32];
  thread_local size_t length = 0;
  std::time_t now = std::time(nullptr);
  if (now != formatted_at) {
    // By hand, not strftime: the names must be English whatever the process locale.
    static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                              "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    std::tm tm{};
    gmtime_r(&now, &tm);
    int n = std::snprintf(text, sizeof text, "%s, %02d %s %04d %02d:%02d:%02d GMT", kDays[tm.tm_wday], tm.tm_mday,
                          kMonths[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
    length = n > 0 ? static_cast<size_t>(n) : 0;
    formatted_at = now;
  }
  return {text, length};
}

namespace {

void append_field(std::string& out, std::string_view name, std::string_view value) {
  out.append(name);
  out.append(": ", 2);
  size_t at = out.size();
  out.append(value);
  for (size_t i = at; i < out.size(); ++i) {
    while (i + 8 <= out.size()) {  // eight bytes at a time while there is no control character
      uint64_t w = swar::load(out.data() + i);
      if (swar::maybe_below(w, 0x20) || swar::maybe_has(w, 0x7f)) break;
      i += 8;
    }
    if (i == out.size()) break;
    auto c = static_cast<unsigned char>(out[i]);
    if ((c < 0x20 && c != '\t') || c == 0x7f) out[i] = ' ';
  }
  out.append("\r\n", 2);
}

}  // namespace

bool status_has_body(int status) { return status >= 200 && status != 204 && status != 304; }

void write_response_head(std::string& out, const ResponseHead& head) {
  out.append("HTTP/1.1 ", 9);
  append_integer(out, head.status);
  out.push_back(' ');
  out.append(reason_phrase(head.status));
  out.append("\r\n", 2);
  append_field(out, "Date", http_date());
  if (!head.content_type.empty()) append_field(out, "Content-Type", head.content_type);
  if (head.chunked) {
    out.append("Transfer-Encoding: chunked\r\n");
  } else if (status_has_body(head.status)) {
    out.append("Content-Length: ");
    append_integer(out, head.content_length);
    out.append("\r\n", 2);
  }
  append_field(out, "X-Request-Id", head.request_id);
  if (head.hsts) out.append("Strict-Transport-Security: max-age=31536000\r\n");
  if (head.headers) {
    for (const auto& [name, value] : *head.headers) append_field(out, name, value);
  }
  if (head.close) {
    out.append("Connection: close\r\n");
  } else if (head.http10_keep_alive) {
    out.append("Connection: keep-alive\r\n");
  }
  out.append("\r\n", 2);
}

void append_chunk_size(std::string& out, size_t size) {
  append_integer(out, size, 16);
  out.append("\r\n", 2);
}

}  // namespace parley
