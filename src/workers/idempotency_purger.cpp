#include "workers/idempotency_purger.h"

#include <chrono>

#include "core/log.h"
#include "store/idempotency_repo.h"

namespace parley {

IdempotencyPurger::IdempotencyPurger(Database& db, const Clock& clock) : db_(db), clock_(clock) {
  // The first purge runs before the server answers, so a restart starts from a bounded table.
  purge();
  thread_ = std::thread([this] { loop(); });
}

IdempotencyPurger::~IdempotencyPurger() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void IdempotencyPurger::purge() {
  const int64_t now = clock_.now_ms();
  auto removed = db_.write([now](Connection& c) -> Result<void> {
    PARLEY_TRY(IdempotencyRepo::purge(c, now));
    return {};
  });
  if (!removed.ok()) log_warn("idempotency keys not purged", {{"error", std::string_view(removed.error().message)}});
}

void IdempotencyPurger::loop() {
  std::unique_lock lock(mu_);
  while (!cv_.wait_for(lock, std::chrono::minutes(10), [&] { return stop_; })) {
    lock.unlock();
    purge();
    lock.lock();
  }
}

}  // namespace parley
