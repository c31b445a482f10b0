#include "workers/crawl_run.h"

#include <set>

#include "core/log.h"
#include "crawl/scope.h"
#include "domain/crawl_pages.h"
#include "store/website_page_repo.h"
#include "workers/crawler.h"
#include "workers/page_reader.h"
#include "workers/site_reader.h"

namespace parley {

namespace {
constexpr int64_t kBatch = 16;            // frontier rows read at a time
constexpr size_t kFlushAddresses = 500;   // sitemap addresses written at a time
constexpr int kMaxSitemapDocuments = 20;  // per site, indexes included
constexpr size_t kMaxSitemapEntries = 50'000;

// The scope a page belongs to: the crawl's own, or (a refresh) each crawl its pages came from.
struct RunScope {
  std::string crawl_id;
  CrawlScope scope;
  int64_t max_depth = 0;
};

enum class Step { kNext, kStop, kLimit };

bool looks_like_sitemap(const Url& url) {
  const std::string& p = url.path;
  auto ends = [&](std::string_view s) {
    return p.size() >= s.size() && p.compare(p.size() - s.size(), s.size(), s) == 0;
  };
  return ends(".xml") || ends(".xml.gz");
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

class Run {
 public:
  Run(const CrawlRunContext& ctx, const CrawlClaim& claim)
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
  Step step(const FrontierPage& page);
  Step settle(PageResult result);
  Step skip(const FrontierPage& page, std::string reason);
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

Result<void> Run::load_scopes() {
  if (!refresh()) {
    auto start = parse_url(crawl_.scope_url.value_or(crawl_.url.value_or("")));
    if (!start) return ApiError::invalid("The crawl's address is not an http(s) URL.");
    rebased_ = crawl_.scope_url && crawl_.scope_url != crawl_.url;
    scopes_.push_back(
        {crawl_.id, CrawlScope(*start, crawl_.include, crawl_.exclude), crawl_.max_depth});
    return {};
  }
  // A refresh: the scope of every crawl the pages it revalidates came from.
  const std::string prefix = crawl_.url.value_or("");
  std::set<std::string> crawls;
  std::string after;
  PARLEY_ASSIGN_OR_RETURN(Connection & c, services_.db.read());
  while (true) {
    PARLEY_ASSIGN_OR_RETURN(auto pages,
                            WebsitePageRepo::list_after(c, crawl_.agent_id, prefix, after, 500));
    for (const auto& p : pages) {
      crawls.insert(p.crawl_id);
      if (crawl_.url && p.url == *crawl_.url) single_page_ = true;
    }
    if (pages.size() < 500) break;
    after = pages.back().url;
  }
  for (const auto& id : crawls) {
    PARLEY_ASSIGN_OR_RETURN(auto origin, CrawlRepo::find(c, id));
    if (!origin) continue;
    auto start = parse_url(origin->scope_url.value_or(origin->url.value_or("")));
    if (!start) continue;
    scopes_.push_back(
        {origin->id, CrawlScope(*start, origin->include, origin->exclude), origin->max_depth});
  }
  return {};
}

const RunScope* Run::scope_for(const Url& url) const {
  for (const auto& s : scopes_)
    if (s.scope.allows(url)) return &s;
  return nullptr;
}

const RunScope* Run::scope_of_crawl(std::string_view crawl_id) const {
  for (const auto& s : scopes_)
    if (s.crawl_id == crawl_id) return &s;
  return nullptr;
}

bool Run::may_follow(const Url& url) const {
  if (single_page_ || scope_for(url) == nullptr) return false;
  return !refresh() || !crawl_.url || starts_with(url.text(), *crawl_.url);
}

bool Run::flush(std::vector<FoundAddress>& found) {
  if (found.empty()) return true;
  auto added = add_addresses(services_, claim_, found, false, std::nullopt);
  found.clear();
  if (!added.ok()) failed(added.error());
  return added.ok() && *added == Settled::kDone;
}

// Pages of the site's sitemaps join `found` (flushed as it grows): `site` itself when the crawl
// starts from a sitemap, else those its robots.txt names, else /sitemap.xml. True when one was
// read.
bool Run::read_sitemaps(const Url& site, std::vector<FoundAddress>& found, bool start_is_sitemap) {
  int budget = kMaxSitemapDocuments;
  const size_t max_entries = std::min<size_t>(kMaxSitemapEntries, crawl_.max_pages * 10 + 100);
  bool ok = true;
  auto on_page = [&](const Url& page) {
    if (!ok || !may_follow(page)) return;
    found.push_back(FoundAddress{page.text(), 0, true});
    if (found.size() >= kFlushAddresses) ok = flush(found);
  };
  if (start_is_sitemap) return site_.read_sitemap(site, budget, max_entries, on_page);
  bool read = false;
  const auto& named = site_.robots_for(site).rules.sitemaps();
  for (const auto& text : named)
    if (auto address = parse_url(text))
      read = site_.read_sitemap(*address, budget, max_entries, on_page) || read;
  if (named.empty()) {
    Url fallback = site;
    fallback.path = "/sitemap.xml";
    fallback.query.clear();
    read = site_.read_sitemap(fallback, budget, max_entries, on_page);
  }
  return read && ok;
}

bool Run::seed() {
  const Url& start = scopes_.front().scope.start();
  std::vector<FoundAddress> found;
  if (!looks_like_sitemap(start) || !read_sitemaps(start, found, true)) {
    // A page: it comes first, then what the site's sitemaps list.
    found.insert(found.begin(), FoundAddress{start.text(), 0, false});
    if (!flush(found)) return false;
    read_sitemaps(start, found, false);
  }
  if (!ctx_.holding()) return false;
  auto added = add_addresses(services_, claim_, found, true, start.text());
  if (!added.ok()) failed(added.error());
  return added.ok() && *added == Settled::kDone;
}

bool Run::seed_refresh() {
  const std::string prefix = crawl_.url.value_or("");
  std::vector<FoundAddress> found;
  std::set<std::string> sitemap_read;  // origins whose sitemap was read
  if (!single_page_) {
    std::set<std::string> origins;
    for (const auto& s : scopes_) {
      const Url& start = s.scope.start();
      if (!origins.insert(start.origin()).second) continue;
      if (read_sitemaps(start, found, looks_like_sitemap(start)))
        sitemap_read.insert(start.origin());
      if (!ctx_.holding()) return false;
    }
    if (!flush(found)) return false;
  }
  std::string after;
  while (ctx_.holding()) {
    std::vector<WebsitePage> pages;
    {
      auto c = services_.db.read();
      if (!c.ok()) return failed(c.error()), false;
      auto listed = WebsitePageRepo::list_after(*c, crawl_.agent_id, prefix, after, kBatch);
      if (!listed.ok()) return failed(listed.error()), false;
      pages = std::move(*listed);
    }
    if (pages.empty()) break;
    after = pages.back().url;
    for (const auto& p : pages) {
      FoundAddress address{p.url, p.depth, p.from_sitemap};
      auto url = parse_url(p.url);
      bool listed_before = p.from_sitemap && url && sitemap_read.count(url->origin());
      if (listed_before) {
        auto c = services_.db.read();
        if (!c.ok()) return failed(c.error()), false;
        auto row = CrawlRepo::find_page(*c, crawl_.id, p.url);
        if (!row.ok()) return failed(row.error()), false;
        if (!*row) {
          // The site's sitemap listed it when it was read, and lists it no more: dropped.
          if (!add_addresses(services_, claim_, {address}, false, std::nullopt).ok()) return false;
          PageResult dropped;
          dropped.page.crawl_id = crawl_.id;
          dropped.page.url = p.url;
          dropped.page.depth = p.depth;
          dropped.kind = PageResult::Kind::kDropped;
          dropped.reason = "No longer in the site's sitemap.";
          if (settle(std::move(dropped)) != Step::kNext) return false;
          continue;
        }
      }
      found.push_back(std::move(address));
    }
    if (!flush(found)) return false;
  }
  if (!ctx_.holding()) return false;
  auto added = add_addresses(services_, claim_, {}, true, std::nullopt);
  if (!added.ok()) failed(added.error());
  return added.ok() && *added == Settled::kDone;
}

Step Run::settle(PageResult result) {
  auto settled = settle_page(services_, claim_, result, ctx_.listener);
  if (!settled.ok()) {
    log_error("recording a crawled page failed",
              {{"crawlId", std::string_view(crawl_.id)},
               {"url", std::string_view(result.page.url)},
               {"error", std::string_view(settled.error().message)}});
    return Step::kStop;
  }
  if (*settled == Settled::kStopped) return Step::kStop;
  if (*settled == Settled::kLimitReached) return Step::kLimit;
  return Step::kNext;
}

Step Run::skip(const FrontierPage& page, std::string reason) {
  PageResult r;
  r.page = page;
  r.kind = PageResult::Kind::kSkipped;
  r.reason = std::move(reason);
  return settle(std::move(r));
}

Step Run::step(const FrontierPage& page) {
  if (ctx_.options.page_pause_ms > 0 && !ctx_.pause(ctx_.options.page_pause_ms)) return Step::kStop;
  if (!ctx_.holding()) return Step::kStop;
  auto url = parse_url(page.url);
  if (!url) return skip(page, "Not an http(s) address.");
  std::optional<WebsitePage> known;
  {
    auto c = services_.db.read();
    if (!c.ok()) return Step::kStop;
    auto found = WebsitePageRepo::find_by_url(*c, crawl_.agent_id, page.url);
    if (!found.ok()) return Step::kStop;
    known = std::move(*found);
  }
  const RunScope* scope = known ? scope_of_crawl(known->crawl_id) : nullptr;
  if (scope == nullptr) scope = scope_for(*url);
  // The start is read whatever the patterns say (they choose among the pages found from it).
  if (scope == nullptr && !refresh() && page.url == scopes_.front().scope.start().text())
    scope = &scopes_.front();
  if (scope == nullptr && !(refresh() && known)) return skip(page, "Outside the crawl's scope.");
  if (auto why = not_a_page(*url)) return skip(page, *why);
  if (refresh() && !known && new_pages_ >= crawl_.max_pages)
    return skip(page, "Past the refresh's page cap (" + std::to_string(crawl_.max_pages) + ").");
  const auto& robots = site_.robots_for(*url);
  if (!robots.rules.allowed(url->path_and_query())) return skip(page, robots.blocked_reason);
  ++fetches_;
  if (!known) ++new_pages_;
  // A refresh revalidates (a 304 costs no body); a crawl needs the body for its links, and
  // tells an unchanged page by the hash of its text.
  SiteReader::Answer answer = known && refresh()
                                  ? site_.fetch(*url, known->etag, known->last_modified)
                                  : site_.fetch(*url);
  if (answer.stopped) return Step::kStop;
  ctx_.pages_fetched.fetch_add(1, std::memory_order_relaxed);
  FrontierPage row = page;
  if (answer.address.text() != url->text()) {
    const RunScope* target_scope = scope_for(answer.address);
    if (target_scope == nullptr && !refresh() && !rebased_ && page.url == crawl_.url) {
      // The start moved (http to https, another host name): the crawl follows it there.
      rebased_ = true;
      scopes_.front().scope = CrawlScope(answer.address, crawl_.include, crawl_.exclude);
      auto moved = add_addresses(services_, claim_, {}, true, answer.address.text());
      if (!moved.ok() || *moved != Settled::kDone) return Step::kStop;
      target_scope = scope = &scopes_.front();
    }
    if (target_scope == nullptr)
      return skip(page, "Redirects off the site, to " + answer.address.text() + ".");
    if (!site_.robots_for(answer.address).rules.allowed(answer.address.path_and_query()))
      return skip(
          page, "Redirects to " + answer.address.text() + ", which the site's robots.txt blocks.");
    bool stopped = false;
    auto target = record_alias(services_, claim_, page,
                               FoundAddress{answer.address.text(), page.depth, page.from_sitemap},
                               "Redirects to " + answer.address.text() + ".", &stopped);
    if (!target.ok() || stopped) return Step::kStop;
    if (!*target) return Step::kNext;  // read before, under that address
    row = **target;
    scope = target_scope;
  }
  const int64_t depth = scope && row.depth < scope->max_depth ? row.depth + 1 : -1;
  ReadPage read = read_page_answer(answer.address, answer.response, depth,
                                   [this](const Url& u) { return may_follow(u); });
  if (read.canonical) {
    bool stopped = false;
    auto target = record_alias(
        services_, claim_, row, FoundAddress{read.canonical->text(), row.depth, row.from_sitemap},
        "Its canonical address is " + read.canonical->text() + ".", &stopped);
    if (!target.ok() || stopped) return Step::kStop;
    if (!*target) return Step::kNext;
    row = **target;
  }
  read.result.page = row;
  if (scope) read.result.origin_crawl = scope->crawl_id;
  return settle(std::move(read.result));
}

void Run::finish(std::string_view status, const std::optional<ApiError>& error) {
  auto done = finish_crawl(services_, claim_, status, error);
  if (!done.ok())
    log_error("ending a crawl failed", {{"crawlId", std::string_view(crawl_.id)},
                                        {"error", std::string_view(done.error().message)}});
  else if (*done)
    log_info("crawl ended", {{"crawlId", std::string_view(crawl_.id)},
                             {"status", status},
                             {"pagesRequested", fetches_}});
}

void Run::failed(const ApiError& e) {
  log_error("a crawl step failed",
            {{"crawlId", std::string_view(crawl_.id)}, {"error", std::string_view(e.message)}});
}

void Run::go() {
  if (auto loaded = load_scopes(); !loaded.ok()) return finish("failed", loaded.error());
  if (scopes_.empty()) return finish("done");
  if (!crawl_.seeded && !(refresh() ? seed_refresh() : seed())) return;
  const CrawlProgress& p = crawl_.progress;
  fetches_ = p.fetched + p.failed + p.unchanged;
  while (ctx_.holding()) {
    std::vector<FrontierPage> batch;
    {
      auto c = services_.db.read();
      if (!c.ok()) return failed(c.error());
      auto next = CrawlRepo::next_queued(*c, crawl_.id, kBatch);
      if (!next.ok()) return failed(next.error());
      batch = std::move(*next);
    }
    if (batch.empty()) return finish("done");
    for (const auto& page : batch) {
      if (fetches_ >= crawl_.max_pages && !refresh()) return finish("done");
      switch (step(page)) {
        case Step::kNext:
          break;
        case Step::kStop:
          return;
        case Step::kLimit:
          return finish("failed",
                        ApiError{ErrorCode::kCharacterLimitExceeded,
                                 "The crawl stopped at " + page.url +
                                     ": its text would pass the "
                                     "agent's training characters. The pages read before it were "
                                     "added."});
      }
    }
  }
}
}  // namespace

void run_crawl_job(const CrawlRunContext& ctx, const CrawlClaim& claim) {
  Run run(ctx, claim);
  run.go();
}

}  // namespace parley
