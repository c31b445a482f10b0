// A SQLite connection with a cache of prepared statements. Parameters are written $1..$N in SQL;
// each statement's SQLite parameter slots are mapped to those numbers once, when prepared.
// Not thread-safe: one thread uses a connection at a time.
#pragma once

#include "core/string_map.h"

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "store/db.h"
#include "store/entity_changes.h"

struct sqlite3;
struct sqlite3_stmt;

namespace parley {

class SqliteConnection final : public Connection {
 public:
  static Result<std::unique_ptr<SqliteConnection>> open(const std::string& path, Durability durability);
  ~SqliteConnection() override;

  Result<void> query(std::string_view sql, Params params, const RowFn& on_row) override;
  Result<void> query(std::string_view sql, const std::vector<DbValue>& params,
                     const RowFn& on_row) override;
  Result<int64_t> execute(std::string_view sql, Params params) override;
  Result<void> execute_script(std::string_view sql) override;
  Result<bool> lock_row(std::string_view table, std::string_view id) override;

  // The extended result code of the last statement that failed on this connection.
  int last_error_code() const;
  // Copies committed WAL frames back into the database file. PASSIVE never waits; RESTART waits
  // (through the busy handler) for readers of old frames and holds new writers off meanwhile, so
  // that the next write starts the WAL from its beginning. Returns the WAL's frames before the call.
  enum class Checkpoint { kPassive, kRestart };
  Result<int> checkpoint(Checkpoint mode);
  // True while a transaction is open (SQLite may end one by itself after some errors).
  bool in_transaction() const;
  // While on, statements are refused when no transaction is open, so that work meant for one
  // transaction never commits piecemeal after SQLite rolled that transaction back.
  void require_transaction(bool on) { require_transaction_ = on; }

  // The unit of work running on this connection (store/entity_changes.h).
  UnitOfWork& work() { return work_; }

 private:
  struct Prepared {
    sqlite3_stmt* stmt = nullptr;
    std::vector<int> slot_to_param;  // SQLite slot i+1 takes params[slot_to_param[i]]
  };

  explicit SqliteConnection(sqlite3* db) : db_(db) {}
  Result<Prepared*> prepare(std::string_view sql);
  Result<void> run(std::string_view sql, const DbValue* params, size_t n, const RowFn* on_row,
                   int64_t* changes);
  ApiError error(std::string_view what) const;

  sqlite3* db_;
  bool require_transaction_ = false;
  StringMap<Prepared> cache_;
  UnitOfWork work_;
};

}  // namespace parley
