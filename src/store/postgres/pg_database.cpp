#include "store/postgres/pg_database.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <optional>
#include <random>
#include <unordered_map>

#include "core/crypto.h"
#include "core/log.h"
#include "core/thread_priority.h"
#include "store/migrations.h"
#include "store/write_retry.h"

namespace parley {

namespace {
// Every node's committed writes are announced on these channels; each node's listener moves its
// epochs when it hears them (db.h: auth_epoch, data_epoch).
constexpr std::string_view kDataChannel = "parley_data";
constexpr std::string_view kAuthChannel = "parley_auth";
// A process that exits after its changes (`parley admin`) asks every listener to confirm it heard
// them: it sends a token on kSyncChannel after its last announcement, and each listener, which
// hears notifications in commit order, sends the token back on kSyncedChannel. Listeners are
// found by their connections' application_name.
constexpr std::string_view kSyncChannel = "parley_sync";
constexpr std::string_view kSyncedChannel = "parley_synced";
constexpr std::string_view kListenerName = "parley listener";
constexpr size_t kMaxSyncToken = 64;
constexpr std::chrono::milliseconds kHeardWithin{2000};
// Held while migrating, so that nodes started together migrate one after another.
constexpr std::string_view kMigrationLock = "SELECT pg_advisory_lock(726172)";
constexpr std::string_view kMigrationUnlock = "SELECT pg_advisory_unlock(726172)";
constexpr int kWorkers = 4;
// PostgreSQL refuses payloads of 8000 bytes or more.
constexpr size_t kMaxPayload = 7000;
// The least time between two announcements of a node (pg_database.h).
constexpr std::chrono::milliseconds kAnnounceEvery{5};

// Sends `payload` on `channel` (and, with `auth_too`, an empty one on kAuthChannel in the same
// statement: delivered together, in one round trip), as a transaction of its own.
Result<void> notify(PgConnection& c, std::string_view channel, std::string_view payload,
                    bool auth_too = false) {
  if (auth_too) {
    return c.query("SELECT pg_notify($1, $2), pg_notify($3, '')", {channel, payload, kAuthChannel},
                   [](const Row&) {});
  }
  return c.query("SELECT pg_notify($1, $2)", {channel, payload}, [](const Row&) {});
}

char kind_letter(Entity kind) {
  switch (kind) {
    case Entity::kAgent:
      return 'a';
    case Entity::kAccount:
      return 'c';
    case Entity::kKey:
      return 'k';
    case Entity::kKnowledge:
      return 'n';
  }
  return '?';
}

std::optional<Entity> letter_kind(char letter) {
  switch (letter) {
    case 'a':
      return Entity::kAgent;
    case 'c':
      return Entity::kAccount;
    case 'k':
      return Entity::kKey;
    case 'n':
      return Entity::kKnowledge;
    default:
      return std::nullopt;
  }
}
}  // namespace

Result<std::unique_ptr<PgDatabase>> PgDatabase::open(const DatabaseOptions& options) {
  std::unique_ptr<PgDatabase> db(new PgDatabase(options));
  PARLEY_TRY(db->start());
  return db;
}

Result<void> PgDatabase::start() {
  if (options_.pool_size < 1) return ApiError::invalid("the database pool needs at least 1 connection");
  PARLEY_ASSIGN_OR_RETURN(auto conn, PgConnection::open(options_.url, options_.durability));
  PARLEY_TRY(conn->execute_script(kMigrationLock));
  auto migrated = apply_migrations(*conn);
  (void)conn->execute_script(kMigrationUnlock);
  PARLEY_TRY(migrated);
  idle_.push_back(std::move(conn));
  opened_ = 1;
  for (int i = 0; i < kWorkers; ++i) workers_.emplace_back([this] { worker_loop(); });
  stop_listening_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  listener_ = std::thread([this] { listen_loop(); });
  notifier_ = std::thread([this] { notify_loop(); });
  first_statistics_ = std::make_unique<FirstStatistics>(*this);
  return {};
}

PgDatabase::~PgDatabase() {
  first_statistics_.reset();
  {
    std::lock_guard lock(jobs_mu_);
    stopping_ = true;
  }
  jobs_cv_.notify_all();
  for (auto& t : workers_) t.join();
  {
    std::lock_guard lock(announce_mu_);
    announcing_ = false;  // what is pending is still sent
  }
  announce_cv_.notify_all();
  if (notifier_.joinable()) notifier_.join();
  if (options_.confirm_heard_on_close && announced_.load()) {
    bool unsent = false;
    {
      std::lock_guard lock(announce_mu_);
      unsent = data_changed_;  // the notifier gave up on its last announcement
    }
    confirm_heard(unsent);
  }
  listening_ = false;
  if (stop_listening_ >= 0) (void)!::eventfd_write(stop_listening_, 1);
  if (listener_.joinable()) listener_.join();
  if (stop_listening_ >= 0) ::close(stop_listening_);
}

void PgDatabase::announce(bool auth, const UnitOfWork* work) {
  announced_.store(true);
  bool wake = false;
  {
    std::lock_guard lock(announce_mu_);
    // The notifier acts on the first change after it went idle, and on a change of keys at any
    // time. Any other wake-up would find nothing to do: under a write storm that was one futile
    // wake-up of its thread, and a futex call of the committing thread, per commit.
    wake = (!data_changed_ && !notifier_holding_) || (auth && !auth_changed_);
    data_changed_ = true;
    auth_changed_ = auth_changed_ || auth;
    if (work != nullptr) {
      everything_changed_ = everything_changed_ || work->everything();
      for (const auto& change : work->changes()) {
        if (everything_changed_) break;
        entities_changed_.insert(std::string(1, kind_letter(change.kind)) + ":" + change.id);
      }
    }
  }
  if (wake) announce_cv_.notify_one();
}

void PgDatabase::confirm_heard(bool unsent) {
  const auto deadline = std::chrono::steady_clock::now() + kHeardWithin;
  auto opened = PgConnection::open(options_.url, options_.durability);
  if (!opened.ok()) {
    unconfirmed_closes_.fetch_add(1);
    log_warn("cannot confirm that the nodes heard this process's changes",
             {{"error", opened.error().message}});
    return;
  }
  PgConnection& conn = **opened;
  std::array<uint8_t, 16> bytes{};
  std::random_device entropy;
  for (auto& b : bytes) b = static_cast<uint8_t>(entropy());
  const std::string token = to_hex(bytes.data(), bytes.size());
  // The serving nodes' listeners, as they are now: one that is gone meanwhile (its node stopped,
  // or it reconnected under another process id) is no longer waited for.
  auto listeners = [&](std::set<int64_t>& out) {
    return conn.query(
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = "
        "current_database()",
        {kListenerName}, [&](const Row& row) { out.insert(row.int64(0)); });
  };
  std::set<int64_t> waiting;
  // No statement of this connection waits past the deadline. Listening first: a listener's
  // answer cannot come before this connection hears it.
  Result<void> asked =
      conn.execute_script("SET statement_timeout = " + std::to_string(kHeardWithin.count()) +
                          "; LISTEN " + std::string(kSyncedChannel));
  if (asked.ok() && unsent) {
    // Sent before the question, so every listener hears it first (notifications arrive in the
    // order of their commits).
    asked = notify(conn, kDataChannel, "*", /*auth_too=*/true);
  }
  if (asked.ok()) asked = listeners(waiting);
  if (asked.ok() && !waiting.empty()) {
    asked = notify(conn, kSyncChannel, token);
  }
  while (asked.ok() && !waiting.empty()) {
    // First what libpq holds already: an answer may have come in with a statement's result, and
    // the socket would then stay silent.
    asked = conn.take_notifications(
        [&](std::string_view channel, int sender, std::string_view payload) {
          if (channel == kSyncedChannel && payload == token) waiting.erase(sender);
        });
    if (!asked.ok() || waiting.empty()) break;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{conn.socket(), POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 100))) > 0) continue;
    std::set<int64_t> present;
    asked = listeners(present);
    std::erase_if(waiting, [&](int64_t pid) { return !present.contains(pid); });
  }
  if (!asked.ok() || !waiting.empty()) {
    unconfirmed_closes_.fetch_add(1);
    log_warn(
        "not every node confirmed that it heard this process's changes; they see them once "
        "their listener does",
        {{"unconfirmed", std::to_string(waiting.size())}});
  }
}

