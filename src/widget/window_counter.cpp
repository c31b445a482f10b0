#include "widget/window_counter.h"

#include <algorithm>

#include "core/log.h"
#include "store/shared_window_repo.h"

namespace parley {

WindowDecision WindowCounter::hit(std::string_view key, int64_t limit) {
  const int64_t now = clock_.now_ms();
  const int64_t start = now - now % window_ms_;
  const WindowDecision refused{false, std::max<int64_t>(1, (start + window_ms_ - now + 999) / 1000)};
  if (shared_ != nullptr) {
    std::string name = scope_;
    name.push_back(':');
    name.append(key);
    auto counted = SharedWindowRepo::count(*shared_, name, start);
    // The database cannot count: this node's memory does meanwhile.
    if (counted.ok()) return *counted <= limit ? WindowDecision{} : refused;
    log_warn("widget window not counted in the database", {{"error", std::string_view(counted.error().message)}});
  }
  std::lock_guard lock(mu_);
  if (start != window_start_ms_) {
    counts_.clear();
    seen_once_.clear();
    window_start_ms_ = start;
  }
  auto it = counts_.find(key);
  int64_t counted = it == counts_.end() ? 0 : it->second;
  if (counted >= limit) return refused;
  if (it != counts_.end()) {
    ++it->second;
    return {};
  }
  if (counts_.size() >= max_keys_ && !evict_one_seen_once()) return refused;
  counts_.emplace(std::string(key), 1);
  seen_once_.emplace_back(key);
  return {};
}

bool WindowCounter::evict_one_seen_once() {
  while (!seen_once_.empty()) {
    std::string oldest = std::move(seen_once_.front());
    seen_once_.pop_front();
    auto it = counts_.find(oldest);
    if (it != counts_.end() && it->second == 1) {
      counts_.erase(it);
      return true;
    }
  }
  return false;
}

size_t WindowCounter::tracked() const {
  std::lock_guard lock(mu_);
  return counts_.size();
}

}  // namespace parley
