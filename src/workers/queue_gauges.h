// The queues' figures for /metrics (store/queue_figures.h), read from the database every five
// seconds on a thread of its own so that a scrape never waits for the database: training queue
// depth and the age of its oldest job, webhook deliveries due and how late the oldest is, and
// deliveries failed for good. Owns one thread; construct to start, destroy to stop. write() is
// thread-safe.
#pragma once

#include <atomic>
#include <string>

#include "core/clock.h"
#include "core/periodic.h"
#include "store/db.h"

namespace parley {

class QueueGauges {
 public:
  QueueGauges(Database& db, const Clock& clock);
  // Appends the gauges in the text exposition format (zeros until the first reading).
  void write(std::string& out) const;

 private:
  void sample();

  Database& db_;
  const Clock& clock_;
  std::atomic<int64_t> training_queued_{0};
  std::atomic<int64_t> training_oldest_ms_{0};
  std::atomic<int64_t> deliveries_due_{0};
  std::atomic<int64_t> delivery_lag_ms_{0};
  std::atomic<int64_t> deliveries_failed_{0};
  Periodic every_five_seconds_;  // last: its thread stops before the members it uses go
};

}  // namespace parley
