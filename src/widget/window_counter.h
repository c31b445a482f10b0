// Counts events per key in fixed windows aligned to the clock (each minute, each hour, each UTC
// day), in memory, for the widget's anonymous limits: one counter per limit, keyed by client
// address, agent or conversation. A window's counts are dropped together when the next window
// begins, and at most `max_keys` keys are tracked in one window, so memory stays bounded however
// many addresses a client uses. A full counter never stops limiting: a new key evicts the least
// active one, a key seen once this window (the oldest such first), and when every key tracked
// was seen more than once the new key is refused until the window ends. An address that floods
// is seen many times and so is never the one evicted. Counts are not kept across a restart.
// Thread-safe (one mutex).
//
// On a database several nodes share, a counter given that database counts there instead (one
// atomic statement per event, store/shared_window_repo.h), so the limit holds across nodes;
// refused events are counted too, which refuses the same events while the limit stays the same.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>

#include "core/clock.h"
#include "core/string_map.h"
#include "store/db.h"

namespace parley {

struct WindowDecision {
  bool allowed = true;
  int64_t retry_after_s = 0;  // when refused: whole seconds until the window ends (at least 1)
};

class WindowCounter {
 public:
  WindowCounter(const Clock& clock, int64_t window_ms, size_t max_keys = 100'000)
      : clock_(clock), window_ms_(window_ms), max_keys_(max_keys) {}
  // Counts in `shared` (when not null) under counter names starting with `scope`.
  WindowCounter(const Clock& clock, int64_t window_ms, Database* shared, std::string scope)
      : clock_(clock), window_ms_(window_ms), max_keys_(100'000), shared_(shared), scope_(std::move(scope)) {}
  WindowCounter(const WindowCounter&) = delete;
  WindowCounter& operator=(const WindowCounter&) = delete;

  // Counts one event of `key` unless `limit` events were counted in this window already; a
  // refused event is not counted.
  WindowDecision hit(std::string_view key, int64_t limit);
  // Keys tracked in the current window, for tests.
  size_t tracked() const;

 private:
  // Under mu_: drops the oldest key still counted once; false when there is none.
  bool evict_one_seen_once();

  const Clock& clock_;
  const int64_t window_ms_;
  const size_t max_keys_;
  Database* const shared_ = nullptr;
  const std::string scope_;
  mutable std::mutex mu_;
  int64_t window_start_ms_ = -1;
  StringMap<int64_t> counts_;
  std::deque<std::string> seen_once_;  // keys counted once, oldest first (some since seen again)
};

}  // namespace parley
