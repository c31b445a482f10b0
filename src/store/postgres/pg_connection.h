// A PostgreSQL connection (libpq) with a cache of prepared statements. The repositories' SQL
// ($1..$N parameters, the dialect db.h describes) runs as written: parameters are sent as text
// (a BLOB in binary) and PostgreSQL infers their types from where they are used; results come
// back as text and are read the way SQLite's are (a boolean 't'/'f' reads as 1/0, a numeric
// sum as its integer, a bytea as its bytes).
// Not thread-safe: one thread uses a connection at a time.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/string_map.h"
#include "store/db.h"
#include "store/entity_changes.h"

struct pg_conn;
struct pg_result;

namespace parley {

class PgConnection final : public Connection {
 public:
  // Connects to `url` (a libpq connection URI). With `durability` kNormal, commits do not wait
  // for the WAL to reach disk (synchronous_commit=off): a crash of the database server may lose
  // the last acknowledged writes, never corrupt them.
  static Result<std::unique_ptr<PgConnection>> open(const std::string& url, Durability durability);
  ~PgConnection() override;

  Result<void> query(std::string_view sql, Params params, const RowFn& on_row) override;
  Result<void> query(std::string_view sql, const std::vector<DbValue>& params,
                     const RowFn& on_row) override;
  Result<int64_t> execute(std::string_view sql, Params params) override;
  Result<void> execute_script(std::string_view sql) override;
  Result<bool> lock_row(std::string_view table, std::string_view id) override;
  // lock_row's statement on `table` (from code), its one parameter the row's id.
  static std::string lock_row_sql(std::string_view table);
  std::string schema_sql(std::string_view portable) const override;

  // A transaction. BEGIN is not sent on its own: it goes with the transaction's first statement
  // in one round trip (libpq's pipeline mode), and a transaction that ran no statement sends
  // nothing at all.
  void begin();
  Result<void> commit();
  void rollback();
  // Inside a transaction: sends what send() queued (with a pending BEGIN) in one round trip and
  // reads every answer, without a statement of its own; answered_count() then reaches
  // queued_count(). A queued statement's failure is returned. Nothing queued: nothing sent.
  Result<void> send_queued();
  bool in_transaction() const { return in_transaction_; }

  // Inside a transaction: queues a statement whose result nobody waits for (an insert, an
  // upsert); it is sent with the next statement that is waited for, or with COMMIT, in the same
  // round trip (pipeline mode), and runs in the order it was queued. Its failure is that
  // statement's (or COMMIT's) failure, so the unit of work fails as if it had failed at once.
  // Outside a transaction it runs at once.
  Result<void> send(std::string_view sql, Params params);
  // send() for a statement whose rows are wanted, but not at once: `on_row` runs for each of its
  // rows when its answer comes back (with the next statement that is waited for, or COMMIT). It
  // must not run statements. Outside a transaction it runs at once.
  Result<void> send(std::string_view sql, Params params, RowFn on_row);
  // send() with parameters counted at run time (a statement of several rows).
  Result<void> send(std::string_view sql, std::span<const DbValue> params, RowFn on_row);

  // How many statements send() has queued since the connection opened, and how many of those
  // have been answered (or dropped with their transaction): a statement queued as the n-th is
  // answered once answered_count() >= n.
  uint64_t queued_count() const { return queued_total_; }
  uint64_t answered_count() const { return answered_total_; }

  // The SQLSTATE of the last statement that failed ("" after a success or before any failure).
  const std::string& last_sqlstate() const { return last_sqlstate_; }
  void clear_sqlstate() { last_sqlstate_.clear(); }
  // True when the server is gone; the connection must be replaced.
  bool broken() const;
  // The socket, for waiting on notifications (LISTEN).
  int socket() const;
  // The process id of this connection's server backend (the sender a notification names).
  int backend_pid() const;
  // Reads what the server sent and calls `on_notify(channel, sender, payload)` for each
  // notification received; `sender` is the backend_pid() of the connection that sent it.
  using NotifyFn =
      std::function<void(std::string_view channel, int sender, std::string_view payload)>;
  Result<void> take_notifications(const NotifyFn& on_notify);
  // The unit of work running on this connection (store/entity_changes.h).
  UnitOfWork& work() { return work_; }

  // What the current transaction (or, after it ended, the last one) cost: round trips to the
  // server (COMMIT's included), statements prepared (on their first use on this connection, one
  // round trip each, counted apart) and the statements it ran, BEGIN and COMMIT left out. After
  // keep_statement_sql(true) (for every connection of the process), each statement's text is
  // kept too: a test's view of a transaction; off, nothing is copied.
  struct TransactionCost {
    int round_trips = 0;
    int prepares = 0;
    int statements = 0;
    // Each statement as "wait <sql>" (its answer was waited for) or "queue <sql>" (send()).
    std::vector<std::string> sql;
  };
  const TransactionCost& transaction_cost() const { return cost_; }
  static void keep_statement_sql(bool on);

 private:
  explicit PgConnection(pg_conn* conn) : conn_(conn) {}
  Result<void> run(std::string_view sql, const DbValue* params, size_t n, const RowFn* on_row,
                   int64_t* changes);
  // The prepared statement's name for `sql` (prepared on first use).
  Result<const std::string*> prepared(std::string_view sql);
  // Fills texts_, values_, lengths_, formats_ from the parameters.
  void bind(const DbValue* params, size_t n);
  // Sends, in one round trip: BEGIN when pending, the queued statements, then the prepared
  // statement `name` (its parameters in values_ …), or COMMIT when `name` is null (nothing more
  // when `commit_when_no_statement` is false). Returns the last one's result, or the first failure
  // before it (`failed_sql` then names its statement); with nothing sent last, the first failure
  // or null.
  pg_result* exec_pipeline(const std::string* name, int n, std::string* failed_sql,
                           bool commit_when_no_statement = true);
  Result<void> finish(pg_result* res, std::string_view sql, const RowFn* on_row, int64_t* changes);
  ApiError error(std::string_view what, const char* sqlstate, const char* detail);

  pg_conn* conn_;
  StringMap<std::string> prepared_;  // SQL -> statement name
  std::string last_sqlstate_;
  bool begin_pending_ = false;  // begin() called, BEGIN not sent yet
  bool in_transaction_ = false;  // begin() called, not committed or rolled back yet
  // Statements send() queued: each with its parameters as sent.
  struct Queued {
    std::string name;
    std::string sql;
    std::vector<std::string> texts;
    std::vector<int> lengths;
    std::vector<int> formats;
    std::vector<bool> nulls;
    RowFn on_row;  // null: its rows are not read
  };
  std::vector<Queued> queued_;
  uint64_t queued_total_ = 0;    // statements ever queued
  uint64_t answered_total_ = 0;  // of those, answered or dropped
  // A statement's parameters as sent (run() fills them; reused so that a statement allocates only
  // for texts longer than the last ones).
  std::vector<std::string> texts_;
  std::vector<const char*> values_;
  std::vector<int> lengths_;
  std::vector<int> formats_;
  UnitOfWork work_;
  TransactionCost cost_;
  // Counts one statement in cost_ (`queued`: sent later with another).
  void count_statement(std::string_view sql, bool queued);
};

// SQLSTATE classes write() treats as a lost race: the transaction is run again.
bool is_conflict_sqlstate(std::string_view sqlstate);

}  // namespace parley
