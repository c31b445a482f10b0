// Removes idempotency keys whose 24 hours have ended (api/idempotency.h, store/idempotency_repo.h): at start and then every
// ten minutes. An ended key is free again whether or not it was removed yet; this only bounds the
// table. Owns one thread; construct to start, destroy to stop.
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>

#include "core/clock.h"
#include "store/db.h"

namespace parley {

class IdempotencyPurger {
 public:
  IdempotencyPurger(Database& db, const Clock& clock);
  ~IdempotencyPurger();
  IdempotencyPurger(const IdempotencyPurger&) = delete;
  IdempotencyPurger& operator=(const IdempotencyPurger&) = delete;

 private:
  void purge();
  void loop();

  Database& db_;
  const Clock& clock_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace parley
