#include "console/login_throttle.h"

#include <algorithm>

namespace parley {

LoginThrottle::LoginThrottle(const Clock& clock, LoginLimits limits)
    : clock_(clock),
      limits_(limits),
      by_email_(limits.window_ms, static_cast<size_t>(std::max<int64_t>(1, limits.max_subjects))),
      by_address_(limits.window_ms, static_cast<size_t>(std::max<int64_t>(1, limits.max_subjects))) {}

int64_t LoginThrottle::begin(std::string_view email, std::string_view address) {
  int64_t now = clock_.now_ms();
  std::lock_guard lock(mu_);
  by_email_.expire(now);
  by_address_.expire(now);
  int64_t blocked_until = 0;
  if (by_email_.count(email, now) >= limits_.failures_per_email) {
    blocked_until = std::max(blocked_until, by_email_.ends_at(email));
  }
  if (by_address_.count(address, now) >= limits_.failures_per_address) {
    blocked_until = std::max(blocked_until, by_address_.ends_at(address));
  }
  if (blocked_until > 0) return std::max<int64_t>(1, (blocked_until - now + 999) / 1000);
  by_email_.add(email, now);
  by_address_.add(address, now);
  return 0;
}

void LoginThrottle::succeeded(std::string_view email, std::string_view address) {
  std::lock_guard lock(mu_);
  by_email_.forget(email);
  by_address_.uncount(address);
}

size_t LoginThrottle::tracked() const {
  std::lock_guard lock(mu_);
  return by_email_.size() + by_address_.size();
}

}  // namespace parley
