#include "domain/crawl_pages.h"

#include "domain/crawl_page_sources.h"
#include "domain/sources.h"
#include "store/agent_repo.h"
#include "store/website_page_repo.h"

namespace parley {

namespace {
// The frontier holds at most this many addresses per page the crawl may fetch (links found
// beyond are dropped), so a site of endless generated links cannot grow it without end.
constexpr int64_t kFrontierPerPage = 10;

// Whether the claim still holds its crawl: running, owned by this claim.
Result<bool> still_ours(Connection& c, const CrawlClaim& claim) {
  PARLEY_ASSIGN_OR_RETURN(auto x, CrawlRepo::find(c, claim.crawl.id));
  return x && x->status == "running" && x->lease_owner == claim.owner;
}

// Adds the addresses the frontier does not hold yet, numbered from the crawl's count found;
// returns how many were added.
Result<int64_t> add_to_frontier(Connection& c, const CrawlClaim& claim,
                                const std::vector<FoundAddress>& addresses) {
  if (addresses.empty()) return int64_t{0};
  PARLEY_ASSIGN_OR_RETURN(auto x, CrawlRepo::find(c, claim.crawl.id));
  if (!x) return int64_t{0};
  const int64_t cap = x->max_pages * kFrontierPerPage + 100;
  int64_t seq = x->progress.found;
  int64_t added = 0;
  for (const auto& a : addresses) {
    if (seq >= cap) break;
    FrontierPage p;
    p.crawl_id = claim.crawl.id;
    p.url = a.url;
    p.seq = seq;
    p.depth = a.depth;
    p.from_sitemap = a.from_sitemap;
    PARLEY_ASSIGN_OR_RETURN(bool inserted, CrawlRepo::add_page(c, p));
    if (inserted) {
      ++seq;
      ++added;
    }
  }
  return added;
}
}  // namespace

Result<Settled> settle_page(Services& s, const CrawlClaim& claim, const PageResult& r,
                            SourceListener* listener) {
  Settled out = Settled::kDone;
  PageEffects fx;
  bool stopped = false;
  auto written = s.db.write([&](Connection& c) -> Result<void> {
    out = Settled::kDone;
    fx = PageEffects{};
    stopped = false;
    const std::string& agent_id = claim.crawl.agent_id;
    PARLEY_TRY(AgentRepo::lock(c, agent_id));  // its characters, status and sources change
    PARLEY_ASSIGN_OR_RETURN(bool ours, still_ours(c, claim));
    PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find_any(c, agent_id));
    if (!ours || !agent) {
      out = Settled::kStopped;
      return {};
    }
    const int64_t now = s.clock.now_ms();
    PARLEY_ASSIGN_OR_RETURN(auto known, WebsitePageRepo::find_by_url(c, agent_id, r.page.url));
    std::optional<SourceRecord> src;
    if (known) {
      PARLEY_ASSIGN_OR_RETURN(src, SourceRepo::find(c, agent_id, known->source_id));
    }
    FrontierPage row = r.page;
    CrawlProgress delta;
    switch (r.kind) {
      case PageResult::Kind::kRead: {
        PARLEY_ASSIGN_OR_RETURN(
            out, record_page_read(s, c, claim, r, *agent, known, src, row, delta, fx, now));
        if (out != Settled::kDone) return {};
        break;
      }
      case PageResult::Kind::kUnchanged:
        if (known && src) {
          WebsitePage w = *known;
          w.misses = 0;
          w.fetched_at = now;
          PARLEY_TRY(WebsitePageRepo::upsert(c, w));
          row.state = "unchanged";
          row.source_id = src->id;
          delta.unchanged = 1;
          break;
        }
        row.state = "skipped";
        row.reason = "The server answered 304 Not Modified to a request that asked for the page.";
        delta.skipped = 1;
        break;
      case PageResult::Kind::kFailed:
      case PageResult::Kind::kGone:
        PARLEY_TRY(record_page_failed(s, c, claim, r, *agent, known, src, row, delta, fx, now));
        break;
      case PageResult::Kind::kSkipped:
        row.state = "skipped";
        row.reason = r.reason;
        delta.skipped = 1;
        break;
      case PageResult::Kind::kDropped:
        row.state = "skipped";
        row.reason = r.reason;
        delta.skipped = 1;
        if (src) {
          PARLEY_TRY(remove_website_source(c, *agent, *src, fx));
          row.state = "removed";
          delta.skipped = 0;
          delta.removed = 1;
        }
        break;
    }
    PARLEY_ASSIGN_OR_RETURN(delta.found, add_to_frontier(c, claim, r.links));
    PARLEY_TRY(CrawlRepo::settle_page(c, row));
    if (fx.deleted) {
      PARLEY_TRY(settle_agent_status(c, *agent));  // a source left: count what remains
    } else if (fx.queued) {
      // A source waits for training: the agent trains (without counting every source per page).
      agent->status = "training";
      PARLEY_TRY(AgentRepo::update(c, *agent));
    }
    PARLEY_ASSIGN_OR_RETURN(bool counted,
                            CrawlRepo::add_progress(c, claim.crawl.id, claim.owner, delta, now));
    if (!counted) {
      stopped = true;
      return ApiError{ErrorCode::kConflict, "The crawl is no longer this worker's."};
    }
    return {};
  });
  if (!written.ok()) {
    if (stopped) return Settled::kStopped;
    return written.error();
  }
  if (listener != nullptr) {
    if (fx.removed_version != 0)
      listener->source_removed(claim.crawl.agent_id, fx.removed_source, fx.removed_version);
    if (fx.queued) listener->sources_queued();
  }
  return out;
}

