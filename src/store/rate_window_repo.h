// Rate-limit windows written behind from memory, so a restart keeps each key's current minute.
#pragma once

#include <vector>

#include "model/rate_window.h"
#include "store/db.h"

namespace parley {

class RateWindowRepo {
 public:
  static Result<void> save(Connection& c, const RateWindow& w);
  // Counts one request of the key in the minute starting at `window_start_ms`, in one atomic
  // statement (exact when many nodes count at once), and returns the window as counted: a later
  // window replaces an earlier one; a request stamped with an earlier one (a node's clock a
  // little behind) counts in the current one.
  static Result<RateWindow> add_hit(Connection& c, std::string_view key_id, int64_t window_start_ms);
  // Windows of the minute containing `now_ms`.
  static Result<std::vector<RateWindow>> current(Connection& c, int64_t now_ms);
};

}  // namespace parley
