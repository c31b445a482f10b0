// Windowed counters every node counts in (store/migrations/0033_shared_windows.sql), for limits
// that must hold across nodes sharing a database (the per-key rate limit, the widget's limits).
#pragma once

#include <cstdint>
#include <string_view>

#include "store/db.h"

namespace parley {

struct WindowTake {
  int64_t count;  // the window's count after the statement
  int64_t taken;  // what the statement added to it
};

class SharedWindowRepo {
 public:
  // Adds `wanted` events (at least 1) to counter `name` in the window starting at
  // `window_start_ms`, never past `cap`: `taken` says how many it added, 0 when the window is
  // already at the cap (the event is refused and not counted, so what is given back later can be
  // spent again). A later window replaces an earlier one; events stamped with an earlier one,
  // from a node whose clock is a little behind, count in the current one. One atomic statement.
  static Result<WindowTake> take(Connection& c, std::string_view name, int64_t window_start_ms, int64_t wanted,
                                 int64_t cap);
  // Takes `unused` events back off the counter if its window is still `window_start_ms`.
  static Result<void> give_back(Connection& c, std::string_view name, int64_t window_start_ms, int64_t unused);
  // Removes counter `name` (its count starts over).
  static Result<void> forget(Connection& c, std::string_view name);
  // Counts one event as its own volatile write (Database::write_volatile) and returns the
  // window's count including it: what the widget's limits call per event.
  static Result<int64_t> count(Database& db, std::string_view name, int64_t window_start_ms);
  // The count of counter `name` in the window starting at `window_start_ms` or later (0 when none),
  // adding nothing.
  static Result<int64_t> peek(Connection& c, std::string_view name, int64_t window_start_ms);
  // Removes counters whose window started before `before_ms`, and those named with
  // kLastingPrefix (windows of up to 30 days) 31 days before it; returns how many.
  static Result<int64_t> purge(Connection& c, int64_t before_ms);
  static constexpr std::string_view kLastingPrefix = "lasting:";
};

}  // namespace parley
