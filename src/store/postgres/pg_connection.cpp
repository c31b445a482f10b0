#include "store/postgres/pg_connection.h"

#include <libpq-fe.h>

#include <atomic>
#include <charconv>
#include <cstdlib>
#include <deque>
#include <regex>

#include "core/log.h"

namespace parley {

namespace {
// Type OIDs (pg_type.h), fixed across versions.
constexpr Oid kBoolOid = 16, kByteaOid = 17, kInt8Oid = 20, kInt2Oid = 21, kInt4Oid = 23;
constexpr Oid kFloat4Oid = 700, kFloat8Oid = 701, kNumericOid = 1700;

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// PostgreSQL text cannot hold U+0000, which SQLite and JSON can. Text goes through a reversible
// escape: U+0000 is written as kEscape followed by '0', and kEscape itself (U+F8FF, a private-use
// character) as kEscape followed by '1'. Text holding neither, nearly all of it, is sent and read
// as it is. Equality and ordering between escaped values stay consistent; only text holding the
// two characters is stored differently from how SQLite stores it.
constexpr std::string_view kEscape = "\xEF\xA3\xBF";

bool needs_escape(std::string_view text) {
  return text.find('\0') != std::string_view::npos || text.find(kEscape) != std::string_view::npos;
}

std::string escape_text(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 8);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\0') {
      out.append(kEscape).push_back('0');
    } else if (text.compare(i, kEscape.size(), kEscape) == 0) {
      out.append(kEscape).push_back('1');
      i += kEscape.size() - 1;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

std::string unescape_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, kEscape.size(), kEscape) == 0 && i + kEscape.size() < text.size()) {
      char tag = text[i + kEscape.size()];
      if (tag == '0') out.push_back('\0');
      else out.append(kEscape);
      i += kEscape.size();
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

class PgRow final : public Row {
 public:
  PgRow(const PGresult* r, int row) : r_(r), row_(row) {}
  int column_count() const override { return PQnfields(r_); }
  std::string_view column_name(int col) const override { return PQfname(r_, col); }
  ColumnKind kind(int col) const override {
    if (is_null(col)) return ColumnKind::kNull;
    switch (PQftype(r_, col)) {
      case kBoolOid: case kInt2Oid: case kInt4Oid: case kInt8Oid: return ColumnKind::kInteger;
      case kFloat4Oid: case kFloat8Oid: case kNumericOid: return ColumnKind::kReal;
      case kByteaOid: return ColumnKind::kBlob;
      default: return ColumnKind::kText;
    }
  }
  bool is_null(int col) const override { return PQgetisnull(r_, row_, col) != 0; }
  int64_t int64(int col) const override {
    std::string_view v = text_view(col);
    if (v == "t") return 1;
    if (v == "f") return 0;
    int64_t out = 0;
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    // A numeric with a fraction (an average, a sum of reals) reads as its integer part.
    if (ec == std::errc() && end != v.data() + v.size() && *end == '.') return out;
    if (ec != std::errc()) return static_cast<int64_t>(real(col));
    return out;
  }
  double real(int col) const override {
    std::string text(text_view(col));
    return std::strtod(text.c_str(), nullptr);
  }
  std::string_view text_view(int col) const override {
    std::string_view v = raw(col);
    if (v.find(kEscape) == std::string_view::npos) return v;
    return decoded_.emplace_back(unescape_text(v));
  }
  std::string_view blob_view(int col) const override {
    std::string_view v = raw(col);
    if (PQftype(r_, col) != kByteaOid) return v;
    // bytea in text results is "\x" followed by hex digits.
    blob_.clear();
    if (v.size() < 2 || v[0] != '\\' || v[1] != 'x') return {};
    for (size_t i = 2; i + 1 < v.size(); i += 2) {
      int hi = hex_value(v[i]), lo = hex_value(v[i + 1]);
      if (hi < 0 || lo < 0) return {};
      blob_.push_back(static_cast<char>(hi << 4 | lo));
    }
    return blob_;
  }

 private:
  std::string_view raw(int col) const {
    if (is_null(col)) return {};
    return {PQgetvalue(r_, row_, col), static_cast<size_t>(PQgetlength(r_, row_, col))};
  }

  const PGresult* r_;
  int row_;
  mutable std::string blob_;
  mutable std::deque<std::string> decoded_;  // texts unescaped, each kept while the row is
};

std::atomic<bool> keep_sql{false};

struct ResultGuard {
  PGresult* r;
  ~ResultGuard() { PQclear(r); }
};

// The dialect's words for the portable schema's types: SQLite's INTEGER holds 64 bits, a
// PostgreSQL integer 32.
std::string replace_word(std::string text, const std::string& word, const std::string& with) {
  std::regex re("\\b" + word + "\\b");
  return std::regex_replace(text, re, with);
}
}  // namespace

