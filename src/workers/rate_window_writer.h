// Writes the rate limiter's changed windows behind to the database once a second, so a restart
// keeps each key's current minute, and once more when stopped. On a database nodes share, gives
// back what expired rate allowances left once a second (all of them when stopped) and removes the
// shared counters' ended windows once a minute (store/shared_window_repo.h). Owns one thread;
// construct to start, destroy to stop.
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>

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
  void loop();
  void flush();
  void purge_shared_windows();

  Database& db_;
  RateLimiter& limiter_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace parley
