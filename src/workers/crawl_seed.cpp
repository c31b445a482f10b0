// Seeding a crawl run: its scopes, the start and the sites' sitemaps, a refresh's pages.
#include <set>

#include "store/website_page_repo.h"
#include "workers/crawl_run_state.h"
#include "workers/crawler.h"

namespace parley {

namespace {
constexpr size_t kFlushAddresses = 500;   // sitemap addresses written at a time
constexpr int kMaxSitemapDocuments = 20;  // per site, indexes included
constexpr size_t kMaxSitemapEntries = 50'000;

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
}  // namespace

Result<void> CrawlRun::load_scopes() {
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

const RunScope* CrawlRun::scope_for(const Url& url) const {
  for (const auto& s : scopes_)
    if (s.scope.allows(url)) return &s;
  return nullptr;
}

const RunScope* CrawlRun::scope_of_crawl(std::string_view crawl_id) const {
  for (const auto& s : scopes_)
    if (s.crawl_id == crawl_id) return &s;
  return nullptr;
}

bool CrawlRun::may_follow(const Url& url) const {
  if (single_page_ || scope_for(url) == nullptr) return false;
  return !refresh() || !crawl_.url || starts_with(url.text(), *crawl_.url);
}

bool CrawlRun::flush(std::vector<FoundAddress>& found) {
  if (found.empty()) return true;
  auto added = add_addresses(services_, claim_, found, false, std::nullopt);
  found.clear();
  if (!added.ok()) failed(added.error());
  return added.ok() && *added == Settled::kDone;
}

// Pages of the site's sitemaps join `found` (flushed as it grows): `site` itself when the crawl
// starts from a sitemap, else those its robots.txt names, else /sitemap.xml. True when one was
// read.
bool CrawlRun::read_sitemaps(const Url& site, std::vector<FoundAddress>& found,
                             bool start_is_sitemap) {
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

bool CrawlRun::seed() {
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

bool CrawlRun::seed_refresh() {
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
      auto listed = WebsitePageRepo::list_after(*c, crawl_.agent_id, prefix, after, kFrontierBatch);
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
          if (settle(std::move(dropped)) != CrawlStep::kNext) return false;
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

}  // namespace parley