bool is_conflict_sqlstate(std::string_view sqlstate) {
  // serialization_failure, deadlock_detected, and unique_violation: two nodes inserting the same
  // natural key (a session's conversation, a visitor) at once; run again, the unit of work finds
  // the row the other committed.
  return sqlstate == "40001" || sqlstate == "40P01" || sqlstate == "23505";
}

Result<std::unique_ptr<PgConnection>> PgConnection::open(const std::string& url, Durability durability) {
  PGconn* conn = PQconnectdb(url.c_str());
  if (conn == nullptr) return ApiError{ErrorCode::kUnavailable, "cannot connect to PostgreSQL: out of memory"};
  if (PQstatus(conn) != CONNECTION_OK) {
    // libpq's message names the host and the reason, never the password.
    std::string msg = PQerrorMessage(conn);
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    PQfinish(conn);
    return ApiError{ErrorCode::kUnavailable, "cannot connect to PostgreSQL: " + msg};
  }
  std::unique_ptr<PgConnection> c(new PgConnection(conn));
  PARLEY_TRY(c->execute_script("SET client_min_messages = warning"));
  if (durability == Durability::kNormal) PARLEY_TRY(c->execute_script("SET synchronous_commit = off"));
  return c;
}

PgConnection::~PgConnection() { PQfinish(conn_); }

bool PgConnection::broken() const { return PQstatus(conn_) != CONNECTION_OK; }

int PgConnection::socket() const { return PQsocket(conn_); }

ApiError PgConnection::error(std::string_view what, const char* sqlstate, const char* detail) {
  last_sqlstate_ = sqlstate != nullptr ? sqlstate : "";
  // The detail (SQL, table and column names) goes to the log only; callers and clients get a
  // message that says what happened without showing the schema. A lost race is the caller's to
  // retry and is not logged as an error.
  if (!is_conflict_sqlstate(last_sqlstate_)) {
    log_error("database error", {{"what", what}, {"detail", std::string_view(detail != nullptr ? detail : "")},
                                 {"sqlstate", std::string_view(last_sqlstate_)}});
  }
  if (last_sqlstate_.rfind("23", 0) == 0) {
    return {ErrorCode::kConflict, "The change conflicts with data that already exists."};
  }
  if (is_conflict_sqlstate(last_sqlstate_) || last_sqlstate_.rfind("08", 0) == 0 || broken()) {
    return {ErrorCode::kUnavailable, "The database is busy; retry."};
  }
  return ApiError::internal("The database failed to complete the request.");
}

Result<const std::string*> PgConnection::prepared(std::string_view sql) {
  auto it = prepared_.find(sql);
  if (it == prepared_.end()) {
    std::string name = "p" + std::to_string(prepared_.size() + 1);
    std::string text(sql);
    ++cost_.prepares;
    ResultGuard prep{PQprepare(conn_, name.c_str(), text.c_str(), 0, nullptr)};
    if (PQresultStatus(prep.r) != PGRES_COMMAND_OK) {
      return error("prepare failed for [" + text.substr(0, 200) + "]",
                   PQresultErrorField(prep.r, PG_DIAG_SQLSTATE), PQresultErrorMessage(prep.r));
    }
    it = prepared_.emplace(std::move(text), std::move(name)).first;
  }
  return &it->second;
}

void PgConnection::bind(const DbValue* params, size_t n) {
  // Text parameters must end with a NUL: each is copied into `texts_` first. The buffers are
  // the connection's, reused by every statement; they are not read once the statement is sent.
  texts_.resize(n);
  values_.assign(n, nullptr);
  lengths_.assign(n, 0);
  formats_.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const DbValue& v = params[i];
    std::string& text = texts_[i];
    if (std::holds_alternative<std::monostate>(v)) continue;
    if (auto x = std::get_if<int64_t>(&v)) {
      char buf[24];
      auto [end, ec] = std::to_chars(buf, buf + sizeof buf, *x);
      text.assign(buf, end);
    } else if (auto d = std::get_if<double>(&v)) {
      char buf[32];
      auto [end, ec] = std::to_chars(buf, buf + sizeof buf, *d);
      text.assign(buf, end);
    } else if (auto s = std::get_if<std::string>(&v)) {
      if (needs_escape(*s)) text = escape_text(*s);
      else text.assign(*s);
    } else if (auto sv = std::get_if<std::string_view>(&v)) {
      if (needs_escape(*sv)) text = escape_text(*sv);
      else text.assign(*sv);
    } else if (auto blob = std::get_if<DbBlob>(&v)) {
      values_[i] = blob->bytes.data();
      lengths_[i] = static_cast<int>(blob->bytes.size());
      formats_[i] = 1;
      continue;
    }
    values_[i] = text.c_str();
  }
}

