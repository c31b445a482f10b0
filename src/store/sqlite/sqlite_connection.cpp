#include "store/sqlite/sqlite_connection.h"

#include "core/log.h"

#include <sqlite3.h>

#include <cstdlib>
#include <mutex>

namespace parley {

namespace {
class SqliteRow final : public Row {
 public:
  explicit SqliteRow(sqlite3_stmt* s) : s_(s) {}
  int column_count() const override { return sqlite3_column_count(s_); }
  std::string_view column_name(int col) const override { return sqlite3_column_name(s_, col); }
  ColumnKind kind(int col) const override {
    switch (sqlite3_column_type(s_, col)) {
      case SQLITE_INTEGER:
        return ColumnKind::kInteger;
      case SQLITE_FLOAT:
        return ColumnKind::kReal;
      case SQLITE_BLOB:
        return ColumnKind::kBlob;
      case SQLITE_NULL:
        return ColumnKind::kNull;
      default:
        return ColumnKind::kText;
    }
  }
  bool is_null(int col) const override { return sqlite3_column_type(s_, col) == SQLITE_NULL; }
  int64_t int64(int col) const override { return sqlite3_column_int64(s_, col); }
  double real(int col) const override { return sqlite3_column_double(s_, col); }
  std::string_view text_view(int col) const override {
    auto p = reinterpret_cast<const char*>(sqlite3_column_text(s_, col));
    if (p == nullptr) return {};
    return {p, static_cast<size_t>(sqlite3_column_bytes(s_, col))};
  }
  std::string_view blob_view(int col) const override {
    auto p = static_cast<const char*>(sqlite3_column_blob(s_, col));
    if (p == nullptr) return {};
    return {p, static_cast<size_t>(sqlite3_column_bytes(s_, col))};
  }

 private:
  sqlite3_stmt* s_;
};

// Every unit of work runs in its own savepoint (group_commit.h), and SQLite keeps the pages a
// savepoint changes in a statement journal, held in memory up to this size and then written to a
// temporary file. At SQLite's default (64 KiB, sixteen pages) a chat turn's journal spilled: the
// writer created, wrote, unlinked and closed a file in the temporary folder for every turn. A
// larger unit of work (a knowledge form rewritten, a source deleted) still spills, so memory
// stays bounded. Below 128 KiB: SQLite writes the journal held in memory to its file in one
// write, and its Unix layer fails a write of 128 KiB or more ("database or disk is full", SQLite
// 3.40).
constexpr int kStatementJournalInMemory = 127 * 1024;

void configure_sqlite_once() {
  static std::once_flag once;
  // Only before SQLite's first use in the process; otherwise it keeps its default.
  std::call_once(once, [] {
    if (sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, kStatementJournalInMemory) != SQLITE_OK)
      log_warn("SQLite's statement journal keeps its default size (it was in use already)");
  });
}
}  // namespace

Result<std::unique_ptr<SqliteConnection>> SqliteConnection::open(const std::string& path,
                                                                 Durability durability) {
  configure_sqlite_once();
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(
      path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return ApiError::internal("cannot open database " + path + ": " + msg);
  }
  std::unique_ptr<SqliteConnection> conn(new SqliteConnection(db));
  sqlite3_busy_timeout(db, 10000);
  PARLEY_TRY(conn->execute_script("PRAGMA journal_mode=WAL"));
  PARLEY_TRY(conn->execute_script("PRAGMA foreign_keys=ON"));
  // Deleted rows are overwritten with zeros as they are deleted, so an erased person's bytes do
  // not stay in free pages of the file (docs/decisions/records.md).
  PARLEY_TRY(conn->execute_script("PRAGMA secure_delete=ON"));
  PARLEY_TRY(conn->execute_script(durability == Durability::kFull ? "PRAGMA synchronous=FULL"
                                                                  : "PRAGMA synchronous=NORMAL"));
  return conn;
}

Result<int> SqliteConnection::checkpoint(Checkpoint mode) {
  int frames = 0, copied = 0;
  int rc = sqlite3_wal_checkpoint_v2(
      db_, nullptr,
      mode == Checkpoint::kPassive ? SQLITE_CHECKPOINT_PASSIVE : SQLITE_CHECKPOINT_RESTART, &frames,
      &copied);
  if (rc != SQLITE_OK && rc != SQLITE_BUSY) return error("checkpoint");
  return frames;
}

SqliteConnection::~SqliteConnection() {
  for (auto& [sql, p] : cache_) sqlite3_finalize(p.stmt);
  sqlite3_close(db_);
}

ApiError SqliteConnection::error(std::string_view what) const {
  // The detail (SQL, table and column names) goes to the log only; callers and clients get a
  // message that says what happened without showing the schema.
  int code = sqlite3_extended_errcode(db_);
  log_error(
      "database error",
      {{"what", what}, {"detail", std::string_view(sqlite3_errmsg(db_))}, {"code", int64_t{code}}});
  if ((code & 0xff) == SQLITE_CONSTRAINT) {
    return {ErrorCode::kConflict, "The change conflicts with data that already exists."};
  }
  if ((code & 0xff) == SQLITE_BUSY)
    return {ErrorCode::kUnavailable, "The database is busy; retry."};
  return ApiError::internal("The database failed to complete the request.");
}

