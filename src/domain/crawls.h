// Website crawls as jobs (docs/decisions/crawler.md): starting a crawl of a site or a refresh of
// an agent's website sources, listing and reading them, cancelling one, and the steps a worker
// takes (claim with a lease, renew it, finish). The crawl itself (fetching, reading pages into
// sources) is workers/crawler.h; what it records per page is domain/crawl_pages.h.
// Stateless functions over Services; each write is one transaction.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "net/url_guard.h"
#include "store/crawl_repo.h"
#include "store/services.h"

namespace parley {

// The operator's crawl settings (parley serve and parley admin options).
struct CrawlSettings {
  int64_t max_pages = 50'000;    // --crawl-max-pages: no crawl names more, whatever the plan
  int64_t max_depth = 10;        // --crawl-max-depth: the default and the most a crawl may name
  int64_t active_per_agent = 3;  // crawls and refreshes queued or running at once per agent
  bool allow_private_targets = false;  // tests and local development only
};

// Hears that a crawl was queued (the crawler's workers wake instead of waiting for their poll).
class CrawlListener {
 public:
  virtual ~CrawlListener() = default;
  virtual void crawls_queued() = 0;
};

// What the fronts need to start crawls: the operator's settings, the resolver the URL guard
// checks addresses with, and the crawler to wake (null: it polls). Built once by the server.
struct CrawlDesk {
  CrawlSettings settings;
  Resolver& resolver;
  CrawlListener* listener = nullptr;
};

inline constexpr size_t kMaxCrawlPatterns = 50;
inline constexpr size_t kMaxCrawlPatternChars = 200;

struct NewCrawl {
  std::string url;
  std::optional<int64_t> max_pages;
  std::optional<int64_t> max_depth;
  std::vector<std::string> include;
  std::vector<std::string> exclude;
};

// 400 naming the field when the request is malformed (the URL's form included; the guard's
// address checks come later, in start_crawl).
Result<void> validate_new_crawl(const NewCrawl& crawl, const CrawlSettings& settings);

// The address a crawl starts from, checked by the URL guard: http or https, no user or password,
// a host that resolves, only to public addresses (unless the settings allow private ones), and
// normalised. 400 invalid_request naming 'url'.
Result<std::string> check_crawl_url(std::string_view url, Resolver& resolver,
                                    const CrawlSettings& settings);

// Queues a crawl of the agent's site. 404 for another account's agent; 400 naming 'maxPages'
// past the plan's page cap; 409 conflict when the agent already has settings.active_per_agent
// jobs under way.
Result<CrawlRecord> start_crawl(Services& s, const CrawlSettings& settings, Resolver& resolver,
                                std::string_view account_id, std::string_view agent_id,
                                const NewCrawl& crawl);
// Queues a refresh of the agent's website sources: every one, or those whose address starts
// with `url` (one page, or a site). 404 for another account's agent; 400 naming 'url' when no
// website source of the agent matches.
Result<CrawlRecord> start_refresh(Services& s, const CrawlSettings& settings,
                                  std::string_view account_id, std::string_view agent_id,
                                  const std::optional<std::string>& url);

// The agent's crawls, newest first (at most 100). 404 for another account's agent.
Result<std::vector<CrawlRecord>> list_crawls(Connection& c, std::string_view account_id,
                                             std::string_view agent_id);
// 404 when the crawl is not one of the account's.
Result<CrawlRecord> get_crawl(Connection& c, std::string_view account_id, std::string_view id);
// Cancels a queued or running crawl (a worker running it stops at its next step, keeping the
// pages it added). 404 as get_crawl; 409 conflict when it had already ended.
Result<CrawlRecord> cancel_crawl(Services& s, std::string_view account_id, std::string_view id);

// A worker's hold on a crawl: the job as claimed and the random owner its writes carry.
struct CrawlClaim {
  CrawlRecord crawl;
  std::string owner;
};
// Takes the oldest queued crawl, or a running one whose lease ended (its worker stopped), for
// `lease_ms`; nothing when there is none.
Result<std::optional<CrawlClaim>> claim_next_crawl(Services& s, int64_t lease_ms);
// Takes this crawl (parley admin source crawl --wait) when it is claimable; nothing otherwise.
Result<std::optional<CrawlClaim>> claim_crawl(Services& s, std::string_view id, int64_t lease_ms);
// Extends the claim; false when the crawl was cancelled or taken over (the worker stops).
Result<bool> renew_crawl(Services& s, const CrawlClaim& claim, int64_t lease_ms);
// Ends the claimed crawl: done, or failed with an error code and message.
Result<bool> finish_crawl(Services& s, const CrawlClaim& claim, std::string_view status,
                          const std::optional<ApiError>& error = std::nullopt);

}  // namespace parley