void PgDatabase::heard(std::string_view payload) {
  if (payload == "-") return;
  if (payload.empty() || payload == "*") {
    versions_.bump_all();
    return;
  }
  while (!payload.empty()) {
    size_t end = payload.find(' ');
    std::string_view token = payload.substr(0, end);
    payload = end == std::string_view::npos ? std::string_view() : payload.substr(end + 1);
    auto kind = token.size() > 2 && token[1] == ':' ? letter_kind(token[0]) : std::nullopt;
    if (!kind) {
      versions_.bump_all();  // a token this node does not know: trust nothing
      return;
    }
    versions_.bump(*kind, token.substr(2));
  }
}

void PgDatabase::notify_loop() {
  using namespace std::chrono_literals;
  std::unique_ptr<PgConnection> conn;
  std::unique_lock lock(announce_mu_);
  while (true) {
    announce_cv_.wait(lock, [&] { return data_changed_ || !announcing_; });
    if (!data_changed_) return;
    bool auth = auth_changed_;
    std::set<std::string> entities;
    entities.swap(entities_changed_);
    bool everything = everything_changed_;
    data_changed_ = auth_changed_ = everything_changed_ = false;
    lock.unlock();
    std::string payload;
    for (const auto& token : entities) {
      if (everything || payload.size() + token.size() + 1 > kMaxPayload) {
        everything = true;
        break;
      }
      if (!payload.empty()) payload += ' ';
      payload += token;
    }
    if (everything)
      payload = "*";
    else if (payload.empty())
      payload = "-";
    Result<void> sent = ApiError{ErrorCode::kUnavailable, "not connected"};
    if (conn == nullptr || conn->broken()) {
      auto opened = PgConnection::open(options_.url, options_.durability);
      if (opened.ok()) {
        conn = std::move(*opened);
        notifier_pid_ = conn->backend_pid();
      } else {
        conn.reset();
      }
    }
    if (conn != nullptr) {
      sent = notify(*conn, kDataChannel, payload, auth);
    }
    lock.lock();
    if (!sent.ok()) {
      // Sent again with whatever changes next; meanwhile other nodes wait, as after a lost
      // listener connection.
      data_changed_ = true;
      auth_changed_ = auth_changed_ || auth;
      everything_changed_ = everything_changed_ || everything;
      entities_changed_.merge(entities);
      if (!announcing_) return;
      lock.unlock();
      std::this_thread::sleep_for(200ms);
      lock.lock();
      continue;
    }
    // The commits of the next few milliseconds go out together: each NOTIFY is a transaction of
    // its own here and a wake-up of every node's listener, one per commit under a write storm.
    // A change of keys, accounts or plans (a revocation) is never held back.
    notifier_holding_ = true;
    announce_cv_.wait_for(lock, kAnnounceEvery, [&] { return !announcing_ || auth_changed_; });
    notifier_holding_ = false;
  }
}

