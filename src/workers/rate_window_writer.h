// Writes the rate limiter's changed windows behind to the database once a second, so a restart
// keeps each key's current minute, and once more when stopped. On a database nodes share, gives
// back what expired rate allowances left once a second (all of them when stopped) and removes the
// shared counters' ended windows once a minute (store/shared_window_repo.h). Owns one thread;
// construct to start, destroy to stop.
#pragma once

#include <cstdint>
#include <memory>

#include "core/periodic.h"
#include "store/db.h"

namespace parley {

class RateLimiter;

class RateWindowWriter {
 public:
  RateWindowWriter(Database& db, RateLimiter& limiter);
  ~RateWindowWriter();
  RateWindowWriter(const RateWindowWriter&) = delete;
  RateWindowWriter& operator=(const RateWindowWriter&) = delete;

 private:
  void tick();
  void flush();
  void purge_shared_windows();

  Database& db_;
  RateLimiter& limiter_;
  int64_t ticks_ = 0;                    // on the periodic thread only
  std::unique_ptr<Periodic> every_second_;  // last: its thread stops before the members it uses go
};

}  // namespace parley
