// Statements whose result nobody waits for, sent together with the next one that is waited for.
//
// Inside a PostgreSQL write transaction, execute_later queues the statement on the connection
// (PgConnection::send): it goes to the server with the transaction's next statement whose rows
// are read, or with COMMIT, in one round trip (libpq's pipeline mode), and runs in order, so
// later statements see what it wrote. A failure surfaces at that next statement and fails the
// unit of work as if it had failed at once (the transaction rolls back; a lost race is run again,
// store/write_retry.h). Everywhere else (SQLite, whose statements cost no round trip; a read
// connection) it runs at once.
// Stateless; runs on the connection it is given.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "store/db.h"

namespace parley {

Result<void> execute_later(Connection& c, std::string_view sql, Params params);
// The same with parameters counted at run time (a statement of several rows).
Result<void> execute_later(Connection& c, std::string_view sql, const std::vector<DbValue>& params);

// execute_later for a statement whose rows are wanted, but not at once: `on_row` runs for each of
// its rows when its answer comes back (with the next statement that is waited for, or with
// COMMIT), so what it fills is read only after such a statement, or after the unit of work; what
// it refers to must live until then. It must not run statements. Its failure surfaces as
// execute_later's (and on_row does not run). Elsewhere it runs at once.
Result<void> query_later(Connection& c, std::string_view sql, Params params, RowFn on_row);
Result<void> query_later(Connection& c, std::string_view sql, const std::vector<DbValue>& params,
                         RowFn on_row);

// A mark of the statements queued on `c` so far, for wait_for_answers().
uint64_t answers_mark(Connection& c);
// Waits for the answers of the statements queued up to `mark`, so that what their on_row filled
// can be read: nothing when they are in already (SQLite runs them at once; a statement waited for
// since took them along), else one round trip.
Result<void> wait_for_answers(Connection& c, uint64_t mark);

// Connection::lock_row without waiting: the row is locked before the next statement runs, and
// `found` is set when the answer comes back (as query_later's rows; it must live until then).
Result<void> lock_row_later(Connection& c, std::string_view table, std::string_view id,
                            bool& found);

}  // namespace parley
