// The database driver every repository is written against. SQL uses PostgreSQL-style numbered
// parameters ($1, $2, ...) and the subset SQLite 3.40 and PostgreSQL 15 share; each backend maps
// what differs inside its own implementation.
//
// Threading: a Connection belongs to one thread at a time. Database is thread-safe: read() hands
// the calling thread its own reading connection, and write() runs a unit of work inside a
// transaction on the single writer (SQLite: group commit of concurrent writers; PostgreSQL: a
// pooled connection).
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

// A parameter value. Booleans are stored as integers 0/1.
using DbValue = std::variant<std::monostate, int64_t, double, std::string, std::string_view>;

inline DbValue db_null() { return std::monostate{}; }
inline DbValue db_opt(const std::optional<std::string>& v) {
  return v ? DbValue(std::string_view(*v)) : DbValue(std::monostate{});
}
inline DbValue db_opt(const std::optional<int64_t>& v) {
  return v ? DbValue(*v) : DbValue(std::monostate{});
}

// One row of a result, valid only inside the row callback.
class Row {
 public:
  virtual ~Row() = default;
  virtual bool is_null(int col) const = 0;
  virtual int64_t int64(int col) const = 0;
  virtual double real(int col) const = 0;
  virtual std::string_view text_view(int col) const = 0;

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

  // Convenience: the first column of the first row as an integer, or nothing when no row.
  Result<std::optional<int64_t>> query_int(std::string_view sql, Params params);
};

// A unit of work run inside one write transaction. Returning an error rolls back its changes
// (and only its changes when it was committed together with others).
using WriteFn = std::function<Result<void>(Connection&)>;

class Database {
 public:
  virtual ~Database() = default;
  // This thread's connection for reads; reads outside a transaction see the latest commit. An
  // error when no connection can be opened (the file is gone, the server is unreachable).
  virtual Result<std::reference_wrapper<Connection>> read() = 0;
  // Runs `fn` in a write transaction and returns once it is durable (or failed).
  virtual Result<void> write(WriteFn fn) = 0;
  // Queues `fn` without waiting (for bookkeeping such as last-used times).
  virtual void write_async(WriteFn fn) = 0;
  // "sqlite" or "postgresql".
  virtual std::string_view backend() const = 0;
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
};

// Opens the database named by the URL and applies pending migrations.
Result<std::unique_ptr<Database>> open_database(const DatabaseOptions& options);

}  // namespace parley
