// UsageCounts: what this node knows of the reply counters (domain/usage.h), so that the check
// before a turn's engine runs (check_reply_allowed) reads memory instead of the database.
//
// A count only grows, so the highest value of it seen in a committed state of the database is
// the latest. A count is read from the database once (learnt); from then on it comes from memory,
// and every write of it through this process tells the count its statement returned (`RETURNING
// count`) once the write committed (CountsSeen), which raises the count kept. A write that fails
// or rolls back tells nothing. Tells are kept from the moment a count's read begins: a write that
// commits after the read's snapshot raises what the read found, one that committed before it is
// in it. Nothing is counted twice, and no write has to be waited for. Past 100,000 counts all are
// forgotten and learnt again.
// This is exact only when every count of the database goes through this process: SQLite, which
// one process serves. A node that shares its database with others (PostgreSQL) has none: there the
// check is the statement that holds the plan's message (PlanMessageHold::check_and_take). The
// commit still checks the plan's messages in its own statement (count_reply_within_limits_later);
// this only spares the read before the engine runs.
// Shared (std::shared_ptr) by everything that may tell it a count: a write queued behind may
// commit after the node that made it has stopped serving.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "core/string_map.h"
#include "store/db.h"
#include "store/usage_repo.h"

namespace parley {

class UsageCounts {
 public:
  using ScopePeriod = UsageRepo::ScopePeriod;

  UsageCounts() = default;
  UsageCounts(const UsageCounts&) = delete;
  UsageCounts& operator=(const UsageCounts&) = delete;

  // The counts of the three pairs, as UsageRepo::counts gives them; from memory when each has
  // been seen, else read from the database (and seen).
  Result<std::array<int64_t, 3>> read(Connection& c, const std::array<ScopePeriod, 3>& asked);

  // (scope, period) held `count` in a committed state of the database: raises the count kept,
  // once a read of it has begun.
  void saw(std::string_view scope, std::string_view period, int64_t count);

 private:
  struct Known {
    int64_t count = 0;
    bool learnt = false;  // its read came back; until then it only gathers what writes tell
  };
  std::mutex mu_;
  StringMap<Known> known_;  // by scope id, '\n', period
};

// The counts one write's statements return, told to UsageCounts once the write committed. The
// caller asks for each count's place before the write; the write's statements fill the places
// (UsageRepo's `RETURNING count`) and leave 0 where they counted nothing. A unit of work that
// runs again (db.h) clears them first.
class CountsSeen {
 public:
  explicit CountsSeen(std::shared_ptr<UsageCounts> counts) : counts_(std::move(counts)) {}
  CountsSeen(const CountsSeen&) = delete;
  CountsSeen& operator=(const CountsSeen&) = delete;

  // Where the write puts the count of (scope, period) it returned; stable for this object's life.
  // At most kPlaces (a chat turn's: the account's month, the agent's, the agent's hour).
  static constexpr size_t kPlaces = 3;
  int64_t* place(std::string scope, std::string period);
  // Sets every place back to 0, for a unit of work that runs again.
  void clear();
  // The write committed: each count it returned is seen.
  void committed();

 private:
  struct Seen {
    std::string scope;
    std::string period;
    int64_t count = 0;
  };
  std::shared_ptr<UsageCounts> counts_;
  std::array<Seen, kPlaces> seen_;  // a turn's few, without an allocation of their own
  size_t used_ = 0;
};

}  // namespace parley
