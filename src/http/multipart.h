// A multipart/form-data reader (RFC 7578 over RFC 2046's multipart syntax) for request bodies that
// carry files: the boundary from the Content-Type, then each part's headers (Content-Disposition's
// `name` and `filename`, Content-Type) and its bytes. Pure and stateless: the parts are views into
// the body the caller keeps. Strict, as it reads what anyone may send: CRLF line ends only, a
// bounded number of parts and of header bytes per part, every part named, the closing delimiter
// required; anything else is 400 invalid_request saying what is wrong. Thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace parley {

struct MultipartPart {
  std::string name;                     // Content-Disposition's name
  std::optional<std::string> filename;  // its filename (filename* when given), as sent
  std::string content_type;             // the part's Content-Type; empty when it has none
  std::string_view body;                // the part's bytes, a view into the request body
};

struct MultipartLimits {
  size_t max_parts = 16;
  size_t max_header_bytes = 8 * 1024;  // of one part's header block
  size_t max_headers = 16;             // header lines in one part
};

// The boundary of a `multipart/form-data; boundary=…` Content-Type (media type and parameter
// names case-insensitive, the value a token or a quoted string, 1 to 70 of RFC 2046's bchars).
// 400 naming the Content-Type otherwise.
Result<std::string> multipart_boundary(std::string_view content_type);

// The parts of `body` in order. A preamble before the first delimiter and an epilogue after the
// closing one are ignored.
Result<std::vector<MultipartPart>> parse_multipart(std::string_view body, std::string_view boundary,
                                                   const MultipartLimits& limits = {});

// The only part named `name`: 400 naming it when it is missing or sent more than once.
Result<const MultipartPart*> single_part(const std::vector<MultipartPart>& parts,
                                         std::string_view name);
// The part named `name` when there is exactly one, none when there is none; 400 when repeated.
Result<const MultipartPart*> optional_part(const std::vector<MultipartPart>& parts,
                                           std::string_view name);

}  // namespace parley
