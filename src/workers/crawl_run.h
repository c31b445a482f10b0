// One crawl job run to its end by a worker (workers/crawler.h). First the frontier is seeded
// once: the start address, and the pages of the site's sitemaps (the start when it is one, the
// robots.txt Sitemap: lines, else /sitemap.xml); a refresh seeds the agent's website pages it
// revalidates and drops those the site's sitemap no longer lists. Then the frontier is read a
// batch at a time, breadth first: each address checked against the site's robots.txt (fetched
// once per host per run), fetched politely (workers/page_fetcher.h, each redirect hop through
// the URL guard, at most 5), read (workers/page_reader.h) and recorded (domain/crawl_pages.h),
// until the frontier is empty, the page cap is reached, the plan's training characters would be
// passed, or the claim no longer holds (cancelled, taken over, the node stopping).
// A function of its context; the context's parts are shared between a node's runs.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

#include "crawl/host_pacer.h"
#include "domain/crawls.h"
#include "knowledge/source_listener.h"

namespace parley {

struct CrawlerOptions;

struct CrawlRunContext {
  Services services;
  const CrawlerOptions& options;
  Resolver& resolver;
  HostPacer& pacer;
  SourceListener* listener;
  std::atomic<uint64_t>& pages_fetched;
  std::function<bool()> holding;          // false once the run must stop
  std::function<bool(int64_t ms)> pause;  // waits; false when the node is stopping
};

void run_crawl_job(const CrawlRunContext& ctx, const CrawlClaim& claim);

}  // namespace parley
