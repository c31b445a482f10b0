// Login attempt limits of the console: failed (and in-flight) attempts counted per email and per
// remote address in fixed windows that start at the first counted attempt. Once either count
// reaches its limit, every attempt for that email or from that address is refused until the
// window ends, the correct password included, so guessing cannot continue at any speed.
// A refused attempt adds nothing, and each table holds at most `max_subjects` windows (the oldest
// evicted first), so a flood of distinct emails costs neither memory nor time per login.
// Counts live in this process's memory (a restart forgets them). Thread-safe.
#pragma once

#include <cstdint>
#include <mutex>
#include <string_view>

#include "console/login_throttle_windows.h"
#include "core/clock.h"

namespace parley {

struct LoginLimits {
  int64_t failures_per_email = 5;
  int64_t failures_per_address = 50;
  int64_t window_ms = 15 * 60 * 1000;
  // Emails (and, separately, addresses) tracked at once.
  int64_t max_subjects = 100'000;
};

class LoginThrottle {
 public:
  LoginThrottle(const Clock& clock, LoginLimits limits);

  // Counts an attempt before the password is checked. Returns 0 when it may go ahead, else the
  // whole seconds (at least 1) until the blocking window ends; a refused attempt is not counted.
  int64_t begin(std::string_view email, std::string_view address);
  // The attempt succeeded: the email's count starts over and the address's attempt is uncounted.
  void succeeded(std::string_view email, std::string_view address);

  const LoginLimits& limits() const { return limits_; }
  // Windows held (emails + addresses), for tests and metrics.
  size_t tracked() const;

 private:
  const Clock& clock_;
  const LoginLimits limits_;
  mutable std::mutex mu_;
  LoginThrottleWindows by_email_;
  LoginThrottleWindows by_address_;
};

}  // namespace parley
