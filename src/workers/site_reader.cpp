#include "workers/site_reader.h"

#include <algorithm>

#include "crawl/sitemap.h"
#include "crawl/user_agent.h"
#include "workers/crawler.h"
#include "workers/page_reader.h"

namespace parley {

std::optional<PageResponse> SiteReader::request(const Url& url, const PageRequest& request) {
  // The operator's floor until the site's robots.txt says more.
  if (paced_.insert(url.host).second) ctx_.pacer.set_delay(url.host, ctx_.options.delay_ms);
  while (true) {
    if (!ctx_.holding()) return std::nullopt;
    int64_t wait = ctx_.pacer.try_start(url.host, ctx_.services.clock.now_ms());
    if (wait == 0) break;
    if (!ctx_.pause(wait)) return std::nullopt;
  }
  PageResponse out = fetch_page(request, ctx_.resolver, ctx_.options.fetch);
  ctx_.pacer.finish(url.host);
  return out;
}

SiteReader::Answer SiteReader::fetch(const Url& url, const std::optional<std::string>& etag,
                                     const std::optional<std::string>& last_modified) {
  Answer a{url, {}, false};
  for (int hop = 0;; ++hop) {
    PageRequest req{a.address.text(), std::nullopt, std::nullopt};
    if (hop == 0) {
      req.etag = etag;
      req.last_modified = last_modified;
    }
    auto answer = request(a.address, req);
    if (!answer || answer->problem == FetchProblem::kStopped) {
      a.stopped = true;
      return a;
    }
    a.response = std::move(*answer);
    const int64_t status = a.response.status;
    if (!a.response.ok() || status < 300 || status >= 400 || status == 304) return a;
    if (a.response.location.empty()) {
      a.response.problem = FetchProblem::kUnreachable;
      a.response.error = status_reason(status) + " It gave no address to go to.";
      return a;
    }
    if (hop == kMaxRedirects) {
      a.response.problem = FetchProblem::kUnreachable;
      a.response.error = "Too many redirects (more than " + std::to_string(kMaxRedirects) + ").";
      return a;
    }
    auto next = resolve_url(a.address, a.response.location);
    if (!next) {
      a.response.problem = FetchProblem::kRefused;
      a.response.error = "The page redirects to an address that is not an http(s) page.";
      return a;
    }
    a.address = std::move(*next);
  }
}

const SiteReader::Robots& SiteReader::robots_for(const Url& url) {
  const std::string origin = url.origin();
  if (auto it = robots_.find(origin); it != robots_.end()) return it->second;
  Url address = url;
  address.path = "/robots.txt";
  address.query.clear();
  Answer a = fetch(address);
  Robots r;
  if (a.stopped) {
    r.rules = RobotsRules::disallow_all();
    r.blocked_reason = "The crawl stopped before the site's robots.txt was read.";
  } else if (!a.response.ok()) {
    r.rules = RobotsRules::disallow_all();
    r.blocked_reason = "The site's robots.txt could not be read (" + a.response.error +
                       "), so nothing is fetched from the site.";
  } else if (a.response.status >= 200 && a.response.status < 300) {
    std::string_view body = a.response.body;
    r.rules = RobotsRules::parse(body.substr(0, std::min(body.size(), RobotsRules::kMaxBytes)),
                                 kRobotsProductToken);
  } else if (a.response.status >= 400 && a.response.status < 500) {
    r.rules = RobotsRules::allow_all();
  } else {
    r.rules = RobotsRules::disallow_all();
    r.blocked_reason = "The site's robots.txt answered " + std::to_string(a.response.status) +
                       ", so nothing is fetched from the site for now.";
  }
  int64_t delay = ctx_.options.delay_ms;
  if (auto seconds = r.rules.crawl_delay_seconds()) {
    auto asked = static_cast<int64_t>(*seconds * 1000);
    delay = std::max(delay, std::min(asked, ctx_.options.max_crawl_delay_ms));
  }
  ctx_.pacer.set_delay(url.host, delay);
  return robots_.emplace(origin, std::move(r)).first->second;
}

bool SiteReader::read_sitemap(const Url& url, int& budget, size_t max_entries,
                              const std::function<void(const Url&)>& on_page) {
  if (budget <= 0) return false;
  --budget;
  if (!robots_for(url).rules.allowed(url.path_and_query())) return false;
  Answer a = fetch(url);
  if (a.stopped || !a.response.ok() || a.response.status < 200 || a.response.status >= 300)
    return false;
  auto sitemap = parse_sitemap(a.response.body, max_entries);
  if (!sitemap.ok()) return false;
  for (const auto& entry : sitemap->pages)
    if (auto page = parse_url(entry.loc)) on_page(*page);
  for (const auto& child : sitemap->sitemaps) {
    if (budget <= 0 || !ctx_.holding()) break;
    if (auto address = parse_url(child)) read_sitemap(*address, budget, max_entries, on_page);
  }
  return true;
}

}  // namespace parley
