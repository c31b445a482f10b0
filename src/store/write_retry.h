// Running a write transaction again when the backend aborted it because a concurrent transaction
// won: PostgreSQL's serialization_failure (SQLSTATE 40001) and deadlock_detected (40P01). A
// backend's write() calls run_write_attempts() with one attempt = begin, run the unit of work,
// commit, and says whether a failure was such a conflict. SQLite's single writer never reports
// one, so there nothing is ever run twice. Stateless; thread-safe.
#pragma once

#include <functional>

#include "core/result.h"

namespace parley {

// What one attempt of a write transaction ended with.
struct WriteAttempt {
  Result<void> result;
  // True when `result` failed only because another transaction won a race: the transaction was
  // rolled back and the same unit of work may succeed when run again.
  bool conflict = false;
};

// Attempts in all before a conflict is given up on (the caller answers 503, "retry").
inline constexpr int kWriteAttempts = 5;

// Calls `attempt` until it succeeds, fails for a reason other than a conflict (that error is
// returned), or conflicted `max_attempts` times (then 503 unavailable).
Result<void> run_write_attempts(const std::function<WriteAttempt()>& attempt,
                                int max_attempts = kWriteAttempts);

}  // namespace parley
