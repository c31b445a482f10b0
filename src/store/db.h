// The database driver every repository is written against. SQL uses PostgreSQL-style numbered
// parameters ($1, $2, ...) and the subset SQLite 3.40 and PostgreSQL 15 share; each backend maps
// what differs inside its own implementation.
//
// Threading: a Connection belongs to one thread at a time. Database is thread-safe: read() hands
// the calling thread its own reading connection, and write() runs a unit of work inside a
// transaction on the single writer (SQLite: group commit of concurrent writers; PostgreSQL: a
// pooled connection).
//
// What a write transaction guarantees, whatever the backend:
// - Atomic and durable: write() returns ok only once every change of the unit of work is
//   committed (durably with Durability::kFull); an error means none of them is.
// - Isolated where it matters: SQLite runs write transactions one after another (BEGIN
//   IMMEDIATE holds the database for the whole transaction). PostgreSQL runs them side by side at
//   READ COMMITTED, and what must not race is kept exact as the paragraph below says. A
//   transaction that loses a race all the same (a deadlock, a serialization failure, a duplicate
//   key) is rolled back and the unit of work runs again, up to kWriteAttempts times in all
//   (run_write_attempts, store/write_retry.h); write() answers 503 unavailable after that.
// - So a unit of work may run more than once: it starts from what it reads on its connection,
//   assigns (never appends to) what it hands back, and does nothing outside the connection that
//   cannot be repeated (mail and HTTP calls go before or after write(), not inside).
// Repositories do not lean on that isolation for sequences, counters and caps: each is one
// atomic statement (UPDATE ... SET n = n + 1 ... RETURNING; INSERT ... WHERE count < cap), a
// constraint (UNIQUE (conversation_id, seq)), or runs after Connection::lock_row on the row that
// owns it. So they stay exact under READ COMMITTED, and contended rows queue on a row lock
// instead of aborting and retrying.
//
// Reads through read() outside a transaction see the latest commit; two reads may see different
// commits. A check that must hold when something is written is made again inside write().
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/result.h"

namespace parley {

// Bytes bound as a BLOB (a string is bound as TEXT). The view must outlive the statement.
struct DbBlob {
  std::string_view bytes;
};

// A parameter value. Booleans are stored as integers 0/1.
using DbValue =
    std::variant<std::monostate, int64_t, double, std::string, std::string_view, DbBlob>;

inline DbValue db_null() { return std::monostate{}; }
inline DbValue db_opt(const std::optional<std::string>& v) {
  return v ? DbValue(std::string_view(*v)) : DbValue(std::monostate{});
}
inline DbValue db_opt(const std::optional<int64_t>& v) {
  return v ? DbValue(*v) : DbValue(std::monostate{});
}
inline DbValue db_opt(const std::optional<double>& v) {
  return v ? DbValue(*v) : DbValue(std::monostate{});
}

// Begins a migration's line that only PostgreSQL runs (Connection::schema_sql); SQLite reads it
// as a comment.
inline constexpr std::string_view kPostgresqlOnlyLine = "-- postgresql: ";

// What a column of a row holds, for code that copies rows it knows nothing about.
enum class ColumnKind { kNull, kInteger, kReal, kText, kBlob };

// One row of a result, valid only inside the row callback.
class Row {
 public:
  virtual ~Row() = default;
  virtual int column_count() const = 0;
  virtual std::string_view column_name(int col) const = 0;
  virtual ColumnKind kind(int col) const = 0;
  virtual bool is_null(int col) const = 0;
  virtual int64_t int64(int col) const = 0;
  virtual double real(int col) const = 0;
  virtual std::string_view text_view(int col) const = 0;
  // The bytes of a BLOB column (empty for NULL).
  virtual std::string_view blob_view(int col) const = 0;

  std::string text(int col) const { return std::string(text_view(col)); }
  bool boolean(int col) const { return int64(col) != 0; }
  std::optional<std::string> opt_text(int col) const {
    return is_null(col) ? std::nullopt : std::optional<std::string>(text(col));
  }
  std::optional<int64_t> opt_int64(int col) const {
    return is_null(col) ? std::nullopt : std::optional<int64_t>(int64(col));
  }
};

using Params = std::initializer_list<DbValue>;
using RowFn = std::function<void(const Row&)>;

class Connection {
 public:
  virtual ~Connection() = default;

  // Runs one statement and calls `on_row` for each result row.
  virtual Result<void> query(std::string_view sql, Params params, const RowFn& on_row) = 0;
  virtual Result<void> query(std::string_view sql, const std::vector<DbValue>& params,
                             const RowFn& on_row) = 0;
  // Runs one statement; returns the number of rows it changed.
  virtual Result<int64_t> execute(std::string_view sql, Params params) = 0;
  // Runs a script of statements without parameters (migrations).
  virtual Result<void> execute_script(std::string_view sql) = 0;

