// One value per agent held in memory as a cache of the database (the BM25 index, the embedding
// vectors), kept current by the agent's knowledge version: every query reads that version (one
// primary-key read) and reloads the value when it differs, or when the value was built for
// another key (the agent's analysis settings, its embedding model). Changes this node makes are
// applied in place, so the value follows them without a reload.
// Thread-safe: queries of one agent share its lock; applying a change or a reload takes it alone.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "store/db.h"
#include "store/source_repo.h"

namespace parley {

// `Same(a, b)`: whether a value built for key `a` serves key `b`.
template <typename Value, typename Key, typename Same = std::equal_to<Key>>
class VersionedCache {
 public:
  explicit VersionedCache(Database& db) : db_(db) {}

  // Runs fn(const Value&) under the agent's shared lock once its value reflects the database's
  // version and `key`: load(Value&, version) rebuilds it, under the agent's exclusive lock, and
  // returns false when it could not (the value stays as it was). A value that is still not of
  // `key` (its first load failed) is not used: fn gets an empty Value.
  template <typename Load, typename Fn>
  auto with_current(std::string_view agent_id, const Key& key, Load load, Fn fn) const {
    auto reader = db_.read();
    auto version = reader.ok() ? SourceRepo::version(*reader, agent_id) : Result<int64_t>(reader.error());
    auto e = entry(agent_id, true);
    if (version.ok()) {
      std::shared_lock read(e->mu);
      if (e->version == *version && Same{}(e->key, key)) return fn(std::as_const(e->value));
    }
    {
      std::unique_lock write(e->mu);
      if (version.ok() && (e->version != *version || !Same{}(e->key, key))) {
        Value fresh{};
        if (load(fresh, *version)) {
          e->value = std::move(fresh);
          e->key = key;
          e->version = *version;
        }
      }
    }
    std::shared_lock read(e->mu);
    if (!Same{}(e->key, key)) return fn(Value{});
    return fn(std::as_const(e->value));
  }

  // A change this node made moved the agent's version to `version`: apply(Value&, const Key&)
  // runs when the value is exactly one version behind, and returns false when the value should be
  // reloaded on its next query anyway. A value further behind stays stale and reloads.
  template <typename Apply>
  void advance(std::string_view agent_id, int64_t version, Apply apply) {
    auto e = entry(agent_id, false);
    if (!e) return;
    std::unique_lock lock(e->mu);
    if (e->version != version - 1) return;
    e->version = apply(e->value, std::as_const(e->key)) ? version : -1;
  }

  // Something left the agent's knowledge at `version`: apply(Value&) removes it at once, even from
  // a stale value, and returns false when the value should be reloaded on its next query.
  template <typename Apply>
  void remove(std::string_view agent_id, int64_t version, Apply apply) {
    auto e = entry(agent_id, false);
    if (!e) return;
    std::unique_lock lock(e->mu);
    bool keep = apply(e->value);
    if (e->version == version - 1) e->version = version;
    if (!keep) e->version = -1;
  }

  // The agent's value is reloaded on its next query.
  void invalidate(std::string_view agent_id) {
    auto e = entry(agent_id, false);
    if (!e) return;
    std::unique_lock lock(e->mu);
    e->version = -1;
  }

  // The sum of measure(const Value&) over every loaded agent.
  template <typename Measure>
  size_t sum(Measure measure) const {
    std::lock_guard lock(mu_);
    size_t total = 0;
    for (const auto& [id, e] : entries_) {
      std::shared_lock read(e->mu);
      total += measure(e->value);
    }
    return total;
  }

 private:
  struct Entry {
    mutable std::shared_mutex mu;
    int64_t version = -1;  // the knowledge version the value reflects; -1 before loading
    Key key{};             // what the value was built for
    Value value;
  };

  std::shared_ptr<Entry> entry(std::string_view agent_id, bool create) const {
    std::lock_guard lock(mu_);
    auto it = entries_.find(std::string(agent_id));
    if (it != entries_.end()) return it->second;
    if (!create) return nullptr;
    auto e = std::make_shared<Entry>();
    entries_.emplace(std::string(agent_id), e);
    return e;
  }

  Database& db_;
  mutable std::mutex mu_;
  mutable std::unordered_map<std::string, std::shared_ptr<Entry>> entries_;
};

}  // namespace parley
