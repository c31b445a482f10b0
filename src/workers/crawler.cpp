#include "workers/crawler.h"

#include <chrono>

#include "core/log.h"
#include "workers/crawl_run.h"

namespace parley {

Crawler::Crawler(Services services, CrawlerOptions options, Resolver& resolver,
                 SourceListener* listener)
    : services_(services),
      options_(std::move(options)),
      resolver_(resolver),
      listener_(listener),
      pacer_(options_.max_per_host) {}

Crawler::~Crawler() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) t.join();
}

void Crawler::start() {
  for (size_t i = 0; i < std::max<size_t>(options_.threads, 1); ++i)
    threads_.emplace_back([this] { work(); });
  threads_.emplace_back([this] { heartbeat(); });
}

void Crawler::crawls_queued() {
  {
    std::lock_guard lock(mu_);
    ++queued_;
  }
  cv_.notify_all();
}

bool Crawler::pause(int64_t ms) {
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, std::chrono::milliseconds(ms), [&] { return stop_; });
  return !stop_;
}

void Crawler::heartbeat() {
  while (pause(std::max<int64_t>(options_.lease_ms / 3, 1))) {
    std::vector<std::pair<CrawlClaim, std::shared_ptr<std::atomic<bool>>>> held;
    {
      std::lock_guard lock(mu_);
      for (const auto& [id, flag] : running_) {
        CrawlClaim claim;
        claim.crawl.id = id;
        claim.owner = owners_[id];
        held.emplace_back(std::move(claim), flag);
      }
    }
    for (auto& [claim, flag] : held) {
      auto renewed = renew_crawl(services_, claim, options_.lease_ms);
      if (!renewed.ok()) {
        log_warn("renewing a crawl's lease failed",
                 {{"crawlId", std::string_view(claim.crawl.id)},
                  {"error", std::string_view(renewed.error().message)}});
      } else if (!*renewed) {
        flag->store(false);  // cancelled, or taken over: the run stops at its next page
      }
    }
  }
}

void Crawler::run_claimed(const CrawlClaim& claim) {
  auto holding = std::make_shared<std::atomic<bool>>(true);
  {
    std::lock_guard lock(mu_);
    running_[claim.crawl.id] = holding;
    owners_[claim.crawl.id] = claim.owner;
  }
  log_info("crawl started", {{"crawlId", std::string_view(claim.crawl.id)},
                             {"kind", std::string_view(claim.crawl.kind)}});
  CrawlRunContext ctx{services_, options_, resolver_, pacer_, listener_, pages_fetched_};
  ctx.holding = [this, holding] {
    std::lock_guard lock(mu_);
    return holding->load() && !stop_;
  };
  ctx.pause = [this](int64_t ms) { return pause(ms); };
  run_crawl_job(ctx, claim);
  std::lock_guard lock(mu_);
  running_.erase(claim.crawl.id);
  owners_.erase(claim.crawl.id);
}

void Crawler::work() {
  uint64_t seen = 0;
  while (true) {
    {
      std::lock_guard lock(mu_);
      if (stop_) return;
      seen = queued_;
    }
    auto claimed = claim_next_crawl(services_, options_.lease_ms);
    if (!claimed.ok()) {
      log_error("claiming a crawl failed", {{"error", std::string_view(claimed.error().message)}});
      if (!pause(options_.poll_ms)) return;
      continue;
    }
    if (!*claimed) {
      std::unique_lock lock(mu_);
      cv_.wait_for(lock, std::chrono::milliseconds(options_.poll_ms),
                   [&] { return stop_ || queued_ != seen; });
      if (stop_) return;
      continue;
    }
    run_claimed(**claimed);
  }
}

Result<CrawlRecord> Crawler::run_crawl(std::string_view id) {
  while (true) {
    PARLEY_ASSIGN_OR_RETURN(auto claimed, claim_crawl(services_, id, options_.lease_ms));
    if (claimed) {
      run_claimed(*claimed);
    } else {
      PARLEY_ASSIGN_OR_RETURN(Connection & c, services_.db.read());
      PARLEY_ASSIGN_OR_RETURN(auto crawl, CrawlRepo::find(c, id));
      if (!crawl) return ApiError::not_found("No crawl " + std::string(id) + ".");
      if (!crawl->active()) return std::move(*crawl);
      // Another worker holds it (a server's): wait for it to end, or for its lease to run out.
      if (!pause(options_.poll_ms)) return std::move(*crawl);
      continue;
    }
    PARLEY_ASSIGN_OR_RETURN(Connection & c, services_.db.read());
    PARLEY_ASSIGN_OR_RETURN(auto crawl, CrawlRepo::find(c, id));
    if (!crawl) return ApiError::not_found("No crawl " + std::string(id) + ".");
    if (!crawl->active()) return std::move(*crawl);
    {
      std::lock_guard lock(mu_);
      if (stop_) return std::move(*crawl);
    }
  }
}

}  // namespace parley
