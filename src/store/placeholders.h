// Parameter placeholders for statements whose number of parameters is known only at run time
// (a list in IN (...), several rows in one INSERT). Both backends number parameters $1, $2, ...
#pragma once

#include <cstddef>
#include <string>

namespace parley {

// "$first, $first+1, ..." for `n` parameters.
inline std::string placeholders(size_t first, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += (i ? ", $" : "$") + std::to_string(first + i);
  return out;
}

// "($first, ...), (...), ...": `rows` rows of `columns` parameters each, numbered from `first`
// row by row (the parameters of a row are consecutive).
inline std::string placeholder_rows(size_t rows, size_t columns, size_t first = 1) {
  std::string out;
  for (size_t r = 0; r < rows; ++r) {
    out += r ? ", (" : "(";
    out += placeholders(first + r * columns, columns);
    out += ')';
  }
  return out;
}

}  // namespace parley
