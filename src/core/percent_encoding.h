// Percent-encoding of one URL component (RFC 3986 section 2.1): every byte outside the unreserved
// set (ALPHA, DIGIT, '-', '.', '_', '~') becomes %XX, so a value fills exactly one path segment or
// one query value and can never start another ('/', '?', '#', '&', '=' and '%' included).
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace parley {

// Appends `value` percent-encoded to `out`.
void append_percent_encoded(std::string& out, std::string_view value);

// `value` percent-encoded.
std::string percent_encode(std::string_view value);

}  // namespace parley
