// Requests per key per minute: a fixed window aligned to the minute. On a database one node
// serves (SQLite), counted in memory and written behind to the database (take_dirty / restore)
// so a restart keeps the current window; on a database nodes share (PostgreSQL), counted in the
// database (domain/shared_rate_counter.h), so the limit holds across every node.
// Thread-safe; sharded to keep contention low.
#pragma once

#include "core/string_map.h"

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/clock.h"
#include "domain/shared_rate_counter.h"
#include "model/rate_window.h"
#include "store/db.h"

namespace parley {

struct RateDecision {
  bool allowed;
  int64_t limit;
  int64_t remaining;
  int64_t reset_unix_s;   // when the current window ends
  int64_t retry_after_s;  // whole seconds until then (at least 1)
};

class RateLimiter {
 public:
  // `shared`: the database to count in when nodes share it; null counts in memory.
  RateLimiter(const Clock& clock, int64_t per_minute, Database* shared = nullptr)
      : clock_(clock),
        per_minute_(per_minute),
        shared_(shared != nullptr ? std::make_unique<SharedRateCounter>(*shared, per_minute) : nullptr) {}

  // Counts one request of the key and says whether it may proceed.
  RateDecision hit(std::string_view key_id);
  // hit() when it needs no database (in memory, or within this node's allowance on a shared
  // database); none when counting would wait on the database.
  std::optional<RateDecision> hit_without_waiting(std::string_view key_id);
  // Windows changed since the last call.
  std::vector<RateWindow> take_dirty();
  void restore(const RateWindow& w);
  // On a shared database: gives back what allowances left, every one or (expired_only) those
  // past their life.
  void return_unused(bool expired_only);
  int64_t per_minute() const { return per_minute_; }

 private:
  struct State {
    int64_t window_start_ms = 0;
    int64_t count = 0;
    bool dirty = false;
  };
  struct Shard {
    std::mutex mu;
    StringMap<State> windows;
  };
  Shard& shard_for(std::string_view key_id);
  int64_t count_in_memory(std::string_view key_id, int64_t window);
  int64_t count_in_database(std::string_view key_id, int64_t window, int64_t now_ms);

  const Clock& clock_;
  const int64_t per_minute_;
  const std::unique_ptr<SharedRateCounter> shared_;
  std::array<Shard, 16> shards_;
};

}  // namespace parley
