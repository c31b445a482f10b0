#include "console/login_throttle_windows.h"

namespace parley {

int64_t LoginThrottleWindows::count(std::string_view subject, int64_t now) const {
  auto it = windows_.find(subject);
  if (it == windows_.end() || now >= it->second.start + window_ms_) return 0;
  return it->second.count;
}

int64_t LoginThrottleWindows::ends_at(std::string_view subject) const {
  auto it = windows_.find(subject);
  return it == windows_.end() ? 0 : it->second.start + window_ms_;
}

void LoginThrottleWindows::add(std::string_view subject, int64_t now) {
  auto it = windows_.find(subject);
  if (it != windows_.end() && it->second.count > 0 && now < it->second.start + window_ms_) {
    ++it->second.count;
    return;
  }
  while (by_start_.size() >= max_subjects_) pop_oldest();
  it = windows_.find(subject);  // the eviction may have taken this very window
  if (it == windows_.end()) it = windows_.emplace(std::string(subject), Window{}).first;
  it->second = Window{now, 1};
  by_start_.push_back({now, std::string(subject)});
}

void LoginThrottleWindows::uncount(std::string_view subject) {
  auto it = windows_.find(subject);
  if (it != windows_.end() && it->second.count > 0) --it->second.count;
}

void LoginThrottleWindows::forget(std::string_view subject) {
  auto it = windows_.find(subject);
  if (it != windows_.end()) windows_.erase(it);
}

void LoginThrottleWindows::expire(int64_t now) {
  while (!by_start_.empty() && now >= by_start_.front().start + window_ms_) pop_oldest();
}

void LoginThrottleWindows::pop_oldest() {
  const Started& oldest = by_start_.front();
  auto it = windows_.find(oldest.subject);
  if (it != windows_.end() && it->second.start == oldest.start) windows_.erase(it);
  by_start_.pop_front();
}

}  // namespace parley
