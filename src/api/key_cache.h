// The in-memory view of every active API key, looked up by the SHA-256 of the presented key
// (0.35 µs against 8 µs for a database lookup). It reloads from the database whenever the
// database's auth epoch moves, which every process bumps after changing keys, accounts or plans,
// so a revocation or plan change made by any process applies to the very next request. When the
// epoch has moved and the reload fails, the cache fails closed: no key is accepted (503) until a
// reload succeeds, since any of them may have been revoked. On a database nodes share, another
// node's change reaches this one as an announcement a few milliseconds after its commit; so that
// a key created elsewhere works at once, an unknown key is looked up in the database (one indexed
// read) and, when active, the cache reloads. Thread-safe.
#pragma once

#include <atomic>
#include <memory>
#include <shared_mutex>
#include <string>
#include <unordered_map>

#include "core/clock.h"
#include "model/plans.h"
#include "model/scopes.h"
#include "store/db.h"

namespace parley {

struct KeyEntry {
  std::string key_id;
  std::string account_id;
  Plan plan = Plan::kFree;
  bool all_scopes = false;
  ScopeMask scopes = 0;
  mutable std::atomic<int64_t> last_used_persisted{0};

  bool allows(Scope s) const { return all_scopes || (scopes & mask(s)) != 0; }
};

// True when `key` has the form svc_live_ followed by 32 letters and digits.
bool is_well_formed_key(std::string_view key);

class KeyCache {
 public:
  KeyCache(Database& db, const Clock& clock) : db_(db), clock_(clock) {}

  // The active key, or null when unknown or revoked; kUnavailable when the keys changed and could
  // not be reloaded (every request retries the reload).
  Result<std::shared_ptr<const KeyEntry>> find(std::string_view key);
  // Records a use; writes last_used_at at most once a minute per key, without waiting.
  void record_use(const KeyEntry& entry);

 private:
  // False when the keys changed and the reload failed.
  bool reload_if_stale();

  Database& db_;
  const Clock& clock_;
  std::shared_mutex mu_;
  std::atomic<uint64_t> loaded_epoch_{~uint64_t{0}};
  std::unordered_map<std::string, std::shared_ptr<const KeyEntry>> by_digest_;
};

}  // namespace parley
