// Login attempt limits of the console: failed (and in-flight) attempts counted per email and per
// remote address in fixed windows that start at the first counted attempt. Once either count
// reaches its limit, every attempt for that email or from that address is refused until the
// window ends, the correct password included, so guessing cannot continue at any speed.
// Counts live in this process's memory (a restart forgets them). Thread-safe.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/clock.h"

namespace parley {

struct LoginLimits {
  int64_t failures_per_email = 5;
  int64_t failures_per_address = 50;
  int64_t window_ms = 15 * 60 * 1000;
};

class LoginThrottle {
 public:
  LoginThrottle(const Clock& clock, LoginLimits limits) : clock_(clock), limits_(limits) {}

  // Counts an attempt before the password is checked. Returns 0 when it may go ahead, else the
  // whole seconds (at least 1) until the blocking window ends; a refused attempt is not counted.
  int64_t begin(std::string_view email, std::string_view address);
  // The attempt succeeded: the email's count starts over and the address's attempt is uncounted.
  void succeeded(std::string_view email, std::string_view address);

  const LoginLimits& limits() const { return limits_; }

 private:
  struct Window {
    int64_t start = 0;
    int64_t count = 0;
  };
  using Windows = std::unordered_map<std::string, Window>;

  Window& current(Windows& windows, std::string_view subject, int64_t now);
  void prune(Windows& windows, int64_t now);

  const Clock& clock_;
  const LoginLimits limits_;
  std::mutex mu_;
  Windows by_email_;
  Windows by_address_;
};

}  // namespace parley
