#include "crawl/path_pattern.h"

#include <vector>

#include "crawl/url.h"

namespace parley {

std::string normalize_path_pattern(std::string_view pattern) {
  std::string out = normalize_percent_encoding(pattern);
  if (out.empty() || (out[0] != '/' && out[0] != '*')) out.insert(out.begin(), '/');
  return out;
}

bool path_pattern_matches(std::string_view pattern, std::string_view path) {
  // The positions in `path` that the pattern read so far can end at, in increasing order.
  std::vector<size_t> ends{0};
  std::vector<size_t> next;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '$' && i + 1 == pattern.size()) return ends.back() == path.size();
    next.clear();
    if (c == '*') {
      for (size_t p = ends.front(); p <= path.size(); ++p) next.push_back(p);
    } else {
      for (size_t p : ends) {
        if (p < path.size() && path[p] == c) next.push_back(p + 1);
      }
    }
    if (next.empty()) return false;
    ends.swap(next);
  }
  return true;
}

}  // namespace parley
