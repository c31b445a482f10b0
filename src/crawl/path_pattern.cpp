#include "crawl/path_pattern.h"

#include "crawl/url.h"

namespace parley {

std::string normalize_path_pattern(std::string_view pattern) {
  std::string out = normalize_percent_encoding(pattern);
  if (out.empty() || (out[0] != '/' && out[0] != '*')) out.insert(out.begin(), '/');
  return out;
}

// A pattern is literal pieces between '*'s. Taking each piece at its leftmost place after the
// one before is correct for '*' alone (leftmost leaves the most room for the rest), so one
// search per piece suffices: no backtracking, however many '*'s a hostile robots.txt writes.
bool path_pattern_matches(std::string_view pattern, std::string_view path) {
  bool anchored = !pattern.empty() && pattern.back() == '$';
  if (anchored) pattern.remove_suffix(1);
  size_t star = pattern.find('*');
  std::string_view first = pattern.substr(0, star);
  if (!path.starts_with(first)) return false;
  if (star == std::string_view::npos) return !anchored || path.size() == first.size();
  size_t pos = first.size();
  pattern.remove_prefix(star + 1);
  while (true) {
    size_t next = pattern.find('*');
    std::string_view piece = pattern.substr(0, next);
    if (next == std::string_view::npos) {
      // The last piece: anywhere after `pos`, or with '$' at the very end.
      if (!anchored) return path.find(piece, pos) != std::string_view::npos;
      return path.size() >= pos + piece.size() && path.ends_with(piece);
    }
    if (!piece.empty()) {
      size_t at = path.find(piece, pos);
      if (at == std::string_view::npos) return false;
      pos = at + piece.size();
    }
    pattern.remove_prefix(next + 1);
  }
}

}  // namespace parley
