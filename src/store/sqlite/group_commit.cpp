#include "store/sqlite/group_commit.h"

#include <sqlite3.h>

#include <cstdlib>

#include "core/log.h"

namespace parley {

namespace {
ApiError not_stored() {
  return {ErrorCode::kUnavailable, "The database could not store the change; retry."};
}

// Runs one unit of work and the work it deferred to its end (store/entity_changes.h); what a
// failed one recorded as changed is forgotten with its changes.
Result<void> run_guarded(SqliteConnection& c, const WriteFn& fn) {
  c.require_transaction(true);
  const size_t mark = c.work().mark();
  c.work().begin();
  Result<void> r;
  try {
    r = fn(c);
    if (r.ok()) r = c.work().finish(c);
  } catch (const std::exception& e) {
    r = ApiError::internal(std::string("write failed: ") + e.what());
  }
  c.work().abandon();
  if (!r.ok()) c.work().truncate(mark);
  c.require_transaction(false);
  return r;
}

// A COMMIT whose fsync failed has written the commit frame to the WAL: this process then sees the
// transaction as rolled back, but recovery after a crash replays it, so no answer given now could
// be trusted (and a retried fsync may report success for pages the kernel already dropped). The
// process stops instead, like PostgreSQL's PANIC on fsync failure: its clients get no answer
// rather than a wrong one, and the next start's recovery decides what was stored. Other commit
// failures (SQLITE_FULL, write errors, busy) happen before the commit frame and are certain.
void stop_if_outcome_unknown(SqliteConnection& c) {
  int code = c.last_error_code();
  if (code != SQLITE_IOERR_FSYNC && code != SQLITE_IOERR_DIR_FSYNC) return;
  log_error("commit fsync failed; stopping so that recovery decides what was stored",
            {{"code", int64_t{code}}});
  flush_logs();
  std::abort();
}

// Ends a transaction that can no longer be trusted (SQLite may already have ended it).
void abandon(SqliteConnection& c) {
  if (c.in_transaction()) (void)c.execute_script("ROLLBACK");
}
}  // namespace

std::vector<Result<void>> commit_group(SqliteConnection& c, const std::vector<const WriteFn*>& jobs,
                                       EntityVersions* versions,
                                       std::vector<CommitInFlight>* in_flight) {
  std::vector<Result<void>> results(jobs.size());
  size_t next = 0;
  while (next < jobs.size()) {
    const size_t committed_mark = c.work().mark();  // what earlier transactions changed
    if (!c.execute("BEGIN IMMEDIATE", {}).ok()) {
      log_error("write transaction could not begin");
      abandon(c);
      for (; next < jobs.size(); ++next) {
        results[next] = ApiError{ErrorCode::kUnavailable, "The database is busy; retry."};
      }
      break;
    }
    std::vector<size_t> held;  // jobs whose changes the open transaction holds
    bool lost = false;
    while (next < jobs.size() && !lost) {
      size_t i = next;
      ++next;
      if (!c.execute("SAVEPOINT job", {}).ok()) {
        // Nothing of this job has run; it fails alone, and takes the transaction's other jobs
        // with it only when SQLite ended the transaction.
        results[i] = not_stored();
        if (c.in_transaction()) continue;
        lost = true;
        break;
      }
      Result<void> r = run_guarded(c, *jobs[i]);
      if (!c.in_transaction()) {
        lost = true;
      } else if (!r.ok()) {
        bool undone = c.execute("ROLLBACK TO job", {}).ok() && c.execute("RELEASE job", {}).ok();
        // A job whose changes could not be undone must not be committed with the others.
        if (!undone) lost = true;
      } else if (!c.execute("RELEASE job", {}).ok()) {
        lost = true;
      }
      if (lost) {
        results[i] = r.ok() ? Result<void>(not_stored()) : std::move(r);
        break;
      }
      results[i] = std::move(r);
      if (results[i].ok()) held.push_back(i);
    }
    CommitInFlight marked;
    if (!lost && versions != nullptr) marked = CommitInFlight(*versions, c.work(), committed_mark);
    bool committed = !lost && c.execute("COMMIT", {}).ok();
    if (committed) {
      if (in_flight != nullptr && marked.marks_anything()) in_flight->push_back(std::move(marked));
      continue;
    }
    if (!lost) stop_if_outcome_unknown(c);
    log_error("write transaction rolled back", {{"jobs", int64_t(held.size())}});
    abandon(c);
    c.work().truncate(committed_mark);
    for (size_t h : held) results[h] = not_stored();
  }
  return results;
}

}  // namespace parley
