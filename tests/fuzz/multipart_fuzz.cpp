// Fuzzes the multipart/form-data reader (http/multipart.h). The input's first line is the
// request's Content-Type, the rest its body. Checks that a body is either refused with a 400 or
// read into at most max_parts parts whose bytes lie inside the body and never hold a delimiter.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "http/multipart.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace parley;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t eol = input.find('\n');
  if (eol == std::string_view::npos) return 0;
  auto boundary = multipart_boundary(input.substr(0, eol));
  if (!boundary.ok()) {
    FUZZ_CHECK(http_status(boundary.error().code) == 400);
    return 0;
  }
  FUZZ_CHECK(!boundary->empty() && boundary->size() <= 70);
  std::string_view body = input.substr(eol + 1);
  MultipartLimits limits;
  limits.max_parts = 8;
  limits.max_header_bytes = 512;
  auto parts = parse_multipart(body, *boundary, limits);
  if (!parts.ok()) {
    FUZZ_CHECK(http_status(parts.error().code) == 400);
    return 0;
  }
  FUZZ_CHECK(parts->size() <= limits.max_parts);
  const std::string delimiter = "\r\n--" + *boundary;
  for (const auto& p : *parts) {
    FUZZ_CHECK(p.body.data() >= body.data() &&
               p.body.data() + p.body.size() <= body.data() + body.size());
    FUZZ_CHECK(p.body.find(delimiter) == std::string_view::npos);
  }
  (void)optional_part(*parts, "file");
  return 0;
}
