// One key's request count in one minute: what the rate limiter keeps in memory and writes behind
// to the database, so a restart keeps the current window.
#pragma once

#include <cstdint>
#include <string>

namespace parley {

struct RateWindow {
  std::string key_id;
  int64_t window_start_ms;
  int64_t count;
};

}  // namespace parley
