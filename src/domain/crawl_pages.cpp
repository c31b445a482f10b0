#include "domain/crawl_pages.h"

#include "core/json.h"
#include "domain/sources.h"
#include "store/agent_repo.h"
#include "store/website_page_repo.h"

namespace parley {

namespace {
// The frontier holds at most this many addresses per page the crawl may fetch (links found
// beyond are dropped), so a site of endless generated links cannot grow it without end.
constexpr int64_t kFrontierPerPage = 10;
// 404/410 answers in a row after which a website source is deleted.
constexpr int64_t kGoneAnswers = 2;

// What one transaction of a settle changes outside the database, applied after it commits.
struct Effects {
  bool queued = false;         // a source waits for training
  bool deleted = false;        // a source was deleted
  std::string removed_source;  // a trained source left the index (replaced or deleted)
  int64_t removed_version = 0;
};

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

SourceRecord failed_source(Services& s, const AgentRecord& agent, const std::string& url,
                           const std::string& reason, int64_t now) {
  SourceRecord src;
  src.id = new_id(s.random, "src_");
  src.agent_id = agent.id;
  src.account_id = agent.account_id;
  src.type = "website";
  src.url = url;
  src.status = "failed";
  src.error = reason;
  src.created_at = src.updated_at = now;
  return src;
}

// Deletes a website source with what the agent learnt from it (the agent's row is rewritten
// later by settle_agent_status).
Result<void> remove_source(Connection& c, AgentRecord& agent, const SourceRecord& src,
                           Effects& fx) {
  if (src.status == "trained") {
    agent.characters -= src.characters;
    fx.removed_source = src.id;
    PARLEY_ASSIGN_OR_RETURN(fx.removed_version, SourceRepo::bump_version(c, agent.id));
  }
  PARLEY_TRY(SourceRepo::remove(c, src.id));
  fx.deleted = true;
  return AgentRepo::add_to_counter(c, agent.id, AgentCounter::kSources, -1);
}

WebsitePage page_record(const CrawlClaim& claim, const PageResult& r, std::string source_id,
                        int64_t now) {
  WebsitePage w;
  w.source_id = std::move(source_id);
  w.agent_id = claim.crawl.agent_id;
  w.url = r.page.url;
  w.crawl_id = r.origin_crawl.empty() ? claim.crawl.id : r.origin_crawl;
  w.depth = r.page.depth;
  w.from_sitemap = r.page.from_sitemap;
  w.fetched_at = now;
  return w;
}

// A page read: unchanged, the same text as another page's, only template text, or a source
// created or replaced. Sets `row` and `delta`; kLimitReached writes nothing.
Result<Settled> read_page(Services& s, Connection& c, const CrawlClaim& claim, const PageResult& r,
                          AgentRecord& agent, const std::optional<WebsitePage>& known,
                          std::optional<SourceRecord>& src, FrontierPage& row, CrawlProgress& delta,
                          Effects& fx, int64_t now) {
  row.content_hash = r.content_hash;
  row.etag = r.etag;
  row.last_modified = r.last_modified;
  if (known && src && src->status != "failed" && known->content_hash == r.content_hash) {
    WebsitePage w = *known;
    w.etag = r.etag;
    w.last_modified = r.last_modified;
    w.misses = 0;
    w.fetched_at = now;
    PARLEY_TRY(WebsitePageRepo::upsert(c, w));
    row.state = "unchanged";
    row.source_id = src->id;
    delta.unchanged = 1;
    return Settled::kDone;
  }
  PARLEY_ASSIGN_OR_RETURN(auto same,
                          CrawlRepo::url_with_hash(c, claim.crawl.id, r.content_hash, r.page.url));
  if (!same) {
    PARLEY_ASSIGN_OR_RETURN(
        same, WebsitePageRepo::url_with_hash(c, agent.id, r.content_hash, r.page.url));
  }
  if (same) {
    row.state = "skipped";
    row.reason = "Same text as " + *same + ".";
    delta.skipped = 1;
    return Settled::kDone;
  }
  const std::string keeper = src ? src->id : std::string();
  PARLEY_ASSIGN_OR_RETURN(auto shared,
                          WebsitePageRepo::kept_elsewhere(c, agent.id, r.site, keeper, r.blocks));
  std::string text = r.render(shared);
  if (is_blank(text)) {
    row.state = "skipped";
    row.reason = "No text of its own: only text the site's other pages share.";
    delta.skipped = 1;
    return Settled::kDone;
  }
  const auto characters = static_cast<int64_t>(utf8_length(text));
  const int64_t released = src && src->status != "failed" ? src->characters : 0;
  auto limit = check_character_limit(c, agent.account_id, agent.id, released, characters);
  if (!limit.ok()) {
    if (limit.error().code == ErrorCode::kCharacterLimitExceeded) return Settled::kLimitReached;
    return limit.error();
  }
  std::optional<std::string> title;
  if (!is_blank(r.title)) title = r.title;
  if (src) {
    if (src->status == "trained") {
      agent.characters -= src->characters;
      fx.removed_source = src->id;
      PARLEY_ASSIGN_OR_RETURN(fx.removed_version, SourceRepo::bump_version(c, agent.id));
    }
    src->content = std::move(text);
    src->characters = characters;
    src->status = "pending";
    src->error.reset();
    src->lease_until.reset();
    src->updated_at = now;
    PARLEY_TRY(SourceRepo::update(c, *src));
    PARLEY_TRY(SourceRepo::set_title(c, src->id, title));
  } else {
    SourceRecord fresh;
    fresh.id = new_id(s.random, "src_");
    fresh.agent_id = agent.id;
    fresh.account_id = agent.account_id;
    fresh.type = "website";
    fresh.title = title;
    fresh.url = r.page.url;
    fresh.content = std::move(text);
    fresh.characters = characters;
    fresh.created_at = fresh.updated_at = now;
    PARLEY_TRY(SourceRepo::insert(c, fresh));
    PARLEY_TRY(AgentRepo::add_to_counter(c, agent.id, AgentCounter::kSources, 1));
    src = std::move(fresh);
  }
  std::vector<uint64_t> kept;
  for (uint64_t h : r.blocks)
    if (!shared.count(h)) kept.push_back(h);
  PARLEY_TRY(WebsitePageRepo::keep_blocks(c, agent.id, r.site, src->id, kept));
  WebsitePage w = page_record(claim, r, src->id, now);
  w.etag = r.etag;
  w.last_modified = r.last_modified;
  w.content_hash = r.content_hash;
  PARLEY_TRY(WebsitePageRepo::upsert(c, w));
  row.state = "fetched";
  row.source_id = src->id;
  delta.fetched = 1;
  delta.characters = characters;
  fx.queued = true;
  return Settled::kDone;
}

// A page that gave no text: a 404/410 counts toward removal; a page read before keeps its
// source; a new one becomes a failed source with the reason.
Result<void> failed_page(Services& s, Connection& c, const CrawlClaim& claim, const PageResult& r,
                         AgentRecord& agent, const std::optional<WebsitePage>& known,
                         const std::optional<SourceRecord>& src, FrontierPage& row,
                         CrawlProgress& delta, Effects& fx, int64_t now) {
  const bool gone = r.kind == PageResult::Kind::kGone;
  row.state = "failed";
  row.reason = r.reason;
  delta.failed = 1;
  if (known && src) {
    row.source_id = src->id;
    if (gone) {
      PARLEY_ASSIGN_OR_RETURN(int64_t misses, WebsitePageRepo::add_miss(c, src->id));
      if (misses >= kGoneAnswers) {
        PARLEY_TRY(remove_source(c, agent, *src, fx));
        row.state = "removed";
        row.source_id.reset();
        delta.failed = 0;
        delta.removed = 1;
        return {};
      }
    }
    if (src->status == "failed") {
      SourceRecord updated = *src;
      updated.error = r.reason;
      updated.updated_at = now;
      PARLEY_TRY(SourceRepo::update(c, updated));
    }
    return {};
  }
  SourceRecord fresh = failed_source(s, agent, r.page.url, r.reason, now);
  PARLEY_TRY(SourceRepo::insert(c, fresh));
  PARLEY_TRY(AgentRepo::add_to_counter(c, agent.id, AgentCounter::kSources, 1));
  WebsitePage w = page_record(claim, r, fresh.id, now);
  w.misses = gone ? 1 : 0;
  PARLEY_TRY(WebsitePageRepo::upsert(c, w));
  row.source_id = fresh.id;
  return {};
}
}  // namespace

Result<Settled> settle_page(Services& s, const CrawlClaim& claim, const PageResult& r,
                            SourceListener* listener) {
  Settled out = Settled::kDone;
  Effects fx;
  bool stopped = false;
  auto written = s.db.write([&](Connection& c) -> Result<void> {
    out = Settled::kDone;
    fx = Effects{};
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
        PARLEY_ASSIGN_OR_RETURN(out,
                                read_page(s, c, claim, r, *agent, known, src, row, delta, fx, now));
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
        PARLEY_TRY(failed_page(s, c, claim, r, *agent, known, src, row, delta, fx, now));
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
          PARLEY_TRY(remove_source(c, *agent, *src, fx));
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