Result<std::reference_wrapper<Connection>> PgDatabase::read() {
  // As SqliteDatabase::read: connections are owned here, the thread-local map only points at
  // them, keyed by a never-reused instance id.
  // A connection opened before the listener last lost its own is likely cut too (the server
  // restarted): it is replaced before use rather than failing the request it would serve.
  // The connection a replacement retired stays open until this thread's next replacement: a
  // caller on this thread may still hold it (a Connection& from an earlier read()), and its
  // statements then fail rather than reach a freed connection.
  struct Mine {
    PgConnection* conn;
    uint64_t generation;
    PgConnection* retired = nullptr;
  };
  thread_local std::unordered_map<uint64_t, Mine> mine;
  const uint64_t generation = generation_.load(std::memory_order_acquire);
  auto it = mine.find(instance_id_);
  if (it != mine.end() && it->second.generation == generation && !it->second.conn->broken()) {
    return std::ref<Connection>(*it->second.conn);
  }
  PARLEY_ASSIGN_OR_RETURN(auto conn, PgConnection::open(options_.url, options_.durability));
  // Reads commit nothing; write_volatile's statements are the only commits made here.
  PARLEY_TRY(conn->execute_script("SET synchronous_commit = off"));
  PgConnection* raw = conn.get();
  PgConnection* retired = nullptr;
  {
    std::lock_guard lock(readers_mu_);
    if (it != mine.end()) {
      PgConnection* gone = it->second.retired;
      std::erase_if(readers_, [&](const auto& c) { return c.get() == gone; });
      retired = it->second.conn;
    }
    readers_.push_back(std::move(conn));
  }
  mine[instance_id_] = Mine{raw, generation, retired};
  return std::ref<Connection>(*raw);
}

