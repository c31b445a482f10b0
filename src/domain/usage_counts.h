// UsageCounts: what this node knows of the reply counters (domain/usage.h), so that the check
// before a turn's engine runs (check_reply_allowed) reads memory instead of the database.
//
// A count is learnt once from the database, then kept by the writes of this process: each write
// that may add to it says so before it is handed to the database (begin) and what it added once
// it committed or failed (end). A count is learnt only when no such write was in flight during its
// read, so the value read is the committed one and every later addition comes through end().
// This is exact only when every count of the database goes through this process: SQLite, which
// one process serves. A node that shares its database with others (PostgreSQL) has none and reads
// the counters every time. The commit still checks the plan's messages in its own statement
// (count_reply_within_limits_later); this only spares the read before the engine runs.
// Shared (std::shared_ptr) by everything that may end a write: a write queued behind may end
// after the node that made it has stopped serving.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

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

  // The counts of the three pairs, as UsageRepo::counts gives them; from memory when known.
  Result<std::array<int64_t, 3>> read(Connection& c, const std::array<ScopePeriod, 3>& asked);

  // A write that may add to the count of (scope, period) is about to be handed to the database.
  void begin(std::string_view scope, std::string_view period);
  // That write committed, having added `added` (0 when it added nothing), or failed (0).
  void end(std::string_view scope, std::string_view period, int64_t added);

 private:
  struct Known {
    int64_t count = 0;
    bool learnt = false;
    int64_t writing = 0;  // writes begun and not ended
    uint64_t ended = 0;   // writes ended, ever
  };
  Known& at(std::string_view scope, std::string_view period);
  void forget_unused();

  std::mutex mu_;
  StringMap<Known> known_;  // by scope id, '\n', period
  uint64_t forgets_ = 0;    // how many times known_ was thinned (forget_unused)
};

// The additions one write may make to the counts, begun when it is made and ended once, when
// committed() is called or, failing that, when the last reference goes (0 added). Held by the
// write's unit of work and by whoever learns of its commit.
class CountsInFlight {
 public:
  struct Count {
    std::string scope;
    std::string period;
    int64_t added = 0;  // what the write adds when it commits; the unit of work may change it
  };
  CountsInFlight(std::shared_ptr<UsageCounts> counts, std::vector<Count> pending);
  CountsInFlight(const CountsInFlight&) = delete;
  CountsInFlight& operator=(const CountsInFlight&) = delete;
  ~CountsInFlight();

  std::vector<Count>& pending() { return pending_; }
  void committed();

 private:
  std::shared_ptr<UsageCounts> counts_;
  std::vector<Count> pending_;
  bool ended_ = false;
};

}  // namespace parley
