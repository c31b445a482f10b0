// One value per agent held in memory as a cache of the database (the BM25 index, the embedding
// vectors), kept current by the agent's knowledge version: a query reloads the value when that
// version differs from the value's, or when the value was built for another key (the agent's
// analysis settings, its embedding model). The version is read from the database (one primary-key
// read) only when the knowledge's entity version (store/entity_versions.h) moved since it was last
// read; otherwise the version last read is still the database's, and no query is made. Changes
// this node makes are applied in place, so the value follows them without a reload.
// With a budget (knowledge/memory_budget.h), the values' bytes (as `measure` counts them) count
// against it, with those of the other caches sharing it: when a load or a change takes the total
// past it, the least recently used values of any of them are dropped (their next query loads them
// again); the values of the agent being served, in any of them, are never dropped, so an agent
// whose values are larger than the budget is still served, alone, with all of them.
// Thread-safe: queries of one agent share its lock; applying a change or a reload takes it alone.
// Lock order: an agent's lock, then the cache's; never the other way round. Neither is held while
// the budget's is taken (knowledge/memory_budget.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "knowledge/memory_budget.h"
#include "store/db.h"
#include "store/entity_versions.h"
#include "store/source_repo.h"

namespace parley {

// What a budgeted cache holds and has done.
struct CacheFigures {
  size_t values = 0;   // agents whose value is in memory
  size_t bytes = 0;    // their bytes, as measured
  uint64_t loads = 0;  // values loaded (first use, a moved version, after an eviction)
  uint64_t evictions = 0;
};

// `Same(a, b)`: whether a value built for key `a` serves key `b`.
template <typename Value, typename Key, typename Same = std::equal_to<Key>>
class VersionedCache final : private MemoryBudget::Member {
 public:
  using Measure = std::function<size_t(const Value&)>;
  // `budget` null, or of no limit: nothing is measured or evicted. The budget outlives the cache.
  explicit VersionedCache(Database& db, MemoryBudget* budget = nullptr, Measure measure = {})
      : db_(db),
        source_(entity_source(db)),
        budget_(budget != nullptr && budget->limit() > 0 ? budget : nullptr),
        measure_(std::move(measure)) {
    if (budget_) budget_->join(*this);
  }
  ~VersionedCache() override {
    if (budget_) budget_->leave(*this, total_);
  }
  VersionedCache(const VersionedCache&) = delete;
  VersionedCache& operator=(const VersionedCache&) = delete;

  // Runs fn(const Value&) under the agent's shared lock once its value reflects the database's
  // version and `key`: load(Value&, version) rebuilds it, under the agent's exclusive lock, and
  // returns false when it could not (the value stays as it was). A value that is still not of
  // `key` (its first load failed) is not used: fn gets an empty Value.
  template <typename Load, typename Fn>
  auto with_current(std::string_view agent_id, const Key& key, Load load, Fn fn) const {
    auto e = entry(agent_id, true);
    touch(*e);
    Result<int64_t> version = database_version(agent_id, *e);
    if (version.ok()) {
      std::shared_lock read(e->mu);
      if (e->version == *version && Same{}(e->key, key)) return fn(std::as_const(e->value));
    }
    bool loaded = false;
    size_t bytes = 0;
    {
      std::unique_lock write(e->mu);
      if (version.ok() && (e->version != *version || !Same{}(e->key, key))) {
        Value fresh{};
        if (load(fresh, *version)) {
          e->value = std::move(fresh);
          e->key = key;
          e->version = *version;
          loaded = true;
          bytes = measured(e->value);
        }
      }
    }
    if (loaded) account(agent_id, e, bytes, true);
    std::shared_lock read(e->mu);
    if (!Same{}(e->key, key)) return fn(Value{});
    return fn(std::as_const(e->value));
  }

