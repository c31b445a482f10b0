// Leases of background jobs that one node at a time runs when several share the database
// (worker_leases, migration 0044): a node claims the job's row for a while and renews it while it
// works; another node takes it over only once the lease has ended (its holder stopped or hung).
// Stateless; every function runs on the connection it is given (a write transaction).
#pragma once

#include <cstdint>
#include <string_view>

#include "store/db.h"

namespace parley {

class WorkerLeaseRepo {
 public:
  // Makes `owner` the holder of the job `name` until `until` when it is free (never claimed, or
  // its lease ended before `now`) or already `owner`'s: true then. False: another node holds it.
  // One statement, so two nodes claiming at once cannot both win.
  static Result<bool> claim(Connection& c, std::string_view name, std::string_view owner,
                            int64_t now, int64_t until);
  // Ends `owner`'s lease of `name` at once (so another node need not wait for it to run out).
  static Result<void> release(Connection& c, std::string_view name, std::string_view owner);
};

}  // namespace parley
