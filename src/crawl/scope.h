// What one crawl may visit: the start's scheme, host and port; under the start's path when the
// start was given with one ("https://x.com/docs/" → "/docs/…", "https://x.com/docs" → "/docs"
// and "/docs/…", "https://x.com/docs/intro.html" → "/docs/…"); and the include/exclude path
// patterns (robots.txt syntax, crawl/path_pattern.h), where exclude wins and no include means
// every path. Immutable after construction, so safe to share between threads.
#pragma once

#include <string>
#include <vector>

#include "crawl/url.h"

namespace parley {

class CrawlScope {
 public:
  CrawlScope(Url start, std::vector<std::string> include, std::vector<std::string> exclude);

  bool allows(const Url& url) const;

  const Url& start() const { return start_; }
  // The path every allowed URL's path starts with ("/" for a whole site).
  const std::string& path_prefix() const { return prefix_; }

 private:
  Url start_;
  std::string prefix_;      // "/docs/"
  std::string exact_path_;  // "/docs" when the start named a folder without its final '/'
  std::vector<std::string> include_;
  std::vector<std::string> exclude_;
};

}  // namespace parley
