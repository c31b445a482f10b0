#include "store/sqlite/sqlite_database.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/log.h"
#include "core/thread_priority.h"

#include <chrono>
#include <unordered_map>

#include "store/migrations.h"
#include "store/sqlite/group_commit.h"

namespace parley {

namespace {
constexpr size_t kMaxBatch = 512;
// The entity versions start at the second page of the epoch file.
constexpr size_t kVersionsAt = 4096 / sizeof(uint64_t);
constexpr size_t kEpochFileSize = 4096 + EntityVersions::kSlots * sizeof(uint64_t);

std::atomic<uint64_t>* map_epoch_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return nullptr;
  struct stat st {};
  // Grown, never shrunk: another process may have it mapped.
  if (fstat(fd, &st) != 0 ||
      (st.st_size < static_cast<off_t>(kEpochFileSize) && ftruncate(fd, kEpochFileSize) != 0)) {
    ::close(fd);
    return nullptr;
  }
  void* p = mmap(nullptr, kEpochFileSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (p == MAP_FAILED) return nullptr;
  static_assert(std::atomic<uint64_t>::is_always_lock_free);
  return static_cast<std::atomic<uint64_t>*>(p);
}
}  // namespace

Result<std::unique_ptr<SqliteDatabase>> SqliteDatabase::open(const std::string& path,
                                                             Durability durability) {
  std::unique_ptr<SqliteDatabase> db(new SqliteDatabase(path, durability));
  PARLEY_TRY(db->start());
  return db;
}

Result<void> SqliteDatabase::start() {
  PARLEY_ASSIGN_OR_RETURN(writer_conn_, SqliteConnection::open(path_, durability_));
  PARLEY_ASSIGN_OR_RETURN(int migrated, apply_migrations(*writer_conn_));
  epoch_ = map_epoch_file(path_ + "-epoch");
  if (epoch_ == nullptr) return ApiError::internal("cannot map " + path_ + "-epoch");
  versions_ = std::make_unique<EntityVersions>(epoch_ + kVersionsAt);
  // The migrations above may have written anything.
  epoch_[1].fetch_add(1, std::memory_order_acq_rel);
  if (migrated > 0) versions_->bump_all();
  PARLEY_TRY(writer_conn_->execute_script("PRAGMA wal_autocheckpoint=0"));
  PARLEY_ASSIGN_OR_RETURN(checkpoint_conn_, SqliteConnection::open(path_, durability_));
  writer_ = std::thread([this] { writer_loop(); });
  checkpointer_ = std::thread([this] { checkpoint_loop(); });
  return {};
}

SqliteDatabase::~SqliteDatabase() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (writer_.joinable()) writer_.join();
  {
    std::lock_guard lock(checkpoint_mu_);
    checkpoint_stop_ = true;
  }
  checkpoint_cv_.notify_all();
  if (checkpointer_.joinable()) checkpointer_.join();
  if (epoch_ != nullptr) munmap(epoch_, kEpochFileSize);
  if (serving_fd_ >= 0) ::close(serving_fd_);
}

Result<void> SqliteDatabase::hold_for_serving() {
  // The kernel lets go of the lock when the process ends, however it ends.
  std::string lock_path = path_ + "-serve.lock";
  int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return ApiError::internal("cannot open " + lock_path);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return ApiError{ErrorCode::kUnavailable,
                    "another parley serve is using " + path_ +
                        "; a SQLite database serves one node, several nodes share a PostgreSQL database "
                        "(--database postgresql://...)"};
  }
  serving_fd_ = fd;
  return {};
}

uint64_t SqliteDatabase::auth_epoch() const {
  return versions_->auth_epoch(epoch_->load(std::memory_order_acquire));
}
void SqliteDatabase::bump_auth_epoch() { epoch_->fetch_add(1, std::memory_order_acq_rel); }
uint64_t SqliteDatabase::data_epoch() const { return epoch_[1].load(std::memory_order_acquire); }
uint64_t SqliteDatabase::entity_version(Entity kind, std::string_view id) const {
  return versions_->version(kind, id);
}