Result<std::unique_ptr<PgConnection>> PgDatabase::take_writer() {
  {
    std::unique_lock lock(pool_mu_);
    pool_cv_.wait(lock, [&] { return !idle_.empty() || opened_ < options_.pool_size; });
    if (!idle_.empty()) {
      auto conn = std::move(idle_.back());
      idle_.pop_back();
      return conn;
    }
    ++opened_;
  }
  auto conn = PgConnection::open(options_.url, options_.durability);
  if (!conn.ok()) {
    std::lock_guard lock(pool_mu_);
    --opened_;
    pool_cv_.notify_one();
  }
  return conn;
}

void PgDatabase::give_back(std::unique_ptr<PgConnection> conn) {
  std::lock_guard lock(pool_mu_);
  if (conn->broken()) --opened_;  // replaced by a new one when next needed
  else idle_.push_back(std::move(conn));
  pool_cv_.notify_one();
}

WriteAttempt PgDatabase::write_once(PgConnection& conn, const WriteFn& fn,
                                    CommitInFlight& in_flight, bool& outcome_unknown) {
  conn.clear_sqlstate();
  conn.work().clear_changes();
  conn.begin();
  conn.work().begin();
  Result<void> r = fn(conn);
  if (r.ok()) r = conn.work().finish(conn);  // the work it deferred to its end
  // In flight from before COMMIT until write() has published it (or it failed).
  if (r.ok()) in_flight = CommitInFlight(versions_, conn.work());
  // Still recording while COMMIT's round trip brings back the answers sent with it.
  bool at_commit = false;
  if (r.ok()) {
    r = conn.commit();
    at_commit = !r.ok();
  }
  conn.work().abandon();
  if (r.ok()) return {r, false};
  if (at_commit && conn.broken()) {
    // The connection went while COMMIT was on its way: the transaction may have committed. What
    // it changed is kept for write() to publish as if it had (a version moved for nothing costs a
    // cache one read), and the caller is told of the failure.
    outcome_unknown = true;
    return {r, false};
  }
  in_flight = {};
  conn.work().clear_changes();
  std::string sqlstate = conn.last_sqlstate();
  conn.rollback();
  return {r, is_conflict_sqlstate(sqlstate)};
}

namespace {
thread_local PgConnection::TransactionCost last_cost;
}  // namespace

const PgConnection::TransactionCost& PgDatabase::last_write_cost() { return last_cost; }

