// Group commit: runs a batch of write jobs on the writer's connection inside as few transactions
// as possible, each job in its own savepoint so that a failing job rolls back only its own
// changes. A job's result is ok exactly when its changes were committed.
//
// SQLite may roll back the whole transaction by itself after an error (SQLITE_FULL, SQLITE_IOERR,
// SQLITE_BUSY, SQLITE_NOMEM), after which `ROLLBACK TO` fails and further statements would run in
// autocommit mode. So after every job the transaction is checked: when it is gone, the jobs whose
// changes it held are reported as not stored, and the rest of the batch runs in a new transaction.
// While a job runs, its connection refuses statements outside a transaction, so no part of a job
// can be committed on its own.
//
// Not thread-safe: called by the single writer thread that owns the connection.
#pragma once

#include <vector>

#include "store/db.h"
#include "store/entity_versions.h"
#include "store/sqlite/sqlite_connection.h"

namespace parley {

// Runs `jobs` in order on `c` and returns one result per job, in the same order. With
// `versions`, what each transaction changes is marked in flight just before its COMMIT
// (store/entity_versions.h CommitInFlight); the marks of the transactions committed go to
// `in_flight`, for the caller to end once it has published them.
std::vector<Result<void>> commit_group(SqliteConnection& c, const std::vector<const WriteFn*>& jobs,
                                       EntityVersions* versions = nullptr,
                                       std::vector<CommitInFlight>* in_flight = nullptr);

}  // namespace parley
