// FirstStatistics: analyzes, on PostgreSQL, the tables that have grown without ever being
// analyzed, so that the plans of the statements a node prepared on them are made again from
// statistics.
//
// A connection plans a prepared statement on its first runs and keeps that plan until the table
// is analyzed. Autovacuum analyzes a table first after its first 50 rows changed, on its next
// round (autovacuum_naptime: a minute by default). Until then the planner has no statistics:
// every index that begins with the same column (an agent's id) costs it the same as the unique
// index a lookup names, and it may take one of them and read every row of the agent. On a new
// database under load that is the first minute: the chat bench measured its session lookup at
// 279 µs and the contact bench its contact lookup at 224 µs, 13–27 µs once analyzed.
//
// Every two seconds, the tables of the connection's schema with at least kRows live rows and no
// analysis yet are analyzed (ANALYZE takes no lock that reads or writes wait for; it invalidates
// the plans on the table, on every node). After that autovacuum keeps their statistics. A node
// tries each table once (one the database user does not own stays unanalyzed: PostgreSQL skips
// it with a warning). Several nodes may do it at once. The CSV import also analyzes `contacts` as
// its rows grow tenfold, faster than autovacuum's round (store/statistics.h). Owns one thread;
// construct to start, destroy to stop.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "core/periodic.h"
#include "store/db.h"

namespace parley {

class FirstStatistics {
 public:
  static constexpr int64_t kRows = 500;

  // `db` must outlive this.
  explicit FirstStatistics(Database& db);

  // One round, on the calling thread's reading connection: analyzes what needs it now
  // (refresh_statistics, store/statistics.h), but the tables in `tried`, and adds them there (a
  // table that stays unanalyzed, one the user does not own, is tried once). The names of the
  // tables analyzed, qualified by their schema.
  static Result<std::vector<std::string>> analyze_new_tables(Database& db,
                                                             std::set<std::string>& tried);

 private:
  Database& db_;
  std::set<std::string> tried_;  // by the periodic thread only
  Periodic every_two_seconds_;  // last: its thread stops before the members it uses go
};

}  // namespace parley
