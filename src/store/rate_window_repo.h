// Rate-limit windows written behind from memory, so a restart keeps each key's current minute.
#pragma once

#include <vector>

#include "model/rate_window.h"
#include "store/db.h"

namespace parley {

class RateWindowRepo {
 public:
  static Result<void> save(Connection& c, const RateWindow& w);
  // Windows of the minute containing `now_ms`.
  static Result<std::vector<RateWindow>> current(Connection& c, int64_t now_ms);
};

}  // namespace parley