Result<void> PgConnection::run(std::string_view sql, const DbValue* params, size_t n,
                               const RowFn* on_row, int64_t* changes) {
  PARLEY_ASSIGN_OR_RETURN(const std::string* name, prepared(sql));
  bind(params, n);
  PGresult* res = nullptr;
  std::string failed_sql;
  count_statement(sql, false);
  ++cost_.round_trips;
  if (begin_pending_ || !queued_.empty()) {
    res = exec_pipeline(name, static_cast<int>(n), &failed_sql);
  } else {
    res = PQexecPrepared(conn_, name->c_str(), static_cast<int>(n), values_.data(), lengths_.data(),
                         formats_.data(), 0);
  }
  return finish(res, failed_sql.empty() ? sql : std::string_view(failed_sql), on_row, changes);
}

Result<void> PgConnection::send(std::string_view sql, Params params) {
  return send(sql, params, nullptr);
}

Result<void> PgConnection::send(std::string_view sql, Params params, RowFn on_row) {
  return send(sql, std::span(params.begin(), params.size()), std::move(on_row));
}

Result<void> PgConnection::send(std::string_view sql, std::span<const DbValue> params,
                                RowFn on_row) {
  if (!in_transaction_) {
    return run(sql, params.data(), params.size(), on_row ? &on_row : nullptr, nullptr);
  }
  PARLEY_ASSIGN_OR_RETURN(const std::string* name, prepared(sql));
  bind(params.data(), params.size());
  Queued q{*name, std::string(sql), {}, lengths_, formats_, {}, std::move(on_row)};
  q.texts.resize(params.size());
  q.nulls.resize(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    q.nulls[i] = values_[i] == nullptr;
    if (values_[i] == nullptr) continue;
    // A copy: the caller's texts and blobs may be gone when the statement is sent.
    q.texts[i] =
        formats_[i] == 1 ? std::string(values_[i], static_cast<size_t>(lengths_[i])) : texts_[i];
  }
  queued_.push_back(std::move(q));
  ++queued_total_;
  count_statement(sql, true);
  return {};
}

void PgConnection::keep_statement_sql(bool on) { keep_sql.store(on, std::memory_order_relaxed); }

void PgConnection::count_statement(std::string_view sql, bool queued) {
  ++cost_.statements;
  if (keep_sql.load(std::memory_order_relaxed)) {
    cost_.sql.push_back((queued ? "queue " : "wait ") + std::string(sql));
  }
}

