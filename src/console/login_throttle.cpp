#include "console/login_throttle.h"

#include <algorithm>

namespace parley {

namespace {
// Beyond this many tracked subjects, ended windows are dropped so a flood of distinct emails
// cannot grow memory without bound.
constexpr size_t kPruneAbove = 10000;
}  // namespace

LoginThrottle::Window& LoginThrottle::current(Windows& windows, std::string_view subject, int64_t now) {
  Window& w = windows[std::string(subject)];
  if (w.count == 0 || now >= w.start + limits_.window_ms) w = Window{now, 0};
  return w;
}

void LoginThrottle::prune(Windows& windows, int64_t now) {
  if (windows.size() <= kPruneAbove) return;
  std::erase_if(windows, [&](const auto& kv) { return now >= kv.second.start + limits_.window_ms; });
}

int64_t LoginThrottle::begin(std::string_view email, std::string_view address) {
  int64_t now = clock_.now_ms();
  std::lock_guard lock(mu_);
  prune(by_email_, now);
  prune(by_address_, now);
  Window& e = current(by_email_, email, now);
  Window& a = current(by_address_, address, now);
  int64_t blocked_until = 0;
  if (e.count >= limits_.failures_per_email) blocked_until = std::max(blocked_until, e.start + limits_.window_ms);
  if (a.count >= limits_.failures_per_address) blocked_until = std::max(blocked_until, a.start + limits_.window_ms);
  if (blocked_until > 0) return std::max<int64_t>(1, (blocked_until - now + 999) / 1000);
  ++e.count;
  ++a.count;
  return 0;
}

void LoginThrottle::succeeded(std::string_view email, std::string_view address) {
  std::lock_guard lock(mu_);
  by_email_.erase(std::string(email));
  auto it = by_address_.find(std::string(address));
  if (it != by_address_.end() && it->second.count > 0) --it->second.count;
}

}  // namespace parley
