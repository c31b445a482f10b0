// Queues the automatic refreshes of agents' website sources (the agent setting
// `knowledgeRefresh`, domain/crawl_schedule.h) every `period_ms`, and wakes the crawler when it
// queued one. Any node may run it: queueing holds each agent's row, so nodes checking at once
// queue one job. Owns one thread; construct to start, destroy to stop.
#pragma once

#include "core/periodic.h"
#include "domain/crawls.h"

namespace parley {

class RefreshScheduler {
 public:
  RefreshScheduler(Services services, CrawlSettings settings, CrawlListener* listener,
                   int64_t period_ms);

 private:
  void check();

  Services services_;
  CrawlSettings settings_;
  CrawlListener* listener_;
  Periodic every_period_;  // last: its thread stops before the members it uses go
};

}  // namespace parley
