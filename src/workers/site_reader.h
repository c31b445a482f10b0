// The requests one crawl run makes to the sites it visits: each waits for its host's turn (at
// most two at a time per host, the host's delay between starts: the operator's floor, or the
// site's robots.txt Crawl-delay up to a cap), follows redirects itself (at most 5, each hop
// through the URL guard), reads robots.txt once per site per run (RFC 9309: 4xx allows all,
// 5xx or no answer disallows all) and reads sitemaps (indexes and gzip included).
// One per run; not shared between threads.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "crawl/robots.h"
#include "crawl/url.h"
#include "workers/crawl_run.h"
#include "workers/page_fetcher.h"

namespace parley {

inline constexpr int kMaxRedirects = 5;

class SiteReader {
 public:
  explicit SiteReader(const CrawlRunContext& ctx) : ctx_(ctx) {}

  struct Answer {
    Url address;  // the last address asked (after redirects)
    PageResponse response;
    bool stopped = false;  // the run must stop (nothing was asked)
  };
  // GET `url`, with revalidation headers on the first hop when given.
  Answer fetch(const Url& url, const std::optional<std::string>& etag = std::nullopt,
               const std::optional<std::string>& last_modified = std::nullopt);

  struct Robots {
    RobotsRules rules = RobotsRules::allow_all();
    std::string blocked_reason = "Blocked by the site's robots.txt.";
  };
  // The rules of the site of `url` (fetched on first use).
  const Robots& robots_for(const Url& url);

  // Reads the sitemap at `url`, an index's sitemaps too (at most `budget` documents in all),
  // handing each page's address to `on_page`; false when it could not be read as a sitemap.
  bool read_sitemap(const Url& url, int& budget, size_t max_entries,
                    const std::function<void(const Url&)>& on_page);

 private:
  std::optional<PageResponse> request(const Url& url, const PageRequest& request);

  const CrawlRunContext& ctx_;
  std::map<std::string, Robots> robots_;  // by origin
  std::set<std::string> paced_;           // hosts whose delay this run set
};

}  // namespace parley
