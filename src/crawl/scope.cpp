#include "crawl/scope.h"

#include "crawl/path_pattern.h"

namespace parley {
namespace {

std::vector<std::string> normalized(std::vector<std::string> patterns) {
  std::vector<std::string> out;
  for (auto& p : patterns) {
    if (!p.empty()) out.push_back(normalize_path_pattern(p));
  }
  return out;
}

}  // namespace

CrawlScope::CrawlScope(Url start, std::vector<std::string> include,
                       std::vector<std::string> exclude)
    : start_(std::move(start)),
      include_(normalized(std::move(include))),
      exclude_(normalized(std::move(exclude))) {
  const std::string& path = start_.path;
  size_t slash = path.rfind('/');
  std::string_view last(path.data() + slash + 1, path.size() - slash - 1);
  if (last.empty() || last.find('.') != std::string_view::npos) {
    // "/docs/" or "/docs/intro.html": the folder.
    prefix_ = path.substr(0, slash + 1);
  } else {
    // "/docs": a folder named without its final slash (a file name has a dot).
    prefix_ = path + '/';
    exact_path_ = path;
  }
}

bool CrawlScope::allows(const Url& url) const {
  if (url.scheme != start_.scheme || url.host != start_.host || url.port != start_.port) {
    return false;
  }
  if (!url.path.starts_with(prefix_) && url.path != exact_path_) return false;
  std::string target = url.path_and_query();
  for (const auto& p : exclude_) {
    if (path_pattern_matches(p, target)) return false;
  }
  if (include_.empty()) return true;
  for (const auto& p : include_) {
    if (path_pattern_matches(p, target)) return true;
  }
  return false;
}

}  // namespace parley
