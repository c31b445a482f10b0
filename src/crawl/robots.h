// A site's robots.txt as the crawler obeys it (RFC 9309). The group for our product token
// ("ParleyBot", matched case-insensitively against the token that starts each user-agent line;
// every matching group combined), else the '*' groups combined, else no rules. Among the chosen
// rules the longest matching pattern wins and Allow wins a tie; '*' and '$' as in
// crawl/path_pattern.h; "/robots.txt" is always allowed. Crawl-delay (not in the RFC) is read
// from the chosen group; every Sitemap: line of the file is kept, wherever it is.
//
// Parsing never fails: lines it does not understand are ignored, and only the first 500 KiB are
// read (the RFC's minimum). An object is immutable after parse, so safe to share between threads.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parley {

class RobotsRules {
 public:
  static constexpr size_t kMaxBytes = 500 * 1024;

  static RobotsRules parse(std::string_view body, std::string_view product_token);
  static RobotsRules allow_all();     // robots.txt answered 4xx
  static RobotsRules disallow_all();  // robots.txt unreachable or answered 5xx

  // `path_and_query`: "/path?query" of the URL (normalised or not).
  bool allowed(std::string_view path_and_query) const;
  // Seconds, as written (non-negative); nullopt when the chosen group has none.
  std::optional<double> crawl_delay_seconds() const { return crawl_delay_; }
  // The Sitemap: lines' values as written, each once, in file order.
  const std::vector<std::string>& sitemaps() const { return sitemaps_; }

 private:
  struct Rule {
    bool allow = false;
    std::string pattern;  // normalised (crawl/path_pattern.h)
  };
  std::vector<Rule> rules_;
  std::optional<double> crawl_delay_;
  std::vector<std::string> sitemaps_;
};

}  // namespace parley