Result<std::reference_wrapper<Connection>> SqliteDatabase::read() {
  // Connections are owned by the database (closed with it); the thread-local map only points at
  // them, keyed by a never-reused instance id so a stale entry can never be hit.
  thread_local std::unordered_map<uint64_t, SqliteConnection*> mine;
  auto it = mine.find(instance_id_);
  if (it != mine.end()) return std::ref<Connection>(*it->second);
  PARLEY_ASSIGN_OR_RETURN(auto conn, SqliteConnection::open(path_, durability_));
  // Every thread that reads gets its own connection, and each connection's page cache is private:
  // at SQLite's default (2 MiB) a hundred threads hold 200 MiB of copies of pages the kernel
  // already caches. Readers keep a small cache; the writer keeps the default.
  PARLEY_TRY(conn->execute_script("PRAGMA cache_size=-256"));
  SqliteConnection* raw = conn.get();
  {
    std::lock_guard lock(readers_mu_);
    readers_.push_back(std::move(conn));
  }
  mine.emplace(instance_id_, raw);
  return std::ref<Connection>(*raw);
}

Result<void> SqliteDatabase::write(WriteFn fn) {
  std::promise<Result<void>> done;
  auto future = done.get_future();
  {
    std::lock_guard lock(mu_);
    if (stopping_) return ApiError{ErrorCode::kUnavailable, "The server is shutting down."};
    queue_.push_back({std::move(fn), &done});
  }
  cv_.notify_one();
  return future.get();
}

void SqliteDatabase::write_async(WriteFn fn) {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    queue_.push_back({std::move(fn), nullptr});
  }
  cv_.notify_one();
}

void SqliteDatabase::write_then(WriteFn fn, std::function<void(Result<void>)> done) {
  {
    std::lock_guard lock(mu_);
    if (!stopping_) {
      queue_.push_back({std::move(fn), nullptr, std::move(done)});
      done = nullptr;
    }
  }
  if (done) return done(ApiError{ErrorCode::kUnavailable, "The server is shutting down."});
  cv_.notify_one();
}

void SqliteDatabase::checkpoint_loop() {
  enter_work_priority();
  constexpr auto kInterval = std::chrono::milliseconds(250);
  std::unique_lock lock(checkpoint_mu_);
  while (!checkpoint_cv_.wait_for(lock, kInterval, [&] { return checkpoint_stop_; })) {
    lock.unlock();
    // PASSIVE copies what it can without blocking the writer or readers. The WAL restarts from its
    // beginning only once every frame is copied and no reader still uses one, which steady load
    // never allows: the file then grows without end (20 GB in 7 minutes of the soak bench, and the
    // WAL index mapped into memory with it). Past kWalRestartFrames a RESTART checkpoint waits the
    // few milliseconds readers of old frames take, holding the writer off meanwhile. The bound is
    // high enough that this happens every few seconds at most (a 64 MiB bound, with truncation,
    // raised the chat bench's p99 from 8 to 35 ms).
    constexpr int kWalRestartFrames = 65536;  // 256 MiB of 4 KiB pages
    auto frames = checkpoint_conn_->checkpoint(SqliteConnection::Checkpoint::kPassive);
    if (frames.ok() && *frames > kWalRestartFrames) {
      (void)checkpoint_conn_->checkpoint(SqliteConnection::Checkpoint::kRestart);
    }
    lock.lock();
  }
}

void SqliteDatabase::writer_loop() {
  enter_work_priority();
  std::vector<Job> batch;
  for (;;) {
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty() && stopping_) return;
      while (!queue_.empty() && batch.size() < kMaxBatch) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
      committing_ = true;
    }
    commit_batch(batch);
    batch.clear();  // what the jobs held goes with them, before the writer is idle
    std::lock_guard lock(mu_);
    committing_ = false;
    if (queue_.empty()) idle_cv_.notify_all();
  }
}

void SqliteDatabase::wait_for_queued_writes() {
  std::unique_lock lock(mu_);
  idle_cv_.wait(lock, [&] { return queue_.empty() && !committing_; });
}

void SqliteDatabase::commit_batch(std::vector<Job>& batch) {
  std::vector<const WriteFn*> fns;
  fns.reserve(batch.size());
  for (const auto& job : batch) fns.push_back(&job.fn);
  // commit_group leaves on the connection what the committed units of work changed.
  writer_conn_->work().clear_changes();
  std::vector<CommitInFlight> in_flight;
  std::vector<Result<void>> results = commit_group(*writer_conn_, fns, versions_.get(), &in_flight);
  // Before any writer hears of its commit.
  if (observers_.publish(writer_conn_->work(), *versions_)) {
    epoch_[0].fetch_add(1, std::memory_order_acq_rel);
  }
  in_flight.clear();  // published: the versions have moved
  writer_conn_->work().clear_changes();
  epoch_[1].fetch_add(1, std::memory_order_acq_rel);
  for (size_t i = 0; i < batch.size(); ++i) {
    if (batch[i].done) batch[i].done->set_value(std::move(results[i]));
    else if (batch[i].then) batch[i].then(std::move(results[i]));
  }
}

}  // namespace parley
