// Clock: the only source of wall time. Production code takes a Clock& so that tests can move time
// (rate-limit windows, monthly caps, retry backoff) instead of sleeping. Implementations are
// thread-safe.
#pragma once

#include <atomic>
#include <cstdint>

namespace parley {

class Clock {
 public:
  virtual ~Clock() = default;
  // Milliseconds since the Unix epoch, UTC.
  virtual int64_t now_ms() const = 0;
};

class SystemClock final : public Clock {
 public:
  int64_t now_ms() const override;
};

// A clock that moves only when told to; for tests.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t start_ms) : now_(start_ms) {}
  int64_t now_ms() const override { return now_.load(); }
  void advance_ms(int64_t ms) { now_ += ms; }
  void set_ms(int64_t ms) { now_ = ms; }

 private:
  std::atomic<int64_t> now_;
};

}  // namespace parley
