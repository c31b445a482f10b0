// A read-through cache of accounts (store/account_repo.h's Account, its limit overrides read once),
// for what every chat turn reads: the plan and its limits. An entry is served while the account's
// version (EntitySource::entity_version, Entity::kAccount, of store/entity_versions.h) has not
// moved since it was loaded: a commit that changed the account, in any process sharing the
// database, moves it, so reads stay exactly as fresh as reading the database. Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <shared_mutex>
#include <string_view>

#include "core/string_map.h"
#include "store/account_repo.h"
#include "store/entity_versions.h"

namespace parley {

class AccountCache {
 public:
  explicit AccountCache(Database& db) : db_(db), source_(entity_source(db)) {}

  // The account; null when there is none.
  Result<std::shared_ptr<const Account>> find(std::string_view account_id);
  // How many times an account was read from the database (misses).
  uint64_t loads() const { return loads_.load(std::memory_order_relaxed); }

 private:
  static constexpr size_t kMaxEntries = 10'000;
  struct Entry {
    uint64_t version;
    std::shared_ptr<const Account> account;
  };

  Database& db_;
  EntitySource* const source_;  // null: every find reads the database (a test's stand-in)
  std::shared_mutex mu_;
  StringMap<Entry> entries_;  // by account id
  std::atomic<uint64_t> loads_{0};
};

}  // namespace parley
