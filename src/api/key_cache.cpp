#include "api/key_cache.h"

#include "core/log.h"

#include <mutex>

#include "core/crypto.h"
#include "store/account_repo.h"
#include "store/key_repo.h"

namespace parley {

namespace {
constexpr std::string_view kKeyPrefix = "svc_live_";
constexpr int64_t kLastUsedResolutionMs = 60'000;

std::string digest_key(std::string_view key) {
  auto d = sha256(key);
  return std::string(reinterpret_cast<const char*>(d.data()), d.size());
}

std::string unhex(std::string_view hex) {
  std::string out(hex.size() / 2, '\0');
  auto v = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<char>(v(hex[2 * i]) * 16 + v(hex[2 * i + 1]));
  return out;
}
}  // namespace

bool is_well_formed_key(std::string_view key) {
  if (key.size() != kKeyPrefix.size() + 32 || key.substr(0, kKeyPrefix.size()) != kKeyPrefix) return false;
  for (char c : key.substr(kKeyPrefix.size())) {
    bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!ok) return false;
  }
  return true;
}

bool KeyCache::reload_if_stale() {
  uint64_t epoch = db_.auth_epoch();
  if (epoch == loaded_epoch_.load(std::memory_order_acquire)) return true;
  std::lock_guard reloading(reload_mu_);
  epoch = db_.auth_epoch();  // read before loading: a change during the load forces another
  if (epoch == loaded_epoch_.load()) return true;
  auto conn = db_.read();
  if (!conn.ok()) {
    log_error("key cache reload failed");
    return false;
  }
  auto keys = KeyRepo::all_active(*conn);
  auto accounts = AccountRepo::list(*conn);
  if (!keys.ok() || !accounts.ok()) {
    // The keys held may include revoked ones: they stay unused until a reload succeeds.
    log_error("key cache reload failed");
    return false;
  }
  std::unordered_map<std::string, Plan> plans;
  for (auto& a : *accounts) plans.emplace(a.id, a.plan);
  std::unordered_map<std::string, std::shared_ptr<const KeyEntry>> fresh;
  for (auto& k : *keys) {
    auto e = std::make_shared<KeyEntry>();
    e->key_id = k.id;
    e->account_id = k.account_id;
    auto p = plans.find(k.account_id);
    e->plan = p == plans.end() ? Plan::kFree : p->second;
    e->all_scopes = k.all_scopes;
    e->scopes = k.scopes;
    e->last_used_persisted = k.last_used_at.value_or(0);
    fresh.emplace(unhex(k.fingerprint), std::move(e));
  }
  {
    // A key created anywhere moves the epoch: what was unknown may exist now.
    std::unique_lock lock(mu_);
    by_digest_.swap(fresh);
    unknown_.clear();
    unknown_order_.clear();
  }
  loaded_epoch_.store(epoch, std::memory_order_release);
  return true;
}

bool KeyCache::known_unknown(const std::string& digest, int64_t now) const {
  auto it = unknown_.find(digest);
  return it != unknown_.end() && now - it->second < kUnknownKeyTtlMs;
}

void KeyCache::remember_unknown(const std::string& digest, int64_t now, uint64_t epoch_before) {
  std::unique_lock lock(mu_);
  // Not remembered when the keys changed since the lookup: the change may be this key's creation
  // (a reload that clears this memory checks the epoch before taking the lock).
  if (db_.auth_epoch() != epoch_before) return;
  auto [it, added] = unknown_.insert_or_assign(digest, now);
  if (!added) return;
  unknown_order_.push_back(digest);
  while (unknown_order_.size() > kUnknownKeysMax) {
    unknown_.erase(unknown_order_.front());
    unknown_order_.pop_front();
  }
}

size_t KeyCache::unknown_keys() const {
  std::shared_lock lock(mu_);
  return unknown_.size();
}

std::optional<std::shared_ptr<const KeyEntry>> KeyCache::find_without_waiting(
    std::string_view key) {
  if (db_.auth_epoch() != loaded_epoch_.load(std::memory_order_acquire)) return std::nullopt;
  std::string digest = digest_key(key);
  std::shared_lock lock(mu_);
  auto it = by_digest_.find(digest);
  if (it != by_digest_.end()) return it->second;
  if (!db_.shared_by_nodes() || known_unknown(digest, clock_.now_ms())) {
    return std::shared_ptr<const KeyEntry>();
  }
  return std::nullopt;
}

Result<std::shared_ptr<const KeyEntry>> KeyCache::find(std::string_view key) {
  if (!reload_if_stale()) {
    return ApiError{ErrorCode::kUnavailable, "API keys cannot be checked right now; retry."};
  }
  std::string digest = digest_key(key);
  {
    std::shared_lock lock(mu_);
    auto it = by_digest_.find(digest);
    if (it != by_digest_.end()) return it->second;
  }
  if (!db_.shared_by_nodes()) return std::shared_ptr<const KeyEntry>();
  const int64_t now = clock_.now_ms();
  {
    std::shared_lock lock(mu_);
    if (known_unknown(digest, now)) return std::shared_ptr<const KeyEntry>();
  }
  // Another node's new key may be in the database before its announcement reaches this node:
  // an unknown key is looked up there, and when it is active the cache reloads at once.
  const uint64_t epoch_before = db_.auth_epoch();
  auto conn = db_.read();
  if (!conn.ok()) return std::shared_ptr<const KeyEntry>();
  auto active = KeyRepo::active_fingerprint(*conn, sha256_hex(key));
  if (!active.ok()) return std::shared_ptr<const KeyEntry>();
  if (!*active) {
    remember_unknown(digest, now, epoch_before);
    return std::shared_ptr<const KeyEntry>();
  }
  loaded_epoch_.store(~uint64_t{0}, std::memory_order_release);
  if (!reload_if_stale()) return ApiError{ErrorCode::kUnavailable, "API keys cannot be checked right now; retry."};
  std::shared_lock lock(mu_);
  auto it = by_digest_.find(digest);
  if (it == by_digest_.end()) return std::shared_ptr<const KeyEntry>();
  return it->second;
}

void KeyCache::record_use(const KeyEntry& entry) {
  int64_t now = clock_.now_ms();
  int64_t last = entry.last_used_persisted.load(std::memory_order_relaxed);
  if (now - last < kLastUsedResolutionMs) return;
  if (!entry.last_used_persisted.compare_exchange_strong(last, now)) return;
  std::string id = entry.key_id;
  db_.write_async([id, now](Connection& c) { return KeyRepo::touch(c, id, now); });
}

}  // namespace parley