Result<void> PgDatabase::write(WriteFn fn) {
  PARLEY_ASSIGN_OR_RETURN(auto conn, take_writer());
  CommitInFlight in_flight;
  bool outcome_unknown = false;
  Result<void> r =
      run_write_attempts([&] { return write_once(*conn, fn, in_flight, outcome_unknown); });
  last_cost = conn->transaction_cost();
  // Before the caller hears of its commit, as db.h promises; other nodes move theirs when the
  // announcement reaches them.
  bool auth = false;
  if (r.ok() || outcome_unknown) {
    auth = observers_.publish(conn->work(), versions_);
    if (auth) auth_epoch_.fetch_add(1, std::memory_order_acq_rel);
    announce(auth, &conn->work());
  }
  in_flight = {};  // published: the versions have moved
  conn->work().clear_changes();
  give_back(std::move(conn));
  data_epoch_.fetch_add(1, std::memory_order_acq_rel);
  return r;
}

Result<void> PgDatabase::write_volatile(WriteFn fn) {
  // On this thread's reading connection, whose commits do not wait for the WAL flush: one round
  // trip, no pool to wait for.
  PARLEY_ASSIGN_OR_RETURN(Connection & conn, read());
  return fn(conn);
}

void PgDatabase::write_async(WriteFn fn) {
  write_then(std::move(fn), nullptr);
}

void PgDatabase::write_then(WriteFn fn, std::function<void(Result<void>)> done) {
  {
    std::lock_guard lock(jobs_mu_);
    if (!stopping_) {
      jobs_.push_back({std::move(fn), std::move(done)});
      jobs_cv_.notify_one();
      return;
    }
  }
  if (done) done(ApiError{ErrorCode::kUnavailable, "The server is shutting down."});
}

void PgDatabase::worker_loop() {
  enter_work_priority();
  for (;;) {
    Job job;
    {
      std::unique_lock lock(jobs_mu_);
      jobs_cv_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
      ++jobs_running_;
    }
    Result<void> r = write(std::move(job.fn));
    if (job.then) job.then(std::move(r));
    job = {};  // what the job held goes with it, before it counts as done
    std::lock_guard lock(jobs_mu_);
    if (--jobs_running_ == 0 && jobs_.empty()) idle_cv_.notify_all();
  }
}

void PgDatabase::wait_for_queued_writes() {
  std::unique_lock lock(jobs_mu_);
  idle_cv_.wait(lock, [&] { return jobs_.empty() && jobs_running_ == 0; });
}

uint64_t PgDatabase::auth_epoch() const {
  if (!heard_.load(std::memory_order_acquire)) {
    return auth_epoch_.fetch_add(1, std::memory_order_acq_rel) + 1;
  }
  return versions_.auth_epoch(auth_epoch_.load(std::memory_order_acquire));
}

uint64_t PgDatabase::data_epoch() const {
  if (!heard_.load(std::memory_order_acquire)) {
    return data_epoch_.fetch_add(1, std::memory_order_acq_rel) + 1;
  }
  return data_epoch_.load(std::memory_order_acquire);
}

void PgDatabase::bump_auth_epoch() {
  auth_epoch_.fetch_add(1, std::memory_order_acq_rel);
  announce(true, nullptr);
}

uint64_t PgDatabase::entity_version(Entity kind, std::string_view id) const {
  if (!heard_.load(std::memory_order_acquire)) {
    // Never a value a cache holds: the top bit is never set on a counter.
    return data_epoch_.fetch_add(1, std::memory_order_acq_rel) | (uint64_t{1} << 63);
  }
  return versions_.version(kind, id);
}

