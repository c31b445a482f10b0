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
#include <memory>
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
  // (PostgreSQL's listener reconnecting), and while a commit of this process that changes the
  // entity is in flight (CommitInFlight), every read returns a new value.
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
  explicit EntityVersions(std::atomic<uint64_t>* slots);

  // The entity's version; while a commit of this process that changes it is in flight
  // (CommitInFlight), a new value at every read that no counter ever holds (a cache then reads
  // the database).
  uint64_t version(Entity kind, std::string_view id) const {
    const size_t s = slot(kind, id);
    if (in_flight_[s].load(std::memory_order_acquire) != 0 ||
        all_in_flight_.load(std::memory_order_acquire) != 0) {
      return never_held();
    }
    return slots_[s].load(std::memory_order_acquire);
  }
  // A backend's auth epoch (db.h) as read now: `epoch`, or while a commit of this process that
  // changes an account or a key is in flight, a new value at every read that no epoch holds.
  uint64_t auth_epoch(uint64_t epoch) const {
    if (auth_in_flight_.load(std::memory_order_acquire) != 0 ||
        all_in_flight_.load(std::memory_order_acquire) != 0) {
      return never_held();
    }
    return epoch;
  }
  // Moves the entity's version; returns the new value.
  uint64_t bump(Entity kind, std::string_view id) {
    return slots_[slot(kind, id)].fetch_add(1, std::memory_order_acq_rel) + 1;
  }
  // Moves every version (a change whose entities are unknown).
  void bump_all();

  static size_t slot(Entity kind, std::string_view id);

 private:
  friend class CommitInFlight;
  // Bits no counter or epoch reaches, and that PgDatabase's values for a listener not yet heard
  // (the top bit over a count of reads) never have together.
  static constexpr uint64_t kNeverHeld = (uint64_t{1} << 63) | (uint64_t{1} << 62);
  uint64_t never_held() const {
    return unread_.fetch_add(1, std::memory_order_relaxed) | kNeverHeld;
  }

  std::atomic<uint64_t>* slots_;
  std::unique_ptr<std::atomic<uint32_t>[]> in_flight_;  // per slot: this process's commits
  alignas(64) std::atomic<uint32_t> all_in_flight_{0};  // commits that change everything
  std::atomic<uint32_t> auth_in_flight_{0};             // commits that change an account or a key
  alignas(64) mutable std::atomic<uint64_t> unread_{0};
};

// What a commit of this process is about to change, marked in flight from just before the commit
// until it has been published (or has failed): meanwhile those entities' versions read as values
// no cache holds (EntityVersions::version). Between a commit and its publishing another thread may
// read what the commit wrote (a client sees a source trained, then asks the agent); a version
// that moved only at the publishing would let that reader's cache serve what the commit replaced,
// and one that moved before the commit would let a read made just before it be kept. An agent's
// counters, which the observers hand to the cached agent in place, are not marked. Ends when
// destroyed or replaced.
class CommitInFlight {
 public:
  CommitInFlight() = default;
  // The changes `work` recorded after `mark` (a UnitOfWork::mark()).
  CommitInFlight(EntityVersions& versions, const UnitOfWork& work, size_t mark = 0);
  CommitInFlight(CommitInFlight&& o) noexcept { *this = std::move(o); }
  CommitInFlight& operator=(CommitInFlight&& o) noexcept;
  CommitInFlight(const CommitInFlight&) = delete;
  CommitInFlight& operator=(const CommitInFlight&) = delete;
  ~CommitInFlight() { end(); }
  // Whether anything is marked (a commit of an agent's counters alone marks nothing).
  bool marks_anything() const { return !slots_.empty() || all_; }

 private:
  void end();
  EntityVersions* versions_ = nullptr;
  std::vector<size_t> slots_;
  bool all_ = false;
  bool auth_ = false;
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
