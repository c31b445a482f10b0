#include "domain/crawl_page_sources.h"

#include "core/json.h"
#include "domain/sources.h"
#include "store/agent_repo.h"

namespace parley {

namespace {
// 404/410 answers in a row after which a website source is deleted.
constexpr int64_t kGoneAnswers = 2;

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
}  // namespace

// Deletes a website source with what the agent learnt from it (the agent's row is rewritten
// later by settle_agent_status).
Result<void> remove_website_source(Connection& c, AgentRecord& agent, const SourceRecord& src,
                                   PageEffects& fx) {
  if (src.status == "trained") {
    agent.characters -= src.characters;
    fx.removed_source = src.id;
    PARLEY_ASSIGN_OR_RETURN(fx.removed_version, SourceRepo::bump_version(c, agent.id));
  }
  PARLEY_TRY(SourceRepo::remove(c, src.id));
  fx.deleted = true;
  return AgentRepo::add_to_counter(c, agent.id, AgentCounter::kSources, -1);
}

// A page read: unchanged, the same text as another page's, only template text, or a source
// created or replaced. Sets `row` and `delta`; kLimitReached writes nothing.
Result<Settled> record_page_read(Services& s, Connection& c, const CrawlClaim& claim,
                                 const PageResult& r, AgentRecord& agent,
                                 const std::optional<WebsitePage>& known,
                                 std::optional<SourceRecord>& src, FrontierPage& row,
                                 CrawlProgress& delta, PageEffects& fx, int64_t now) {
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
Result<void> record_page_failed(Services& s, Connection& c, const CrawlClaim& claim,
                                const PageResult& r, AgentRecord& agent,
                                const std::optional<WebsitePage>& known,
                                const std::optional<SourceRecord>& src, FrontierPage& row,
                                CrawlProgress& delta, PageEffects& fx, int64_t now) {
  const bool gone = r.kind == PageResult::Kind::kGone;
  row.state = "failed";
  row.reason = r.reason;
  delta.failed = 1;
  if (known && src) {
    row.source_id = src->id;
    if (gone) {
      PARLEY_ASSIGN_OR_RETURN(int64_t misses, WebsitePageRepo::add_miss(c, src->id));
      if (misses >= kGoneAnswers) {
        PARLEY_TRY(remove_website_source(c, agent, *src, fx));
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

}  // namespace parley