  // Runs fn(const Value&, version) under the agent's shared lock when its value is in memory and
  // was built for `key`, whatever its version; false when it is not.
  template <typename Fn>
  bool peek(std::string_view agent_id, const Key& key, Fn fn) const {
    auto e = entry(agent_id, false);
    if (!e) return false;
    std::shared_lock read(e->mu);
    if (e->version < 0 || !Same{}(e->key, key)) return false;
    fn(std::as_const(e->value), e->version);
    return true;
  }

  // A change this node made moved the agent's version to `version`: apply(Value&, const Key&)
  // runs when the value is exactly one version behind, and returns false when the value should be
  // reloaded on its next query anyway. A value further behind stays stale and reloads.
  template <typename Apply>
  void advance(std::string_view agent_id, int64_t version, Apply apply) {
    auto e = entry(agent_id, false);
    if (!e) return;
    size_t bytes = 0;
    {
      std::unique_lock lock(e->mu);
      if (e->version != version - 1) return;
      e->version = apply(e->value, std::as_const(e->key)) ? version : -1;
      bytes = measured(e->value);
    }
    account(agent_id, e, bytes, false);
  }

  // Something left the agent's knowledge at `version`: apply(Value&) removes it at once from a
  // value older than `version`, even a stale one, and returns false when the value should be
  // reloaded on its next query. A value of `version` or later was loaded (or moved on) after the
  // removal was committed, so it holds what the database held then: what the removal names is in
  // it only if it came back since (a source retrained under its id), and stays.
  template <typename Apply>
  void remove(std::string_view agent_id, int64_t version, Apply apply) {
    auto e = entry(agent_id, false);
    if (!e) return;
    size_t bytes = 0;
    {
      std::unique_lock lock(e->mu);
      if (e->version >= version) return;
      bool keep = apply(e->value);
      if (e->version == version - 1) e->version = version;
      if (!keep) e->version = -1;
      bytes = measured(e->value);
    }
    account(agent_id, e, bytes, false);
  }

  // Runs fn(Value&) under the agent's exclusive lock when its value is in memory (a change that
  // leaves what it answers as it is, e.g. trimming its arrays), then measures it again.
  template <typename Fn>
  void modify(std::string_view agent_id, Fn fn) {
    auto e = entry(agent_id, false);
    if (!e) return;
    size_t bytes = 0;
    {
      std::unique_lock lock(e->mu);
      if (e->version < 0) return;
      fn(e->value);
      bytes = measured(e->value);
    }
    account(agent_id, e, bytes, false);
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
    std::vector<std::shared_ptr<Entry>> all;
    {
      std::lock_guard lock(mu_);
      for (const auto& [id, e] : entries_) all.push_back(e);
    }
    size_t total = 0;
    for (const auto& e : all) {
      std::shared_lock read(e->mu);
      total += measure(e->value);
    }
    return total;
  }

  // The sum of `measure` over every loaded agent (0 without a measure).
  size_t measure_all() const { return measure_ ? sum(measure_) : 0; }

  // The budget's limit (0: none), and what every cache sharing it holds together.
  size_t budget() const { return budget_ ? budget_->limit() : 0; }
  size_t budget_held() const { return budget_ ? budget_->total() : 0; }
  CacheFigures figures() const {
    std::lock_guard lock(mu_);
    return {entries_.size(), total_, loads_, evictions_};
  }

 private:
  struct Entry {
    mutable std::shared_mutex mu;
    int64_t version = -1;  // the knowledge version the value reflects; -1 before loading
    Key key{};             // what the value was built for
    Value value;
    // When it was last asked for (the budget's tick, or the cache's).
    std::atomic<uint64_t> used{0};
    size_t bytes = 0;  // as last measured; guarded by the cache's mu_
    // The knowledge version last read from the database, and the entity version before that read.
    std::mutex read_mu;
    uint64_t read_stamp = 0;
    int64_t read_version = -1;
  };

