// The website source side of recording one crawled page (domain/crawl_pages.h), run inside
// settle_page's transaction with the agent's row locked: a page read creates, replaces or leaves
// its source (template blocks kept once per site, the same text kept once, the plan's training
// characters checked); a page that failed becomes a failed source, or counts a 404/410 toward
// deleting the source it was. Internal to domain/crawl_pages.cpp.
#pragma once

#include <optional>
#include <string>

#include "domain/crawl_pages.h"
#include "store/agent_repo.h"
#include "store/source_repo.h"
#include "store/website_page_repo.h"

namespace parley {

// What one settle changes outside the database, applied after its transaction commits.
struct PageEffects {
  bool queued = false;         // a source waits for training
  bool deleted = false;        // a source was deleted
  std::string removed_source;  // a trained source left the index (replaced or deleted)
  int64_t removed_version = 0;
};

// Deletes a website source with what the agent learnt from it (the caller rewrites the agent's
// row afterwards).
Result<void> remove_website_source(Connection& c, AgentRecord& agent, const SourceRecord& src,
                                   PageEffects& fx);

// A page read (result.kind kRead): sets `row` (the frontier row's outcome) and `delta` (the
// crawl's counters). kLimitReached writes nothing.
Result<Settled> record_page_read(Services& s, Connection& c, const CrawlClaim& claim,
                                 const PageResult& r, AgentRecord& agent,
                                 const std::optional<WebsitePage>& known,
                                 std::optional<SourceRecord>& src, FrontierPage& row,
                                 CrawlProgress& delta, PageEffects& fx, int64_t now);

// A page that gave no text (kFailed, kGone).
Result<void> record_page_failed(Services& s, Connection& c, const CrawlClaim& claim,
                                const PageResult& r, AgentRecord& agent,
                                const std::optional<WebsitePage>& known,
                                const std::optional<SourceRecord>& src, FrontierPage& row,
                                CrawlProgress& delta, PageEffects& fx, int64_t now);

}  // namespace parley
