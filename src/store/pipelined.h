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

#include <string_view>

#include "store/db.h"

namespace parley {

Result<void> execute_later(Connection& c, std::string_view sql, Params params);

}  // namespace parley