Result<Settled> add_addresses(Services& s, const CrawlClaim& claim,
                              const std::vector<FoundAddress>& addresses, bool seeded,
                              const std::optional<std::string>& scope_url) {
  Settled out = Settled::kDone;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    out = Settled::kDone;
    PARLEY_ASSIGN_OR_RETURN(bool ours, still_ours(c, claim));
    if (!ours) {
      out = Settled::kStopped;
      return {};
    }
    const int64_t now = s.clock.now_ms();
    CrawlProgress delta;
    PARLEY_ASSIGN_OR_RETURN(delta.found, add_to_frontier(c, claim, addresses));
    PARLEY_TRY(CrawlRepo::add_progress(c, claim.crawl.id, claim.owner, delta, now));
    if (seeded) PARLEY_TRY(CrawlRepo::set_seeded(c, claim.crawl.id, claim.owner, scope_url, now));
    return {};
  }));
  return out;
}

Result<std::optional<FrontierPage>> record_alias(Services& s, const CrawlClaim& claim,
                                                 const FrontierPage& from, const FoundAddress& to,
                                                 const std::string& reason, bool* stopped) {
  std::optional<FrontierPage> out;
  *stopped = false;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    out.reset();
    *stopped = false;
    PARLEY_ASSIGN_OR_RETURN(bool ours, still_ours(c, claim));
    if (!ours) {
      *stopped = true;
      return {};
    }
    CrawlProgress delta;
    PARLEY_ASSIGN_OR_RETURN(delta.found, add_to_frontier(c, claim, {to}));
    FrontierPage row = from;
    row.state = "skipped";
    row.reason = reason;
    PARLEY_TRY(CrawlRepo::settle_page(c, row));
    delta.skipped = 1;
    PARLEY_TRY(CrawlRepo::add_progress(c, claim.crawl.id, claim.owner, delta, s.clock.now_ms()));
    PARLEY_ASSIGN_OR_RETURN(auto target, CrawlRepo::find_page(c, claim.crawl.id, to.url));
    if (target && target->state == "queued") out = std::move(target);
    return {};
  }));
  return out;
}

}  // namespace parley
