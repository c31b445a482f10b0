// The query planner's statistics after a bulk change. PostgreSQL plans a prepared statement once
// for a table it believes small: a table that grew from empty during a bulk import is then read
// by sequential scans until autovacuum analyzes it (up to a minute later), each scan slower than
// the last. refresh_statistics runs ANALYZE on it at once, in its own short transaction, so the
// cached plans are made again with its indexes. Also what store/postgres/first_statistics.h runs on
// the tables a new database fills. SQLite plans by its indexes without statistics:
// nothing to do. Thread-safe (Database is).
#pragma once

#include <string_view>

#include "core/result.h"
#include "store/db.h"

namespace parley {

// `table` comes from code, never from input.
Result<void> refresh_statistics(Database& db, std::string_view table);

}  // namespace parley
