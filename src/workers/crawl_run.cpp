#include "workers/crawl_run.h"

#include "core/log.h"
#include "store/website_page_repo.h"
#include "workers/crawl_run_state.h"
#include "workers/crawler.h"
#include "workers/page_reader.h"

namespace parley {

CrawlStep CrawlRun::settle(PageResult result) {
  auto settled = settle_page(services_, claim_, result, ctx_.listener);
  if (!settled.ok()) {
    log_error("recording a crawled page failed",
              {{"crawlId", std::string_view(crawl_.id)},
               {"url", std::string_view(result.page.url)},
               {"error", std::string_view(settled.error().message)}});
    return CrawlStep::kStop;
  }
  if (*settled == Settled::kStopped) return CrawlStep::kStop;
  if (*settled == Settled::kLimitReached) return CrawlStep::kLimit;
  return CrawlStep::kNext;
}

CrawlStep CrawlRun::skip(const FrontierPage& page, std::string reason) {
  PageResult r;
  r.page = page;
  r.kind = PageResult::Kind::kSkipped;
  r.reason = std::move(reason);
  return settle(std::move(r));
}

CrawlStep CrawlRun::step(const FrontierPage& page) {
  if (ctx_.options.page_pause_ms > 0 && !ctx_.pause(ctx_.options.page_pause_ms)) return CrawlStep::kStop;
  if (!ctx_.holding()) return CrawlStep::kStop;
  auto url = parse_url(page.url);
  if (!url) return skip(page, "Not an http(s) address.");
  std::optional<WebsitePage> known;
  {
    auto c = services_.db.read();
    if (!c.ok()) return CrawlStep::kStop;
    auto found = WebsitePageRepo::find_by_url(*c, crawl_.agent_id, page.url);
    if (!found.ok()) return CrawlStep::kStop;
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
  SiteReader::Answer answer =
      known && refresh() ? site_.fetch(*url, known->etag, known->last_modified) : site_.fetch(*url);
  if (answer.stopped) return CrawlStep::kStop;
  ctx_.pages_fetched.fetch_add(1, std::memory_order_relaxed);
  FrontierPage row = page;
  if (answer.address.text() != url->text()) {
    const RunScope* target_scope = scope_for(answer.address);
    if (target_scope == nullptr && !refresh() && !rebased_ && page.url == crawl_.url) {
      // The start moved (http to https, another host name): the crawl follows it there.
      rebased_ = true;
      scopes_.front().scope = CrawlScope(answer.address, crawl_.include, crawl_.exclude);
      auto moved = add_addresses(services_, claim_, {}, true, answer.address.text());
      if (!moved.ok() || *moved != Settled::kDone) return CrawlStep::kStop;
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
    if (!target.ok() || stopped) return CrawlStep::kStop;
    if (!*target) return CrawlStep::kNext;  // read before, under that address
    row = **target;
    scope = target_scope;
  }
  const int64_t depth = scope && row.depth < scope->max_depth ? row.depth + 1 : -1;
  ReadPage read = read_page_answer(answer.address, answer.response, depth,
                                   [this](const Url& u) { return may_follow(u); });
  if (read.stopped) return CrawlStep::kStop;
  if (read.canonical) {
    bool stopped = false;
    auto target = record_alias(
        services_, claim_, row, FoundAddress{read.canonical->text(), row.depth, row.from_sitemap},
        "Its canonical address is " + read.canonical->text() + ".", &stopped);
    if (!target.ok() || stopped) return CrawlStep::kStop;
    if (!*target) return CrawlStep::kNext;
    row = **target;
  }
  read.result.page = row;
  if (scope) read.result.origin_crawl = scope->crawl_id;
  return settle(std::move(read.result));
}

void CrawlRun::finish(std::string_view status, const std::optional<ApiError>& error) {
  auto done = finish_crawl(services_, claim_, status, error);
  if (!done.ok())
    log_error("ending a crawl failed", {{"crawlId", std::string_view(crawl_.id)},
                                        {"error", std::string_view(done.error().message)}});
  else if (*done)
    log_info("crawl ended", {{"crawlId", std::string_view(crawl_.id)},
                             {"status", status},
                             {"pagesRequested", fetches_}});
}

void CrawlRun::failed(const ApiError& e) {
  log_error("a crawl step failed",
            {{"crawlId", std::string_view(crawl_.id)}, {"error", std::string_view(e.message)}});
}

void CrawlRun::go() {
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
      auto next = CrawlRepo::next_queued(*c, crawl_.id, kFrontierBatch);
      if (!next.ok()) return failed(next.error());
      batch = std::move(*next);
    }
    if (batch.empty()) return finish("done");
    for (const auto& page : batch) {
      if (fetches_ >= crawl_.max_pages && !refresh()) return finish("done");
      switch (step(page)) {
        case CrawlStep::kNext:
          break;
        case CrawlStep::kStop:
          return;
        case CrawlStep::kLimit:
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

void run_crawl_job(const CrawlRunContext& ctx, const CrawlClaim& claim) {
  CrawlRun run(ctx, claim);
  run.go();
}

}  // namespace parley
