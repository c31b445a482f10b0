// Appending numbers to a string without a temporary string: std::to_chars into a stack buffer.
#pragma once

#include <charconv>
#include <concepts>
#include <string>

namespace parley {

// An integer's digits in `base` (lower-case letters past 9).
template <std::integral T>
void append_integer(std::string& out, T value, int base = 10) {
  char digits[72];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value, base);
  out.append(digits, end);
}

// A double: by default the shortest text that reads back as the same value ("0.25", "1e-05");
// std::chars_format::fixed never uses an exponent ("0.00001").
inline void append_double(std::string& out, double value, std::chars_format format = std::chars_format::general) {
  char digits[352];  // the longest fixed rendering of a double
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value, format);
  out.append(digits, end);
}

}  // namespace parley