PGresult* PgConnection::exec_pipeline(const std::string* name, int n, std::string* failed_sql,
                                      bool commit_when_no_statement) {
  // What is sent, in order: BEGIN (when pending), the queued statements, the last statement.
  std::vector<const std::string*> sent_sql;
  std::vector<const RowFn*> row_fns;  // by query sent: who reads a queued statement's rows
  static const std::string kBegin = "BEGIN", kCommit = "COMMIT";
  bool ok = PQenterPipelineMode(conn_) == 1;
  if (ok && begin_pending_) {
    ok = PQsendQueryParams(conn_, "BEGIN", 0, nullptr, nullptr, nullptr, nullptr, 0) == 1;
    sent_sql.push_back(&kBegin);
    row_fns.push_back(nullptr);
  }
  begin_pending_ = false;
  std::vector<const char*> values;
  for (const Queued& q : queued_) {
    if (!ok) break;
    values.assign(q.texts.size(), nullptr);
    for (size_t i = 0; i < q.texts.size(); ++i) {
      if (!q.nulls[i]) values[i] = q.texts[i].data();
    }
    ok = PQsendQueryPrepared(conn_, q.name.c_str(), static_cast<int>(values.size()), values.data(),
                             q.lengths.data(), q.formats.data(), 0) == 1;
    sent_sql.push_back(&q.sql);
    row_fns.push_back(q.on_row ? &q.on_row : nullptr);
  }
  // Whether a last statement (or COMMIT) is sent, whose result is returned.
  const bool has_last = name != nullptr || commit_when_no_statement;
  if (ok && has_last) {
    ok = name != nullptr
             ? PQsendQueryPrepared(conn_, name->c_str(), n, values_.data(), lengths_.data(),
                                   formats_.data(), 0) == 1
             : PQsendQueryParams(conn_, "COMMIT", 0, nullptr, nullptr, nullptr, nullptr, 0) == 1;
    sent_sql.push_back(&kCommit);
  }
  if (ok) ok = PQpipelineSync(conn_) == 1;
  // Not sent in full (the connection is gone): whatever went out is read back below, and the
  // statement fails with the connection's error. Each query's results end with a null; the
  // sync's result ends the pipeline. A statement after a failed one comes back
  // PGRES_PIPELINE_ABORTED.
  PGresult* first_failure = nullptr;
  PGresult* last = nullptr;
  size_t query = 0;
  const size_t queries = sent_sql.size();
  for (size_t reads = 0; reads < 4 * queries + 8; ++reads) {
    PGresult* r = PQgetResult(conn_);
    if (r == nullptr) {
      if (broken() || !ok) break;
      ++query;
      continue;
    }
    ExecStatusType status = PQresultStatus(r);
    if (status == PGRES_PIPELINE_SYNC) {
      PQclear(r);
      break;
    }
    const bool failed =
        status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK && status != PGRES_PIPELINE_ABORTED;
    const bool is_last = has_last && query + 1 == queries;
    if (failed && first_failure == nullptr && !is_last) {
      first_failure = r;
      if (failed_sql != nullptr) *failed_sql = *sent_sql[query];
    } else if (is_last && last == nullptr) {
      last = r;
    } else if (status == PGRES_TUPLES_OK && query < row_fns.size() && row_fns[query] != nullptr &&
               first_failure == nullptr) {
      for (int i = 0; i < PQntuples(r); ++i) (*row_fns[query])(PgRow(r, i));
      PQclear(r);
    } else {
      PQclear(r);
    }
  }
  PQexitPipelineMode(conn_);
  queued_.clear();
  answered_total_ = queued_total_;
  if (first_failure != nullptr) {
    PQclear(last);
    return first_failure;
  }
  // Nothing sent last, and not all sent: a failure, not the silence of success.
  if (!has_last && !ok) return PQmakeEmptyPGresult(conn_, PGRES_FATAL_ERROR);
  return last;
}

Result<void> PgConnection::finish(PGresult* result, std::string_view sql, const RowFn* on_row, int64_t* changes) {
  ResultGuard res{result};
  if (result == nullptr) {
    return error("statement not run [" + std::string(sql.substr(0, 200)) + "]", nullptr, PQerrorMessage(conn_));
  }
  ExecStatusType status = PQresultStatus(res.r);
  if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
    return error("statement failed [" + std::string(sql.substr(0, 200)) + "]",
                 PQresultErrorField(res.r, PG_DIAG_SQLSTATE), PQresultErrorMessage(res.r));
  }
  last_sqlstate_.clear();
  if (on_row != nullptr) {
    int rows = PQntuples(res.r);
    for (int i = 0; i < rows; ++i) (*on_row)(PgRow(res.r, i));
  }
  if (changes != nullptr) {
    const char* tuples = PQcmdTuples(res.r);
    *changes = (tuples != nullptr && *tuples != '\0') ? std::strtoll(tuples, nullptr, 10) : 0;
  }
  return {};
}

Result<void> PgConnection::query(std::string_view sql, Params params, const RowFn& on_row) {
  return run(sql, params.begin(), params.size(), &on_row, nullptr);
}

Result<void> PgConnection::query(std::string_view sql, const std::vector<DbValue>& params, const RowFn& on_row) {
  return run(sql, params.data(), params.size(), &on_row, nullptr);
}

Result<int64_t> PgConnection::execute(std::string_view sql, Params params) {
  int64_t changes = 0;
  PARLEY_TRY(run(sql, params.begin(), params.size(), nullptr, &changes));
  return changes;
}

void PgConnection::begin() {
  cost_ = {};
  begin_pending_ = true;
  in_transaction_ = true;
  queued_.clear();
  answered_total_ = queued_total_;
}

