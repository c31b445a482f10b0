#include "workers/rate_window_writer.h"

#include <chrono>

#include "domain/rate_limiter.h"
#include "store/rate_window_repo.h"

namespace parley {

RateWindowWriter::RateWindowWriter(Database& db, RateLimiter& limiter) : db_(db), limiter_(limiter) {
  thread_ = std::thread([this] { loop(); });
}

RateWindowWriter::~RateWindowWriter() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
  flush();
}

void RateWindowWriter::loop() {
  std::unique_lock lock(mu_);
  while (!cv_.wait_for(lock, std::chrono::seconds(1), [&] { return stop_; })) {
    lock.unlock();
    flush();
    lock.lock();
  }
}

void RateWindowWriter::flush() {
  auto dirty = limiter_.take_dirty();
  if (dirty.empty()) return;
  db_.write_async([dirty = std::move(dirty)](Connection& c) -> Result<void> {
    for (const auto& w : dirty) PARLEY_TRY(RateWindowRepo::save(c, w));
    return {};
  });
}

}  // namespace parley
