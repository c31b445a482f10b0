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
#include <shared_mutex>
#include <string_view>
#include <vector>

#include "store/db.h"

namespace parley {

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

// This process's commit observers (Database::add_commit_observer).
class CommitObservers {
 public:
  void add(Database::CommitObserver observer);
  // After a commit: moves the version of every entity `work` recorded (all of them when it
  // recorded everything_changed) and tells the observers. Returns whether an account or a key
  // changed (the auth epoch must move too).
  bool publish(const UnitOfWork& work, EntityVersions& versions);

 private:
  std::shared_mutex mu_;
  std::vector<Database::CommitObserver> observers_;
};

}  // namespace parley
