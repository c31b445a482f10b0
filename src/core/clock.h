// Clock: the only source of wall time. Production code takes a Clock& so that tests can move time
// (rate-limit windows, monthly caps, retry backoff) instead of sleeping. Implementations are
// thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "core/result.h"

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

// The system clock moved by an offset that end-to-end tests write to a file, so that they can place
// requests in a rate-limit window, or move past one, without waiting for the wall clock. The file
// holds a whole number of milliseconds (negative moves back); it is read again whenever it is
// changed or replaced. A missing or unreadable file means no offset. Thread-safe.
class OffsetFileClock final : public Clock {
 public:
  explicit OffsetFileClock(std::string path) : path_(std::move(path)) {}
  int64_t now_ms() const override;

 private:
  const std::string path_;
  mutable std::mutex mu_;
  mutable uint64_t seen_inode_ = 0;     // of the file last read; 0: none
  mutable int64_t seen_change_ns_ = 0;  // its last change (mtime)
  mutable int64_t offset_ms_ = 0;
};

// The clock of `parley serve`: the system clock, or with `test_clock_file` set (tests only) an
// OffsetFileClock on it. The test clock is refused unless the server listens on a loopback
// address, so that it cannot move the time of a server others use, and announced by a warning.
Result<std::unique_ptr<Clock>> serve_clock(const std::string& test_clock_file, const std::string& listen_host);

}  // namespace parley
