#include "domain/shared_rate_counter.h"

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "store/shared_window_repo.h"

namespace parley {

namespace {
std::string counter_name(std::string_view key_id) {
  std::string name = "rate:";
  name.append(key_id);
  return name;
}
}  // namespace

SharedRateCounter::Key& SharedRateCounter::key(std::string_view key_id) {
  Shard& shard = shards_[std::hash<std::string_view>{}(key_id) % shards_.size()];
  std::lock_guard lock(shard.mu);
  auto it = shard.keys.find(key_id);
  if (it == shard.keys.end()) it = shard.keys.emplace(std::string(key_id), std::make_unique<Key>()).first;
  return *it->second;
}

int64_t SharedRateCounter::next_allowance(const Key& k, int64_t window_ms, int64_t now_ms) const {
  // The first count of a window on this node learns where the window stands.
  if (k.window_ms != window_ms) return 0;
  const int64_t room = per_minute_ - k.counted;
  if (room < kNearLimit) return 0;
  // Requests of this key on this node since the database was last asked, this one included, as a
  // rate over an allowance's life.
  const int64_t served = k.allowance - k.left + 1;
  const int64_t elapsed = std::max<int64_t>(1, now_ms - k.asked_ms);
  const int64_t by_rate = served * kAllowanceLifeMs / elapsed;
  return std::clamp<int64_t>(std::min(by_rate, 2 * std::max<int64_t>(1, k.allowance)), 0,
                             std::min(kMaxAllowance, room / 16));
}

Result<int64_t> SharedRateCounter::hit(std::string_view key_id, int64_t window_ms, int64_t now_ms) {
  Key& k = key(key_id);
  std::lock_guard lock(k.mu);
  if (k.window_ms == window_ms && k.left > 0 && now_ms < k.expires_ms) {
    --k.left;
    return k.counted - k.left;
  }
  const int64_t wanted = 1 + next_allowance(k, window_ms, now_ms);
  const std::string name = counter_name(key_id);
  WindowTake took{0, 0};
  PARLEY_TRY(db_.write_volatile([&](Connection& c) -> Result<void> {
    if (k.window_ms == window_ms && k.left > 0) {
      PARLEY_TRY(SharedWindowRepo::give_back(c, name, window_ms, k.left));
      k.counted -= k.left;
    }
    k.left = 0;
    PARLEY_ASSIGN_OR_RETURN(took, SharedWindowRepo::take(c, name, window_ms, wanted, per_minute_));
    return {};
  }));
  k.window_ms = window_ms;
  k.counted = took.count;
  k.allowance = std::max<int64_t>(0, took.taken - 1);
  k.left = k.allowance;
  k.expires_ms = std::min(now_ms + kAllowanceLifeMs, window_ms + 60'000);
  k.asked_ms = now_ms;
  // Nothing taken: the window is full and this request is refused (one past what it holds).
  if (took.taken == 0) return k.counted + 1;
  return k.counted - k.left;
}

std::optional<int64_t> SharedRateCounter::hit_from_memory(std::string_view key_id,
                                                          int64_t window_ms, int64_t now_ms) {
  Key& k = key(key_id);
  // Another thread may hold the key's lock across a statement: never wait for it here.
  std::unique_lock lock(k.mu, std::try_to_lock);
  if (!lock.owns_lock()) return std::nullopt;
  if (k.window_ms == window_ms && k.left > 0 && now_ms < k.expires_ms) {
    --k.left;
    return k.counted - k.left;
  }
  return std::nullopt;
}

void SharedRateCounter::return_unused(int64_t now_ms, bool expired_only) {
  std::vector<std::pair<std::string, Key*>> keys;
  for (auto& shard : shards_) {
    std::lock_guard lock(shard.mu);
    for (auto& [id, k] : shard.keys) keys.emplace_back(id, k.get());
  }
  // Not a structured binding: the lambda below captures the key, which C++20 compilers before
  // clang 16 refuse for bindings.
  for (const auto& entry : keys) {
    Key* k = entry.second;
    std::lock_guard lock(k->mu);
    if (k->left == 0 || (expired_only && now_ms < k->expires_ms)) continue;
    const std::string name = counter_name(entry.first);
    auto given = db_.write_volatile([&](Connection& c) -> Result<void> {
      return SharedWindowRepo::give_back(c, name, k->window_ms, k->left);
    });
    if (!given.ok()) continue;  // kept, and tried again next time
    k->counted -= k->left;
    k->left = 0;
  }
}

}  // namespace parley