  // Inside a write transaction: holds the row of `table` whose `id` is `id` against other writers
  // until the transaction ends, so that a read-modify-write of it, or a count of the rows it owns
  // followed by an insert, is not raced. False when there is no such row. `table` comes from
  // code, never from input. SQLite only checks the row exists (its single writer already holds
  // the whole database); PostgreSQL: SELECT ... FOR NO KEY UPDATE, the lock an update of the row
  // takes. It queues every other writer of the row (its lock, an update) but not a transaction
  // that inserts a row referring to it (a foreign key's check takes FOR KEY SHARE). FOR UPDATE
  // would conflict with that check: a writer that inserted such a row and then asked for the lock
  // would deadlock with one that held the row by an update and then asked for the lock (a chat
  // turn counts on its agent first, and may upsert a contact under the agent's lock later).
  // Parley never deletes or re-keys a row it locks.
  virtual Result<bool> lock_row(std::string_view table, std::string_view id) = 0;

  // The dialect hook for schema scripts (migrations): the portable schema's DDL in this
  // backend's words. SQLite takes it as written; PostgreSQL makes INTEGER a BIGINT (SQLite's
  // integers hold 64 bits), BLOB a BYTEA and REAL a DOUBLE PRECISION, and runs the lines written
  // for it alone, comments to SQLite: kPostgresqlOnlyLine followed by a whole statement.
  virtual std::string schema_sql(std::string_view portable) const { return std::string(portable); }

  // Convenience: the first column of the first row as an integer, or nothing when no row.
  Result<std::optional<int64_t>> query_int(std::string_view sql, Params params);
};

// A unit of work run inside one write transaction. Returning an error rolls back its changes
// (and only its changes when it was committed together with others). It may be run more than
// once (see the guarantees above).
using WriteFn = std::function<Result<void>(Connection&)>;

class Database {
 public:
  virtual ~Database() = default;
  // This thread's connection for reads; reads outside a transaction see the latest commit. An
  // error when no connection can be opened (the file is gone, the server is unreachable).
  virtual Result<std::reference_wrapper<Connection>> read() = 0;
  // Runs `fn` in a write transaction and returns once it is durable (or failed); see above for
  // the isolation and the retry on conflict.
  virtual Result<void> write(WriteFn fn) = 0;
  // Queues `fn` without waiting (for bookkeeping such as last-used times).
  virtual void write_async(WriteFn fn) = 0;
  // write() without a thread waiting for it: `done` receives what write() would return, once the
  // outcome is known (durable or failed), on the writer's thread: it must not block. The default
  // waits on the calling thread.
  virtual void write_then(WriteFn fn, std::function<void(Result<void>)> done) {
    done(write(std::move(fn)));
  }
  // Returns once no write queued by write_async or write_then waits or runs: those queued before
  // the call have run, their `done` included, and what they held has been let go of. A server
  // that stops calls it before the objects those writes may reach are destroyed. Not from a write's
  // `done` (it would wait for itself).
  virtual void wait_for_queued_writes() {}
  // Runs `fn`, a statement or two, on its own (autocommit) where no cache depends on what it writes
  // and losing it with the database server's crash is acceptable (counters of rate windows):
  // other nodes are not told (data_epoch does not move) and PostgreSQL does not wait for the WAL
  // to reach disk. SQLite: write().
  virtual Result<void> write_volatile(WriteFn fn) { return write(std::move(fn)); }
  // "sqlite" or "postgresql".
  virtual std::string_view backend() const = 0;
  // Whether several nodes may write this database at once (PostgreSQL): then what they must
  // agree on at every request (rate windows) is counted in the database, not in one node's
  // memory. SQLite serves one node.
  virtual bool shared_by_nodes() const { return false; }
  // Called once by `parley serve` before it serves. A SQLite file serves one node: while one
  // `serve` holds it, a second gets an error naming the file (`parley admin` and `migrate` are
  // not affected). PostgreSQL: nothing to hold.
  virtual Result<void> hold_for_serving() { return {}; }
  // Whether this thread can read the database now (readiness probes).
  Result<void> ping();

  // A counter that every process sharing this database bumps after it changes keys, accounts or
  // plans, so that in-memory caches of those (auth) can tell in nanoseconds that they are stale.
  virtual uint64_t auth_epoch() const = 0;
  virtual void bump_auth_epoch() = 0;

  // A counter that moves after every committed write of every process sharing this database
  // (bumped before write() returns), so that a cache of rows tagged with the value read before
  // loading them can tell in nanoseconds whether anything may have changed since.
  virtual uint64_t data_epoch() const = 0;
};

enum class Durability { kFull, kNormal };

struct DatabaseOptions {
  std::string url;  // "sqlite:PATH" or "postgresql://..."
  Durability durability = Durability::kFull;
  // PostgreSQL: connections kept for writes (each thread that reads has its own besides).
  int pool_size = 16;
  // PostgreSQL: when the database is closed after this process changed anything, it waits (about
  // 2 s at most) until every serving node's listener has heard the change, so that what a
  // short-lived process (`parley admin`) changed is in force on every node once it exits; such a
  // process's own listener is not named for others to wait on. SQLite: the shared epoch file
  // makes every change visible at once.
  bool confirm_heard_on_close = false;
};

// Opens the database named by the URL and applies pending migrations.
Result<std::unique_ptr<Database>> open_database(const DatabaseOptions& options);

}  // namespace parley
