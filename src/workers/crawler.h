// The crawler: worker threads that run website crawl jobs (domain/crawls.h). Work is rows of the
// crawls table: a worker claims the oldest queued crawl, or a running one whose lease ended (its
// node stopped), and runs it to its end (workers/crawl_run.h), while a heartbeat renews the claim
// of every crawl this node runs; a crawl cancelled or taken over stops at its next page. Any
// node sharing the database may run workers; claims are conditional updates, so a crawl runs on
// one node at a time, and a crawl left running by a node that died resumes elsewhere (or on the
// same node after a restart) from its frontier once its lease ends.
// Thread-safe: crawls_queued() from any thread; run_crawl() on a thread of the caller's.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "crawl/host_pacer.h"
#include "domain/crawls.h"
#include "knowledge/source_listener.h"
#include "workers/page_fetcher.h"

namespace parley {

struct CrawlerOptions {
  size_t threads = 1;                   // crawls this node runs at once
  int64_t lease_ms = 30'000;            // a claim lasts this long; renewed every third of it
  int64_t poll_ms = 1000;               // how often idle workers look for crawls queued elsewhere
  int64_t delay_ms = 0;                 // the least time between two requests to one host
  int64_t max_crawl_delay_ms = 10'000;  // a robots.txt Crawl-delay is honoured up to this
  int max_per_host = 2;                 // requests to one host at a time
  FetchOptions fetch;                   // user agent, time limit, size cap, private targets
  int64_t page_pause_ms = 0;            // tests only: a pause before each page
  int64_t refresh_check_ms = 60'000;    // how often automatic refreshes are looked for
};

class Crawler final : public CrawlListener {
 public:
  // `listener`: the trainer, told of sources queued and replaced; may be null.
  Crawler(Services services, CrawlerOptions options, Resolver& resolver, SourceListener* listener);
  ~Crawler() override;  // stops the workers; a crawl under way keeps its frontier (resumed)
  Crawler(const Crawler&) = delete;
  Crawler& operator=(const Crawler&) = delete;

  void start();
  void crawls_queued() override;

  // Runs the crawl `id` on the calling thread until it ends (parley admin source crawl --wait):
  // claims it as a worker would (waiting while another holds it), then returns it as stored.
  Result<CrawlRecord> run_crawl(std::string_view id);

  // Pages fetched by this node (metrics).
  uint64_t pages_fetched() const { return pages_fetched_.load(std::memory_order_relaxed); }

 private:
  void work();
  void heartbeat();
  // Sleeps up to `ms`; false when stopping.
  bool pause(int64_t ms);
  void run_claimed(const CrawlClaim& claim);

  Services services_;
  CrawlerOptions options_;
  Resolver& resolver_;
  SourceListener* listener_;
  HostPacer pacer_;
  std::atomic<uint64_t> pages_fetched_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  uint64_t queued_ = 0;  // moves on every crawls_queued()
  // The claims this node runs, and whether each still holds (the heartbeat clears it when a
  // renewal finds the crawl cancelled or taken over).
  std::map<std::string, std::shared_ptr<std::atomic<bool>>> running_;
  std::map<std::string, std::string> owners_;  // crawl id → its claim's owner
  std::vector<std::thread> threads_;
};

}  // namespace parley
