// Runs the retention purge (domain/retention.h) every `interval_ms`, on one node at a time when
// nodes share PostgreSQL: before each batch the node claims (or renews) the `retention` lease
// (store/worker_lease_repo.h); a node that cannot stops and tries again at its next turn, and a
// node that stopped mid-pass leaves a lease that runs out after `lease_ms`. Owns one thread;
// construct to start, destroy to stop (a batch under way finishes first).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "core/periodic.h"
#include "store/services.h"

namespace parley {

struct RetentionOptions {
  int64_t interval_ms = 3'600'000;  // between passes
  int64_t lease_ms = 300'000;       // a node's claim on the pass, renewed before each batch
  int64_t batch = 100;              // conversations per transaction
};

class RetentionWorker {
 public:
  RetentionWorker(Services services, RetentionOptions options);
  ~RetentionWorker();

 private:
  void run();
  bool hold_lease();

  Services services_;
  const RetentionOptions options_;
  const std::string owner_;  // random per node
  std::atomic<bool> stopping_{false};
  Periodic every_interval_;  // last: its thread stops before the members it uses go
};

}  // namespace parley
