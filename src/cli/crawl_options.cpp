#include "cli/crawl_options.h"

#include "crawl/user_agent.h"

namespace parley {

namespace {
void add_shared(CLI::App& cmd, CrawlOptions& o) {
  cmd.add_option("--crawler-info-url", o.info_url,
                 "A page about this server's crawler for site owners, named in its User-Agent "
                 "(ParleyBot/<version> (+URL))")
      ->envname("PARLEY_CRAWLER_INFO_URL");
  cmd.add_option("--crawl-max-pages", o.settings.max_pages,
                 "Pages one website crawl may fetch at most, whatever its plan allows")
      ->envname("PARLEY_CRAWL_MAX_PAGES")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--crawl-max-depth", o.settings.max_depth,
                 "Links a crawl follows from its start at most (its default and its most)")
      ->envname("PARLEY_CRAWL_MAX_DEPTH")
      ->check(CLI::Range(int64_t{0}, int64_t{100}))
      ->capture_default_str();
  cmd.add_option("--crawl-jobs-per-agent", o.settings.active_per_agent,
                 "Crawls and refreshes one agent may have queued or running at once")
      ->envname("PARLEY_CRAWL_JOBS_PER_AGENT")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--crawl-delay-ms", o.crawler.delay_ms,
                 "Least time between the starts of two requests to one site (a site's robots.txt "
                 "Crawl-delay may ask for more)")
      ->envname("PARLEY_CRAWL_DELAY_MS")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd.add_option("--crawl-max-crawl-delay-ms", o.crawler.max_crawl_delay_ms,
                 "A site's robots.txt Crawl-delay is honoured up to this")
      ->envname("PARLEY_CRAWL_MAX_CRAWL_DELAY_MS")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd.add_option("--crawl-timeout-ms", o.crawler.fetch.timeout_ms,
                 "Time limit of one page's request (a slower page fails)")
      ->envname("PARLEY_CRAWL_TIMEOUT_MS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--crawl-max-page-bytes", o.crawler.fetch.max_bytes,
                 "Bytes of one page (decompressed) at most (a larger page fails)")
      ->envname("PARLEY_CRAWL_MAX_PAGE_BYTES")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--crawl-lease-ms", o.crawler.lease_ms,
                 "How long a node's claim on a crawl lasts unless renewed; a crawl whose node "
                 "stopped resumes once its claim ends")
      ->envname("PARLEY_CRAWL_LEASE_MS")
      ->check(CLI::Range(int64_t{1000}, int64_t{3'600'000}))
      ->capture_default_str();
  // Left out of --help (an empty group): it exists only for the end-to-end tests.
  cmd.add_option("--crawl-page-pause-ms", o.crawler.page_pause_ms,
                 "Tests only: pause before each page of a crawl")
      ->envname("PARLEY_CRAWL_PAGE_PAUSE_MS")
      ->check(CLI::NonNegativeNumber)
      ->group("");
}
}  // namespace

void add_crawl_serve_options(CLI::App& cmd, CrawlOptions& o) {
  add_shared(cmd, o);
  cmd.add_option("--crawl-threads", o.crawler.threads, "Website crawls this node runs at once")
      ->envname("PARLEY_CRAWL_THREADS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--knowledge-refresh-check-ms", o.crawler.refresh_check_ms,
                 "How often the node looks for agents whose automatic refresh (knowledgeRefresh) "
                 "is due")
      ->envname("PARLEY_KNOWLEDGE_REFRESH_CHECK_MS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
}

void add_crawl_admin_options(CLI::App& cmd, CrawlOptions& o) { add_shared(cmd, o); }

void finish_crawl_options(CrawlOptions& o, bool allow_private_targets) {
  o.settings.allow_private_targets = allow_private_targets;
  o.crawler.fetch.allow_private_targets = allow_private_targets;
  if (o.crawler.fetch.user_agent.empty()) o.crawler.fetch.user_agent = crawler_user_agent(o.info_url);
}

}  // namespace parley
