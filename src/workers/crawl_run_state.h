// The state of one crawl run (workers/crawl_run.h), shared by its two halves: seeding the
// frontier and the scopes (crawl_seed.cpp) and reading the frontier page by page
// (crawl_run.cpp). Internal to the crawler; one object per run, on the run's thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "crawl/scope.h"
#include "domain/crawl_pages.h"
#include "workers/crawl_run.h"
#include "workers/site_reader.h"

namespace parley {

inline constexpr int64_t kFrontierBatch = 16;  // frontier rows read at a time

// The scope a page belongs to: the crawl's own, or (a refresh) each crawl its pages came from.
struct RunScope {
  std::string crawl_id;
  CrawlScope scope;
  int64_t max_depth = 0;
};

enum class CrawlStep { kNext, kStop, kLimit };

// One crawl job run to its end.
class CrawlRun {
 public:
  CrawlRun(const CrawlRunContext& ctx, const CrawlClaim& claim)
      : ctx_(ctx), services_(ctx.services), claim_(claim), crawl_(claim.crawl), site_(ctx) {}

  void go();

 private:
  bool refresh() const { return crawl_.kind == "refresh"; }
  Result<void> load_scopes();
  const RunScope* scope_for(const Url& url) const;
  const RunScope* scope_of_crawl(std::string_view crawl_id) const;
  // Whether a link or a sitemap's page may join the frontier.
  bool may_follow(const Url& url) const;
  bool seed();
  bool seed_refresh();
  bool read_sitemaps(const Url& site, std::vector<FoundAddress>& found, bool start_is_sitemap);
  bool flush(std::vector<FoundAddress>& found);
  CrawlStep step(const FrontierPage& page);
  CrawlStep settle(PageResult result);
  CrawlStep skip(const FrontierPage& page, std::string reason);
  void finish(std::string_view status, const std::optional<ApiError>& error = std::nullopt);
  void failed(const ApiError& e);

  const CrawlRunContext& ctx_;
  Services services_;
  const CrawlClaim& claim_;
  CrawlRecord crawl_;
  SiteReader site_;
  std::vector<RunScope> scopes_;
  bool rebased_ = false;      // the start redirected elsewhere and the scope followed it
  bool single_page_ = false;  // a refresh of one page: no sitemaps, no links
  int64_t fetches_ = 0;       // pages requested (the page cap counts these)
  int64_t new_pages_ = 0;     // of those, pages no source holds yet (a refresh's cap)
};

}  // namespace parley
