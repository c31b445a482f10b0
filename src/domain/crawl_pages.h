// What a crawl records of each address of its frontier, each in one write transaction with the
// job's counters: a page read into a `website` source (created, or replaced when its text
// changed, or left as it is when unchanged), a page that failed (a failed source with the
// reason; a page answering 404/410 a second time in a row is deleted with what the agent learnt
// from it), or an address skipped with a reason. The links a page holds join the frontier in the
// same transaction. Every write names the worker's claim: a crawl cancelled or taken over meanwhile
// changes nothing (kStopped). Stateless functions over Services.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "domain/crawls.h"
#include "knowledge/source_listener.h"

namespace parley {

// An address found, to add to the frontier (normalised, in the crawl's scope).
struct FoundAddress {
  std::string url;
  int64_t depth = 0;
  bool from_sitemap = false;
};

// What fetching one frontier address came to.
struct PageResult {
  enum class Kind {
    kRead,       // a document read: title, blocks and text below
    kUnchanged,  // 304 Not Modified
    kFailed,     // an answer or a document that gives no text (reason)
    kGone,       // 404 or 410 (reason)
    kSkipped,    // not fetched or not kept (reason); no source
    kDropped,    // a page the site's sitemap no longer lists: its source is deleted
  };
  FrontierPage page;  // the frontier row, as read
  Kind kind = Kind::kSkipped;
  // The crawl whose scope the page belongs to (a refresh's pages keep their crawl's); empty:
  // the claimed crawl.
  std::string origin_crawl;
  std::string reason;
  std::string site;  // scheme://host[:port]: where template blocks are counted
  std::string title;
  // The block hashes of the page that may be template text, and the page's text without the
  // blocks of a given set (the site's blocks other pages keep).
  std::vector<uint64_t> blocks;
  std::function<std::string(const std::unordered_set<uint64_t>& skip)> render;
  std::string content_hash;  // of the whole text, template included
  std::optional<std::string> etag;
  std::optional<std::string> last_modified;
  std::vector<FoundAddress> links;  // to add to the frontier
};

enum class Settled {
  kDone,          // recorded
  kLimitReached,  // the page would pass the plan's training characters: nothing recorded
  kStopped,       // the crawl is no longer this claim's: nothing recorded
};

// Records what became of `result.page`; the trainer hears of sources queued or replaced.
Result<Settled> settle_page(Services& s, const CrawlClaim& claim, const PageResult& result,
                            SourceListener* listener);

// Adds addresses to the frontier of the claimed crawl (the start, a sitemap's pages); with
// `seeded`, also records that seeding is over and where the scope starts.
Result<Settled> add_addresses(Services& s, const CrawlClaim& claim,
                              const std::vector<FoundAddress>& addresses, bool seeded,
                              const std::optional<std::string>& scope_url);

// Marks the frontier row `from` skipped as another address of `to` (a redirect, a canonical
// address) and adds `to` to the frontier when it is new. Returns `to`'s frontier row when it
// is still queued (the caller reads it with the body it has), nothing when it was settled before.
Result<std::optional<FrontierPage>> record_alias(Services& s, const CrawlClaim& claim,
                                                 const FrontierPage& from, const FoundAddress& to,
                                                 const std::string& reason, bool* stopped);

}  // namespace parley