  // The agent's knowledge version in the database: the one last read while the entity's version
  // has not moved since (read before the database, so a commit in between moves it), else read.
  Result<int64_t> database_version(std::string_view agent_id, Entry& e) const {
    const uint64_t stamp = source_ ? source_->entity_version(Entity::kKnowledge, agent_id) : 0;
    if (source_) {
      std::lock_guard lock(e.read_mu);
      if (e.read_stamp == stamp && e.read_version >= 0) return e.read_version;
    }
    PARLEY_ASSIGN_OR_RETURN(Connection & reader, db_.read());
    PARLEY_ASSIGN_OR_RETURN(int64_t version, SourceRepo::version(reader, agent_id));
    if (source_) {
      std::lock_guard lock(e.read_mu);
      e.read_stamp = stamp;
      e.read_version = version;
    }
    return version;
  }

  std::shared_ptr<Entry> entry(std::string_view agent_id, bool create) const {
    std::lock_guard lock(mu_);
    auto it = entries_.find(std::string(agent_id));
    if (it != entries_.end()) return it->second;
    if (!create) return nullptr;
    auto e = std::make_shared<Entry>();
    entries_.emplace(std::string(agent_id), e);
    return e;
  }

  void touch(Entry& e) const {
    const uint64_t now =
        budget_ ? budget_->tick() : tick_.fetch_add(1, std::memory_order_relaxed) + 1;
    e.used.store(now, std::memory_order_relaxed);
  }

  size_t measured(const Value& value) const { return budget_ && measure_ ? measure_(value) : 0; }

  // Records the entry's new size and, past the budget, has the least recently used values of
  // every cache sharing it dropped. Called without the entry's lock (lock order).
  void account(std::string_view agent_id, const std::shared_ptr<Entry>& e, size_t bytes,
               bool load) const {
    {
      std::lock_guard lock(mu_);
      if (load) ++loads_;
      if (!budget_) return;
      auto it = entries_.find(std::string(agent_id));
      if (it == entries_.end() || it->second != e) return;  // dropped meanwhile: not counted
      // Stamped again once loaded: a slow load is not the oldest value the moment it is in.
      if (load) touch(*e);
      total_ = total_ - e->bytes + bytes;
      budget_->moved(bytes, e->bytes);
      e->bytes = bytes;
    }
    budget_->enforce(agent_id);
  }

  // The least recently used entry that would free memory, the agent `serving`'s left out.
  auto oldest_entry(std::string_view serving) const {
    auto victim = entries_.end();
    uint64_t oldest = UINT64_MAX;
    for (auto i = entries_.begin(); i != entries_.end(); ++i) {
      if (i->first == serving || i->second->bytes == 0) continue;  // frees nothing
      uint64_t used = i->second->used.load(std::memory_order_relaxed);
      if (used < oldest) {
        oldest = used;
        victim = i;
      }
    }
    return victim;
  }

  std::optional<uint64_t> oldest(std::string_view serving) const override {
    std::lock_guard lock(mu_);
    auto victim = oldest_entry(serving);
    if (victim == entries_.end()) return std::nullopt;
    return victim->second->used.load(std::memory_order_relaxed);
  }

  size_t drop_oldest(std::string_view serving,
                     std::vector<std::shared_ptr<void>>& dropped) override {
    std::lock_guard lock(mu_);
    auto victim = oldest_entry(serving);
    if (victim == entries_.end()) return 0;
    const size_t bytes = victim->second->bytes;
    total_ -= bytes;
    budget_->moved(0, bytes);
    ++evictions_;
    // A query still using the value keeps it alive until it ends; otherwise it is freed by the
    // budget once no lock is held.
    dropped.push_back(std::move(victim->second));
    entries_.erase(victim);
    return bytes;
  }

  Database& db_;
  EntitySource* const source_;  // null: the version is read from the database on every query
  MemoryBudget* const budget_;  // null: none
  const Measure measure_;
  mutable std::mutex mu_;
  mutable std::unordered_map<std::string, std::shared_ptr<Entry>> entries_;
  mutable std::atomic<uint64_t> tick_{0};  // without a budget (whose clock it uses otherwise)
  mutable size_t total_ = 0;
  mutable uint64_t loads_ = 0;
  mutable uint64_t evictions_ = 0;
};

}  // namespace parley
