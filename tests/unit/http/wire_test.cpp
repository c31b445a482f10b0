#include "http/wire.h"

#include <gtest/gtest.h>

#include <regex>

namespace parley {
namespace {

std::string without_date(std::string head) {
  return std::regex_replace(head, std::regex("Date: [^\r]*\r\n"), "Date: D\r\n");
}

TEST(ResponseHead, CarriesStatusLengthIdHeadersAndBlankLine) {
  std::vector<std::pair<std::string_view, std::string>> headers = {{"X-RateLimit-Limit", "60"},
                                                                   {"Retry-After", "12"}};
  ResponseHead h;
  h.status = 429;
  h.content_type = "application/json";
  h.request_id = "req_abc";
  h.headers = &headers;
  h.content_length = 42;
  std::string out;
  write_response_head(out, h);
  EXPECT_EQ(without_date(out),
            "HTTP/1.1 429 Too Many Requests\r\nDate: D\r\nContent-Type: application/json\r\nContent-Length: 42\r\n"
            "X-Request-Id: req_abc\r\nX-RateLimit-Limit: 60\r\nRetry-After: 12\r\n\r\n");
}

TEST(ResponseHead, StrictTransportSecurityOnlyWhenServedOverTls) {
  ResponseHead h;
  h.request_id = "req_abc";
  std::string plain;
  write_response_head(plain, h);
  EXPECT_EQ(plain.find("Strict-Transport-Security"), std::string::npos);
  h.hsts = true;
  std::string tls;
  write_response_head(tls, h);
  EXPECT_NE(tls.find("\r\nStrict-Transport-Security: max-age=31536000\r\n"), std::string::npos)
      << tls;
}

TEST(ResponseHead, LineBreaksInValuesCannotStartAHeader) {
  std::vector<std::pair<std::string_view, std::string>> headers = {
      {"X-Session-Id", "abc\r\nSet-Cookie: x=1"}, {"X-Long", "0123456789abcdef\n0123456789abcdef\r"}};
  ResponseHead h;
  h.headers = &headers;
  std::string out;
  write_response_head(out, h);
  EXPECT_NE(out.find("\r\nX-Session-Id: abc  Set-Cookie: x=1\r\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\r\nX-Long: 0123456789abcdef 0123456789abcdef \r\n"), std::string::npos) << out;
  EXPECT_EQ(out.find("\r\nSet-Cookie"), std::string::npos);
}

TEST(ResponseHead, NulAndOtherControlCharactersInValuesBecomeSpaces) {
  std::vector<std::pair<std::string_view, std::string>> headers = {
      {"X-Session-Id", std::string("a\0b\x01" "c\x7f\td", 8)}, {"X-Long", std::string("0123456789\0abcdef\xc3\xa9", 19)}};
  ResponseHead h;
  h.headers = &headers;
  std::string out;
  write_response_head(out, h);
  EXPECT_EQ(out.find('\0'), std::string::npos);
  EXPECT_NE(out.find("\r\nX-Session-Id: a b c \td\r\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\r\nX-Long: 0123456789 abcdef\xc3\xa9\r\n"), std::string::npos) << out;
}

TEST(ResponseHead, ConnectionAndFraming) {
  ResponseHead h;
  h.status = 200;
  h.chunked = true;
  h.close = true;
  std::string out;
  write_response_head(out, h);
  EXPECT_NE(out.find("\r\nTransfer-Encoding: chunked\r\n"), std::string::npos);
  EXPECT_EQ(out.find("Content-Length"), std::string::npos);
  EXPECT_NE(out.find("\r\nConnection: close\r\n"), std::string::npos);

  ResponseHead kept;
  kept.http10_keep_alive = true;
  out.clear();
  write_response_head(out, kept);
  EXPECT_NE(out.find("\r\nConnection: keep-alive\r\n"), std::string::npos);
  EXPECT_NE(out.find("\r\nContent-Length: 0\r\n"), std::string::npos);
}

TEST(ResponseHead, NoContentHasNoLength) {
  ResponseHead h;
  h.status = 204;
  std::string out;
  write_response_head(out, h);
  EXPECT_EQ(out.rfind("HTTP/1.1 204 No Content\r\n", 0), 0u);
  EXPECT_EQ(out.find("Content-Length"), std::string::npos);
  EXPECT_FALSE(status_has_body(204));
  EXPECT_FALSE(status_has_body(304));
  EXPECT_FALSE(status_has_body(100));
  EXPECT_TRUE(status_has_body(200));
}

TEST(ResponseHead, ReasonPhrasesAndChunkSizes) {
  EXPECT_EQ(reason_phrase(404), "Not Found");
  EXPECT_EQ(reason_phrase(431), "Request Header Fields Too Large");
  EXPECT_EQ(reason_phrase(599), "Unknown");
  std::string size;
  append_chunk_size(size, 0x1a2b);
  EXPECT_EQ(size, "1a2b\r\n");
}

TEST(HttpDate, IsAnImfFixdate) {
  std::string date(http_date());
  EXPECT_TRUE(std::regex_match(
      date, std::regex("(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d\\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) "
                       "\\d{4} \\d\\d:\\d\\d:\\d\\d GMT")))
      << date;
}

}  // namespace
}  // namespace parley