Result<SqliteConnection::Prepared*> SqliteConnection::prepare(std::string_view sql) {
  auto it = cache_.find(sql);
  if (it != cache_.end()) return &it->second;
  Prepared p;
  if (sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                         &p.stmt, nullptr) != SQLITE_OK) {
    return error("prepare failed for [" + std::string(sql.substr(0, 200)) + "]");
  }
  int slots = sqlite3_bind_parameter_count(p.stmt);
  for (int i = 1; i <= slots; ++i) {
    const char* name = sqlite3_bind_parameter_name(p.stmt, i);
    int n = (name != nullptr && name[0] == '$') ? std::atoi(name + 1) : 0;
    if (n <= 0) {
      sqlite3_finalize(p.stmt);
      return ApiError::internal("SQL parameters must be written $1..$N");
    }
    p.slot_to_param.push_back(n - 1);
  }
  return &cache_.emplace(std::string(sql), std::move(p)).first->second;
}

Result<void> SqliteConnection::run(std::string_view sql, const DbValue* params, size_t n,
                                   const RowFn* on_row, int64_t* changes) {
  if (require_transaction_ && !in_transaction()) {
    return ApiError{ErrorCode::kUnavailable, "The database could not store the change; retry."};
  }
  PARLEY_ASSIGN_OR_RETURN(Prepared * p, prepare(sql));
  sqlite3_stmt* s = p->stmt;
  struct Reset {
    sqlite3_stmt* s;
    ~Reset() {
      sqlite3_reset(s);
      sqlite3_clear_bindings(s);
    }
  } reset{s};
  for (size_t slot = 0; slot < p->slot_to_param.size(); ++slot) {
    size_t idx = static_cast<size_t>(p->slot_to_param[slot]);
    if (idx >= n) return ApiError::internal("missing SQL parameter $" + std::to_string(idx + 1));
    const DbValue& v = params[idx];
    int col = static_cast<int>(slot + 1);
    int rc = SQLITE_OK;
    if (std::holds_alternative<std::monostate>(v)) {
      rc = sqlite3_bind_null(s, col);
    } else if (auto i = std::get_if<int64_t>(&v)) {
      rc = sqlite3_bind_int64(s, col, *i);
    } else if (auto d = std::get_if<double>(&v)) {
      rc = sqlite3_bind_double(s, col, *d);
    } else if (auto str = std::get_if<std::string>(&v)) {
      rc = sqlite3_bind_text(s, col, str->data(), static_cast<int>(str->size()), SQLITE_STATIC);
    } else if (auto sv = std::get_if<std::string_view>(&v)) {
      rc = sqlite3_bind_text(s, col, sv->data(), static_cast<int>(sv->size()), SQLITE_STATIC);
    } else if (auto blob = std::get_if<DbBlob>(&v)) {
      rc = sqlite3_bind_blob(s, col, blob->bytes.data(), static_cast<int>(blob->bytes.size()),
                             SQLITE_STATIC);
    }
    if (rc != SQLITE_OK) return error("bind failed");
  }
  SqliteRow row(s);
  for (;;) {
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
      if (on_row != nullptr) (*on_row)(row);
      continue;
    }
    if (rc == SQLITE_DONE) break;
    return error("statement failed");
  }
  if (changes != nullptr) *changes = sqlite3_changes64(db_);
  return {};
}

Result<void> SqliteConnection::query(std::string_view sql, Params params, const RowFn& on_row) {
  return run(sql, params.begin(), params.size(), &on_row, nullptr);
}

Result<void> SqliteConnection::query(std::string_view sql, const std::vector<DbValue>& params,
                                     const RowFn& on_row) {
  return run(sql, params.data(), params.size(), &on_row, nullptr);
}

Result<int64_t> SqliteConnection::execute(std::string_view sql, Params params) {
  int64_t changes = 0;
  PARLEY_TRY(run(sql, params.begin(), params.size(), nullptr, &changes));
  return changes;
}

int SqliteConnection::last_error_code() const { return sqlite3_extended_errcode(db_); }

bool SqliteConnection::in_transaction() const { return sqlite3_get_autocommit(db_) == 0; }

Result<bool> SqliteConnection::lock_row(std::string_view table, std::string_view id) {
  // The writer's BEGIN IMMEDIATE already keeps every other writer out until the transaction ends.
  std::string sql = "SELECT 1 FROM " + std::string(table) + " WHERE id = $1";
  bool found = false;
  PARLEY_TRY(query(sql, {id}, [&](const Row&) { found = true; }));
  return found;
}

Result<void> SqliteConnection::execute_script(std::string_view sql) {
  if (require_transaction_ && !in_transaction()) {
    return ApiError{ErrorCode::kUnavailable, "The database could not store the change; retry."};
  }
  std::string text(sql);
  char* err = nullptr;
  if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    return ApiError::internal("SQL script failed: " + msg);
  }
  return {};
}

}  // namespace parley