void PgDatabase::listen_loop() {
  using namespace std::chrono_literals;
  constexpr auto kFirstRetry = 25ms;
  constexpr auto kLongestRetry = 400ms;
  std::unique_ptr<PgConnection> conn;
  auto retry = kFirstRetry;
  bool held = false;  // libpq may hold notifications already: take them before polling
  auto lost = [&] {
    // From here until LISTEN is back, nothing cached is trusted (the epochs move on every read).
    heard_.store(false, std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_acq_rel);
    conn.reset();
    // The idle write connections are likely cut as well: new ones are opened when next needed.
    std::vector<std::unique_ptr<PgConnection>> cut;
    {
      std::lock_guard lock(pool_mu_);
      opened_ -= static_cast<int>(idle_.size());
      cut.swap(idle_);
      pool_cv_.notify_all();
    }
  };
  while (listening_) {
    if (conn == nullptr || conn->broken()) {
      if (conn != nullptr) lost();
      auto opened = PgConnection::open(options_.url, options_.durability);
      // Named once its LISTENs have committed, in a statement of its own: a process that finds it
      // by name (confirm_heard) is then heard.
      auto listened = opened.ok()
                          ? (*opened)->execute_script("LISTEN " + std::string(kDataChannel) +
                                                      "; LISTEN " + std::string(kAuthChannel) +
                                                      "; LISTEN " + std::string(kSyncChannel))
                          : Result<void>(opened.error());
      // Only a serving node is waited for: a short-lived process's own listener (`parley admin`)
      // goes with it.
      if (listened.ok() && !options_.confirm_heard_on_close) {
        listened = (*opened)->execute_script("SET application_name = '" +
                                             std::string(kListenerName) + "'");
      }
      if (!listened.ok()) {
        if (retry == kFirstRetry) {
          log_warn("database listener cannot connect; retrying",
                   {{"error", listened.error().message}});
        }
        pollfd stop{stop_listening_, POLLIN, 0};
        (void)::poll(&stop, 1, static_cast<int>(retry.count()));
        retry = std::min(retry * 2, std::chrono::milliseconds(kLongestRetry));
        continue;
      }
      conn = std::move(*opened);
      retry = kFirstRetry;
      // Whatever was announced while no one listened is unknown: everything may have changed.
      auth_epoch_.fetch_add(1, std::memory_order_acq_rel);
      data_epoch_.fetch_add(1, std::memory_order_acq_rel);
      versions_.bump_all();
      heard_.store(true, std::memory_order_release);
      // A sync sent once its name showed may have come in with the SET's answer: libpq holds
      // it and the socket stays silent, so what is held is taken now, without waiting.
      held = true;
    }
    // The second descriptor wakes the listener when the database closes (a short-lived `parley
    // admin` would otherwise wait out the timeout).
    pollfd fds[2] = {{conn->socket(), POLLIN, 0}, {stop_listening_, POLLIN, 0}};
    if (!held && (::poll(fds, 2, 200) <= 0 || fds[1].revents != 0)) continue;
    held = false;
    pollfd& p = fds[0];
    // Answering a sync is a statement, whose result may bring notifications in with it: libpq
    // then holds them and the socket stays silent, so they are taken until no answer is due.
    Result<void> taken;
    for (bool answered = true; answered && taken.ok();) {
      std::vector<std::string> sync_tokens;
      taken = conn->take_notifications(
          [&](std::string_view channel, int sender, std::string_view payload) {
            if (channel == kSyncChannel) {
              // Answered after what came before it has moved the epochs (confirm_heard).
              if (payload.size() <= kMaxSyncToken) sync_tokens.emplace_back(payload);
              return;
            }
            // This node's own news: its versions and epochs moved already.
            if (sender == notifier_pid_.load()) return;
            if (channel == kAuthChannel) auth_epoch_.fetch_add(1, std::memory_order_acq_rel);
            if (channel == kDataChannel) heard(payload);
            data_epoch_.fetch_add(1, std::memory_order_acq_rel);
          });
      answered = !sync_tokens.empty();
      for (const auto& token : sync_tokens) {
        if (!taken.ok()) break;
        taken = notify(*conn, kSyncedChannel, token);
      }
    }
    if (!taken.ok() || (p.revents & (POLLHUP | POLLERR)) != 0) lost();
  }
}

}  // namespace parley
