// Windowed counters every node counts in (store/migrations/0033_shared_windows.sql), for limits
// that must hold across nodes sharing a database (the per-key rate limit, the widget's limits):
// one atomic statement per event.
#pragma once

#include <cstdint>
#include <string_view>

#include "store/db.h"

namespace parley {

class SharedWindowRepo {
 public:
  // Counts one event of counter `name` in the window starting at `window_start_ms` and returns
  // the window's count including it (a later window replaces an earlier one; an event stamped
  // with an earlier one, from a node whose clock is a little behind, counts in the current one).
  static Result<int64_t> add_hit(Connection& c, std::string_view name, int64_t window_start_ms);
  // add_hit as its own volatile write (Database::write_volatile): what every limit nodes share
  // calls per event.
  static Result<int64_t> count(Database& db, std::string_view name, int64_t window_start_ms);
  // Removes counters whose window started before `before_ms`; returns how many.
  static Result<int64_t> purge(Connection& c, int64_t before_ms);
};

}  // namespace parley
