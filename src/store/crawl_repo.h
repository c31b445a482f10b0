// Website crawl jobs and their frontiers (migration 0038). A job is claimed by one worker at a
// time: the claim writes a random `lease_owner` and a lease end, and every write a worker makes
// afterwards names its owner, so a worker whose lease ran out (and was taken over) or whose job
// was cancelled changes nothing. Counters move by single UPDATE ... SET n = n + d statements.
// Stateless; every function runs on the connection it is given.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/db.h"

namespace parley {

struct CrawlProgress {
  int64_t found = 0;
  int64_t fetched = 0;
  int64_t skipped = 0;
  int64_t failed = 0;
  int64_t unchanged = 0;
  int64_t removed = 0;
  int64_t characters = 0;
};

struct CrawlRecord {
  std::string id;
  std::string account_id;
  std::string agent_id;
  std::string kind = "crawl";            // "crawl" or "refresh"
  std::optional<std::string> url;        // normalised; a refresh of every website: none
  std::optional<std::string> scope_url;  // the start after its redirects
  int64_t max_pages = 0;
  int64_t max_depth = 0;
  std::vector<std::string> include;
  std::vector<std::string> exclude;
  std::string status = "queued";  // queued, running, done, cancelled, failed
  bool seeded = false;
  CrawlProgress progress;
  std::optional<std::string> error_code;
  std::optional<std::string> error_message;
  std::optional<std::string> lease_owner;
  std::optional<int64_t> lease_until;
  int64_t created_at = 0;
  int64_t updated_at = 0;
  std::optional<int64_t> started_at;
  std::optional<int64_t> finished_at;

  bool active() const { return status == "queued" || status == "running"; }
};

// One address of a frontier.
struct FrontierPage {
  std::string crawl_id;
  std::string url;
  int64_t seq = 0;
  int64_t depth = 0;
  std::string state = "queued";  // queued, fetched, unchanged, skipped, failed, removed
  std::optional<std::string> reason;
  std::optional<std::string> source_id;
  bool from_sitemap = false;
  std::optional<std::string> etag;
  std::optional<std::string> last_modified;
  std::optional<std::string> content_hash;
};

// An agent whose settings name knowledgeRefresh (the scheduler reads the value).
struct RefreshCandidate {
  std::string agent_id;
  std::string account_id;
  std::string settings;
};

class CrawlRepo {
 public:
  static Result<void> insert(Connection& c, const CrawlRecord& crawl);
  static Result<std::optional<CrawlRecord>> find(Connection& c, std::string_view id);
  // Newest first, at most `limit`.
  static Result<std::vector<CrawlRecord>> list_for_agent(Connection& c, std::string_view agent_id,
                                                         int64_t limit);
  // The agent's jobs that are queued or running.
  static Result<int64_t> count_active(Connection& c, std::string_view agent_id);
  // When the agent's newest job of `kind` was created, if it has one.
  static Result<std::optional<int64_t>> last_created(Connection& c, std::string_view agent_id,
                                                     std::string_view kind);

  // The agents whose settings mention knowledgeRefresh, at most `limit` after `after_id`.
  static Result<std::vector<RefreshCandidate>> refresh_candidates(Connection& c,
                                                                  std::string_view after_id,
                                                                  int64_t limit);

  // The oldest job a worker may take: queued, or running with a lease that ended before `now`.
  static Result<std::optional<CrawlRecord>> next_claimable(Connection& c, int64_t now);
  // Makes `owner` the job's worker until `lease_until` if it is still claimable; false when
  // another worker took it first (or it ended).
  static Result<bool> claim(Connection& c, std::string_view id, std::string_view owner, int64_t now,
                            int64_t lease_until);
  // Extends the owner's lease; false when the job is no longer the owner's running job
  // (cancelled, or taken over after the lease ended).
  static Result<bool> renew(Connection& c, std::string_view id, std::string_view owner,
                            int64_t lease_until);
  // The owner records where the scope starts and that the frontier is seeded.
  static Result<bool> set_seeded(Connection& c, std::string_view id, std::string_view owner,
                                 const std::optional<std::string>& scope_url, int64_t now);
  // Adds `delta` to the counters of the owner's running job; false when it is not that.
  static Result<bool> add_progress(Connection& c, std::string_view id, std::string_view owner,
                                   const CrawlProgress& delta, int64_t now);
  // Ends the owner's running job with `status` (done or failed) and an optional error.
  static Result<bool> finish(Connection& c, std::string_view id, std::string_view owner,
                             std::string_view status, const std::optional<std::string>& error_code,
                             const std::optional<std::string>& error_message, int64_t now);
  // Ends a queued or running job as cancelled; false when it had already ended.
  static Result<bool> cancel(Connection& c, std::string_view id, int64_t now);

  // Frontier. Adds the address unless the job has it already; true when added.
  static Result<bool> add_page(Connection& c, const FrontierPage& page);
  static Result<std::optional<FrontierPage>> find_page(Connection& c, std::string_view crawl_id,
                                                       std::string_view url);
  // Up to `limit` queued addresses, breadth first (depth, then the order found).
  static Result<std::vector<FrontierPage>> next_queued(Connection& c, std::string_view crawl_id,
                                                       int64_t limit);
  // Writes what became of a page: state, reason, source, validators and content hash.
  static Result<void> settle_page(Connection& c, const FrontierPage& page);
  // Another address of the job already read with this content hash, if any.
  static Result<std::optional<std::string>> url_with_hash(Connection& c, std::string_view crawl_id,
                                                          std::string_view content_hash,
                                                          std::string_view other_than);
};

}  // namespace parley
