// What a write transaction changed, by entity, and the work it leaves for its end.
//
// Caches of rows (the agent cache, the key cache) are invalidated per entity: every repository
// function that changes a row a cache holds records the entity (an agent, an account, a key, an
// agent's knowledge version) on the connection's UnitOfWork; when the transaction commits, the
// backend moves the version of each entity it changed (store/entity_versions.h) and tells this
// process's observers (EntitySource::add_commit_observer), and PostgreSQL announces the same
// entity ids to the other nodes. A write that changes no cached row (a chat turn's messages, a
// contact) moves no cached entity's version.
//
// The UnitOfWork also holds work deferred to the end of the unit of work, run once however often
// it was asked for: a conversation's figures recounted once per transaction, an agent's counters
// moved by one statement. Outside a unit of work (a read connection, a test that calls a
// repository directly) deferred work runs at once.
//
// Not thread-safe: it belongs to its connection, which one thread uses at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace parley {

class Connection;

// The entities caches hold. kKnowledge is an agent's knowledge version (its id is the agent's).
enum class Entity : uint8_t { kAgent, kAccount, kKey, kKnowledge };

// An agent's denormalised counters as one commit left them, with their sequence (moves with every
// change of them), so that a cache can take the newest of several commits' values.
struct AgentCounts {
  int64_t conversations = 0;
  int64_t messages = 0;
  int64_t leads = 0;
  int64_t sources = 0;
  int64_t seq = 0;
};

struct EntityChange {
  Entity kind = Entity::kAgent;
  std::string id;
  // Only the agent's counters changed, to these values (the rest of the agent is as it was).
  std::optional<AgentCounts> counts;
};

// Work deferred to the end of the unit of work (see above).
class Deferred {
 public:
  virtual ~Deferred() = default;
  virtual Result<void> run(Connection& c) = 0;
};

class UnitOfWork {
 public:
  // Records that the running unit of work changed the entity (outside one: nothing). The same
  // entity recorded twice by one unit of work is kept once (a definition change wins over a
  // counters-only change); units committed together keep an entry each, so that forgetting a unit
  // that was rolled back (truncate) never touches what an earlier one recorded.
  void changed(Entity kind, std::string_view id, std::optional<AgentCounts> counts = std::nullopt);
  // A change whose rows are not known one by one (an installation copied in): every entity.
  void everything_changed() { everything_ = true; }

  const std::vector<EntityChange>& changes() const { return changes_; }
  bool everything() const { return everything_; }
  // For a backend that commits several units of work together (SQLite's group commit): where one
  // starts, and forgetting what a unit of work that was rolled back recorded.
  size_t mark() const { return changes_.size() | (everything_ ? kEverythingBit : 0); }
  // The changes recorded after `mark`, and whether everything changed after it.
  std::span<const EntityChange> changes_since(size_t mark) const;
  bool everything_since(size_t mark) const { return everything_ && !(mark & kEverythingBit); }
  void truncate(size_t mark);
  // Forgets every change (a transaction begins, or was rolled back).
  void clear_changes();

  // A unit of work starts on this connection: deferred work waits for finish().
  void begin();
  bool active() const { return active_; }
  // The deferred work under `key`, or null.
  Deferred* find(std::string_view key);
  // Adds deferred work under `key` (not there yet). Outside a unit of work it runs at once.
  Result<void> add(Connection& c, std::string key, std::unique_ptr<Deferred> work);
  // Runs the deferred work whose key starts with `prefix` now (before a read that must see it).
  Result<void> run_now(Connection& c, std::string_view prefix);
  // Runs what is deferred, in the order it was first asked for. Changes are still recorded
  // until abandon() (answers to statements sent with COMMIT, store/pipelined.h query_later).
  Result<void> finish(Connection& c);
  // Ends the unit of work, without running what is still deferred (it failed, or was finished).
  void abandon();

 private:
  static constexpr size_t kEverythingBit = size_t{1} << (sizeof(size_t) * 8 - 1);
  std::vector<EntityChange> changes_;
  bool everything_ = false;
  bool active_ = false;
  size_t unit_start_ = 0;  // where the running unit of work's changes begin in changes_
  std::vector<std::pair<std::string, std::unique_ptr<Deferred>>> deferred_;
};

// The unit of work running on `c` (store/sqlite and store/postgres connections hold one); null
// for a connection of another kind (a test's stand-in), which then records nothing and runs
// deferred work at once.
UnitOfWork* work_of(Connection& c);
// Shorthands on work_of(c) for repositories.
void record_change(Connection& c, Entity kind, std::string_view id,
                   std::optional<AgentCounts> counts = std::nullopt);
Deferred* find_deferred(Connection& c, std::string_view key);
Result<void> defer(Connection& c, std::string key, std::unique_ptr<Deferred> work);
Result<void> run_deferred_now(Connection& c, std::string_view prefix);

}  // namespace parley
