#include "widget/window_counter.h"

#include <algorithm>

namespace parley {

WindowDecision WindowCounter::hit(std::string_view key, int64_t limit) {
  const int64_t now = clock_.now_ms();
  const int64_t start = now - now % window_ms_;
  std::lock_guard lock(mu_);
  if (start != window_start_ms_) {
    counts_.clear();
    window_start_ms_ = start;
  }
  auto it = counts_.find(key);
  int64_t counted = it == counts_.end() ? 0 : it->second;
  if (counted >= limit) return {false, std::max<int64_t>(1, (start + window_ms_ - now + 999) / 1000)};
  if (it != counts_.end()) {
    ++it->second;
  } else if (counts_.size() < max_keys_) {
    counts_.emplace(std::string(key), 1);
  }
  return {};
}

}  // namespace parley
