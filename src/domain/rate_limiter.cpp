#include "domain/rate_limiter.h"

#include <functional>

#include "core/log.h"

namespace parley {

RateLimiter::Shard& RateLimiter::shard_for(std::string_view key_id) {
  return shards_[std::hash<std::string_view>{}(key_id) % shards_.size()];
}

int64_t RateLimiter::count_in_memory(std::string_view key_id, int64_t window) {
  Shard& shard = shard_for(key_id);
  std::lock_guard lock(shard.mu);
  auto it = shard.windows.find(key_id);
  if (it == shard.windows.end()) it = shard.windows.emplace(std::string(key_id), State{}).first;
  State& s = it->second;
  if (s.window_start_ms != window) {
    s.window_start_ms = window;
    s.count = 0;
  }
  s.dirty = true;
  return ++s.count;
}

int64_t RateLimiter::count_in_database(std::string_view key_id, int64_t window, int64_t now_ms) {
  auto counted = shared_->hit(key_id, window, now_ms);
  if (counted.ok()) return *counted;
  // The database cannot count: the request goes on (it needs the database anyway, and fails
  // there with its own error if it is down) and is counted in this node's memory meanwhile.
  log_warn("rate window not counted in the database", {{"error", std::string_view(counted.error().message)}});
  return count_in_memory(key_id, window);
}

namespace {
RateDecision decide(int64_t count, int64_t per_minute, int64_t window, int64_t now) {
  int64_t reset_ms = window + 60'000;
  RateDecision d;
  d.allowed = count <= per_minute;
  d.limit = per_minute;
  d.remaining = count >= per_minute ? 0 : per_minute - count;
  d.reset_unix_s = reset_ms / 1000;
  d.retry_after_s = std::max<int64_t>(1, (reset_ms - now + 999) / 1000);
  return d;
}
}  // namespace

RateDecision RateLimiter::hit(std::string_view key_id) {
  int64_t now = clock_.now_ms();
  int64_t window = now - now % 60'000;
  int64_t count =
      shared_ != nullptr ? count_in_database(key_id, window, now) : count_in_memory(key_id, window);
  return decide(count, per_minute_, window, now);
}

std::optional<RateDecision> RateLimiter::hit_without_waiting(std::string_view key_id) {
  int64_t now = clock_.now_ms();
  int64_t window = now - now % 60'000;
  if (shared_ == nullptr) return decide(count_in_memory(key_id, window), per_minute_, window, now);
  auto count = shared_->hit_from_memory(key_id, window, now);
  if (!count) return std::nullopt;
  return decide(*count, per_minute_, window, now);
}

void RateLimiter::return_unused(bool expired_only) {
  if (shared_ != nullptr) shared_->return_unused(clock_.now_ms(), expired_only);
}

std::vector<RateWindow> RateLimiter::take_dirty() {
  std::vector<RateWindow> out;
  for (auto& shard : shards_) {
    std::lock_guard lock(shard.mu);
    for (auto& [id, s] : shard.windows) {
      if (!s.dirty) continue;
      s.dirty = false;
      out.push_back({id, s.window_start_ms, s.count});
    }
  }
  return out;
}

void RateLimiter::restore(const RateWindow& w) {
  Shard& shard = shard_for(w.key_id);
  std::lock_guard lock(shard.mu);
  shard.windows[w.key_id] = State{w.window_start_ms, w.count, false};
}

}  // namespace parley
