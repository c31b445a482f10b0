// The PostgreSQL Database, for several nodes on one database server: a reading connection per
// thread, a pool of connections for writes (each write its own READ COMMITTED transaction, run
// again when it loses a race, store/write_retry.h), a few threads that run write_async and
// write_then work, a notifier that announces this node's commits to the others and a listener
// that hears theirs and moves the epochs (LISTEN/NOTIFY).
//
// The announcement names the entities the commits changed (store/entity_changes.h), so that each
// listener moves only those entities' versions: "a:<agent id> c:<account id> k:<key id>
// n:<agent id>" (an agent's knowledge version), "-" for none, "*" (or a node that names none,
// an older one) for every entity; past kMaxPayload bytes the announcement says "*".
//
// The announcement is not made inside the write transactions: a transaction that notifies holds
// PostgreSQL's database-wide notification lock through its commit, WAL flush included, so every
// writer of every node would commit one after another. The notifier sends one NOTIFY after
// commits instead, at most one every 5 ms, for all the commits since the last: under a write
// storm a node announces 200 times a second, not once per commit (each announcement is a
// transaction of the notifier's and wakes every node's listener), and another node hears of a
// change at most 5 ms later than it would otherwise. A change of keys, accounts or plans (a
// revocation) is announced at once, with whatever else is pending.
//
// A handle opened with DatabaseOptions::confirm_heard_on_close (`parley admin`) waits, when it
// closes after announcing anything, until every node's listener has confirmed it heard (a token
// on parley_sync, answered on parley_synced; at most 2 s): what such a process changed is in force
// on every node once it exits.
//
// While the listener has no connection (the database server restarted, the network dropped it),
// another node's change would go unheard: from the moment the loss is noticed until LISTEN is
// back, each read of an epoch returns a new value, so every cache tagged with one reloads on use
// instead of trusting what it holds. The listener reconnects with a short backoff (25 ms doubling
// to at most 400 ms). New tables are analyzed as they grow (store/postgres/first_statistics.h).
// Thread-safe.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include <set>
#include <string>

#include "store/db.h"
#include "store/entity_versions.h"
#include "store/postgres/first_statistics.h"
#include "store/postgres/pg_connection.h"
#include "store/write_retry.h"

namespace parley {

class PgDatabase final : public Database, public EntitySource {
 public:
  static Result<std::unique_ptr<PgDatabase>> open(const DatabaseOptions& options);
  ~PgDatabase() override;

  Result<std::reference_wrapper<Connection>> read() override;
  Result<void> write(WriteFn fn) override;
  void write_async(WriteFn fn) override;
  void write_then(WriteFn fn, std::function<void(Result<void>)> done) override;
  void wait_for_queued_writes() override;
  Result<void> write_volatile(WriteFn fn) override;
  std::string_view backend() const override { return "postgresql"; }
  bool shared_by_nodes() const override { return true; }
  uint64_t auth_epoch() const override;
  void bump_auth_epoch() override;
  uint64_t data_epoch() const override;
  uint64_t entity_version(Entity kind, std::string_view id) const override;
  void add_commit_observer(CommitObserver observer) override {
    observers_.add(std::move(observer));
  }
  // What the calling thread's last write() cost (its last attempt's transaction): round trips
  // and statements (PgConnection::transaction_cost), for tests and benchmarks.
  static const PgConnection::TransactionCost& last_write_cost();
  // How many handles of this process closed without every listener's confirmation (the
  // 2 s ran out, or the database could not be asked): for tests.
  static uint64_t unconfirmed_closes() { return unconfirmed_closes_.load(); }

 private:
  struct Job {
    WriteFn fn;
    std::function<void(Result<void>)> then;  // null for write_async
  };

  explicit PgDatabase(const DatabaseOptions& options) : options_(options) {}
  Result<void> start();
  Result<std::unique_ptr<PgConnection>> take_writer();
  void give_back(std::unique_ptr<PgConnection> conn);
  // `in_flight`: what the attempt commits, marked before its COMMIT (ended when it fails).
  // `outcome_unknown`: set when the connection was lost while COMMIT was sent (its changes kept).
  WriteAttempt write_once(PgConnection& conn, const WriteFn& fn, CommitInFlight& in_flight,
                          bool& outcome_unknown);
  void worker_loop();
  void listen_loop();
  void notify_loop();
  // Asks the notifier to tell the other nodes that data (and, with `auth`, keys, accounts or
  // plans) changed, and which entities `work` (if any) recorded.
  void announce(bool auth, const UnitOfWork* work);
  // Moves this node's versions for another node's announcement.
  void heard(std::string_view payload);
  // Waits (about kHeardWithin at most) until every serving node's listener has heard this
  // process's announcements (DatabaseOptions::confirm_heard_on_close); called once the notifier
  // has stopped. `unsent`: the notifier could not send its last announcement, which is then sent
  // here, as "everything changed", before the question.
  void confirm_heard(bool unsent);

  const DatabaseOptions options_;
  const uint64_t instance_id_ = next_instance_id_++;
  static inline std::atomic<uint64_t> next_instance_id_{1};

  // Mutable: read while the listener is down, they move (see above).
  mutable std::atomic<uint64_t> auth_epoch_{1};
  mutable std::atomic<uint64_t> data_epoch_{1};
  std::unique_ptr<std::atomic<uint64_t>[]> slots_ {
    new std::atomic<uint64_t>[ EntityVersions::kSlots ]()
  };
  EntityVersions versions_{slots_.get()};
  CommitObservers observers_;
  std::atomic<bool> heard_{false};  // the listener is connected and LISTENs
  std::atomic<uint64_t> generation_{0};  // moves when the listener loses its connection

  // Write connections: idle ones, and how many exist (at most options_.pool_size).
  std::mutex pool_mu_;
  std::condition_variable pool_cv_;
  std::vector<std::unique_ptr<PgConnection>> idle_;
  int opened_ = 0;

  // write_async and write_then work.
  std::mutex jobs_mu_;
  std::condition_variable jobs_cv_;
  std::deque<Job> jobs_;
  bool stopping_ = false;
  int jobs_running_ = 0;             // taken by a worker and not yet destroyed
  std::condition_variable idle_cv_;  // no job queued or running
  std::vector<std::thread> workers_;

  std::atomic<bool> listening_{true};
  int stop_listening_ = -1;  // an eventfd, written when the database closes: wakes the listener
  std::thread listener_;

  std::mutex announce_mu_;
  std::condition_variable announce_cv_;
  bool data_changed_ = false;
  bool auth_changed_ = false;
  std::set<std::string> entities_changed_;  // announcement tokens ("a:agt_…")
  bool everything_changed_ = false;
  bool announcing_ = true;
  // The notifier holds back the commits of the next few milliseconds (kAnnounceEvery): a data
  // change then waits for the hold's end without waking it; only a change of keys does.
  bool notifier_holding_ = false;
  std::atomic<int> notifier_pid_{0};    // the notifier's backend: the listener ignores its own news
  std::atomic<bool> announced_{false};  // announce() was called: there is something to confirm
  static inline std::atomic<uint64_t> unconfirmed_closes_{0};
  std::thread notifier_;

  std::mutex readers_mu_;
  std::vector<std::unique_ptr<PgConnection>> readers_;

  // Stopped first (~PgDatabase): it reads through read().
  std::unique_ptr<FirstStatistics> first_statistics_;
};

}  // namespace parley
