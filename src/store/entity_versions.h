// The versions of entities (store/entity_changes.h) that a backend keeps for caches, and the
// publishing of a commit's changes to them and to this process's observers.
//
// A version is a counter chosen by hashing the entity's kind and id into a fixed table of
// kSlots counters: memory stays bounded whatever the number of agents, and two entities sharing a
// counter only make a cache reload one of them needlessly, never serve a stale one. SQLite keeps
// the table in memory shared by every process that opens the database file (an admin command's
// change reaches a serving process at once); PostgreSQL in the process, moved by its listener for
// other nodes' changes. Thread-safe (the counters are atomics).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <shared_mutex>
#include <string_view>
#include <vector>

#include "store/db.h"
#include "store/entity_changes.h"

namespace parley {

// Called once per changed entity of every commit of this process, on the committing thread
// before write() returns, with the entity's version after the commit moved it (it was one less
// just before, unless another change moved it meanwhile). It must not block.
using CommitObserver = std::function<void(const EntityChange& change, uint64_t version)>;

// What a backend offers caches of rows (SqliteDatabase and PgDatabase are one).
class EntitySource {
 public:
  virtual ~EntitySource() = default;
  // The version of one entity: it moves after every commit that changed the entity, in this
  // process before write() returns, in other processes sharing the database as soon as they hear
  // of it (PostgreSQL: within a second). A cache tags what it loads with the version read before
  // loading and serves it while the version is unchanged. While changes could go unheard
  // (PostgreSQL's listener reconnecting), every read returns a new value.
  virtual uint64_t entity_version(Entity kind, std::string_view id) const = 0;
  virtual void add_commit_observer(CommitObserver observer) = 0;
};

// The database's EntitySource; null for a Database of another kind (a test's stand-in, whose
// caches then fall back on Database::data_epoch()).
EntitySource* entity_source(Database& db);

class EntityVersions {
 public:
  static constexpr size_t kSlots = 16384;
  // Over `slots`, kSlots counters that outlive this object.
  explicit EntityVersions(std::atomic<uint64_t>* slots) : slots_(slots) {}

  uint64_t version(Entity kind, std::string_view id) const {
    return slots_[slot(kind, id)].load(std::memory_order_acquire);
  }
  // Moves the entity's version; returns the new value.
  uint64_t bump(Entity kind, std::string_view id) {
    return slots_[slot(kind, id)].fetch_add(1, std::memory_order_acq_rel) + 1;
  }
  // Moves every version (a change whose entities are unknown).
  void bump_all();

  static size_t slot(Entity kind, std::string_view id);

 private:
  std::atomic<uint64_t>* slots_;
};

// This process's commit observers.
class CommitObservers {
 public:
  void add(CommitObserver observer);
  // After a commit: moves the version of every entity `work` recorded (all of them when it
  // recorded everything_changed) and tells the observers. Returns whether an account or a key
  // changed (the auth epoch must move too).
  bool publish(const UnitOfWork& work, EntityVersions& versions);

 private:
  std::shared_mutex mu_;
  std::vector<CommitObserver> observers_;
};

}  // namespace parley