Result<void> PgConnection::send_queued() {
  if (queued_.empty()) return {};  // a pending BEGIN alone has nothing to answer
  ++cost_.round_trips;
  std::string failed_sql;
  PGresult* res = exec_pipeline(nullptr, 0, &failed_sql, /*commit_when_no_statement=*/false);
  if (res != nullptr) {
    return finish(res, failed_sql.empty() ? std::string_view("queued statements") : failed_sql,
                  nullptr, nullptr);
  }
  if (broken()) return error("queued statements not answered", nullptr, PQerrorMessage(conn_));
  last_sqlstate_.clear();
  return {};
}

Result<void> PgConnection::commit() {
  in_transaction_ = false;
  if (begin_pending_ && queued_.empty()) {
    begin_pending_ = false;
    return {};
  }
  if (queued_.empty()) return execute_script("COMMIT");
  // The queued statements and COMMIT in one round trip.
  ++cost_.round_trips;
  std::string failed_sql;
  PGresult* res = exec_pipeline(nullptr, 0, &failed_sql);
  return finish(res, failed_sql.empty() ? std::string_view("COMMIT") : std::string_view(failed_sql),
                nullptr, nullptr);
}

void PgConnection::rollback() {
  in_transaction_ = false;
  queued_.clear();  // never sent
  answered_total_ = queued_total_;
  if (begin_pending_) {
    begin_pending_ = false;
    return;
  }
  (void)execute_script("ROLLBACK");
}

Result<void> PgConnection::execute_script(std::string_view sql) {
  if (!queued_.empty()) {
    // What was queued runs first (a script cannot join a pipeline).
    std::string failed_sql;
    PARLEY_ASSIGN_OR_RETURN(const std::string* name, prepared("SELECT 1"));
    ++cost_.round_trips;
    bind(nullptr, 0);
    PARLEY_TRY(
        finish(exec_pipeline(name, 0, &failed_sql),
               failed_sql.empty() ? std::string_view("SELECT 1") : std::string_view(failed_sql),
               nullptr, nullptr));
  }
  // A script is simple-query text: a pending BEGIN goes in front of it, in the same round trip.
  std::string text = begin_pending_ ? "BEGIN; " : "";
  begin_pending_ = false;
  text.append(sql);
  ++cost_.round_trips;
  if (in_transaction_ && sql != "COMMIT") count_statement(sql, false);
  ResultGuard res{PQexec(conn_, text.c_str())};
  ExecStatusType status = PQresultStatus(res.r);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK && status != PGRES_EMPTY_QUERY) {
    return error("script failed [" + text.substr(0, 200) + "]", PQresultErrorField(res.r, PG_DIAG_SQLSTATE),
                 PQresultErrorMessage(res.r));
  }
  last_sqlstate_.clear();
  return {};
}

std::string PgConnection::lock_row_sql(std::string_view table) {
  return "SELECT 1 FROM " + std::string(table) + " WHERE id = $1 FOR NO KEY UPDATE";
}

Result<bool> PgConnection::lock_row(std::string_view table, std::string_view id) {
  bool found = false;
  PARLEY_TRY(query(lock_row_sql(table), {id}, [&](const Row&) { found = true; }));
  return found;
}

std::string PgConnection::schema_sql(std::string_view portable) const {
  // Lines for PostgreSQL alone are comments to SQLite: the marker, then the statement.
  std::string text;
  text.reserve(portable.size());
  size_t at = 0;
  while (at < portable.size()) {
    size_t end = portable.find('\n', at);
    end = end == std::string_view::npos ? portable.size() : end + 1;
    std::string_view line = portable.substr(at, end - at);
    text.append(line.starts_with(kPostgresqlOnlyLine) ? line.substr(kPostgresqlOnlyLine.size())
                                                      : line);
    at = end;
  }
  std::string out = replace_word(std::move(text), "INTEGER", "BIGINT");
  out = replace_word(std::move(out), "BLOB", "BYTEA");
  return replace_word(std::move(out), "REAL", "DOUBLE PRECISION");
}

int PgConnection::backend_pid() const { return PQbackendPID(conn_); }

Result<void> PgConnection::take_notifications(const NotifyFn& on_notify) {
  if (PQconsumeInput(conn_) == 0) {
    return ApiError{ErrorCode::kUnavailable, "lost the PostgreSQL connection: " + std::string(PQerrorMessage(conn_))};
  }
  while (PGnotify* n = PQnotifies(conn_)) {
    on_notify(n->relname, n->be_pid, n->extra != nullptr ? n->extra : "");
    PQfreemem(n);
  }
  return {};
}

}  // namespace parley
