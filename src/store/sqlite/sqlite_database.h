// The SQLite Database: one file in WAL mode, a reading connection per thread, and a single writer
// thread that commits the writes of concurrent requests together (group commit), so that
// synchronous=FULL (one fsync per commit) costs one fsync per batch instead of one per write.
// Thread-safe.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "store/db.h"
#include "store/entity_versions.h"
#include "store/sqlite/sqlite_connection.h"

namespace parley {

class SqliteDatabase final : public Database, public EntitySource {
 public:
  static Result<std::unique_ptr<SqliteDatabase>> open(const std::string& path, Durability durability);
  ~SqliteDatabase() override;

  Result<std::reference_wrapper<Connection>> read() override;
  Result<void> write(WriteFn fn) override;
  void write_async(WriteFn fn) override;
  void write_then(WriteFn fn, std::function<void(Result<void>)> done) override;
  void wait_for_queued_writes() override;
  std::string_view backend() const override { return "sqlite"; }
  uint64_t auth_epoch() const override;
  void bump_auth_epoch() override;
  uint64_t data_epoch() const override;
  uint64_t entity_version(Entity kind, std::string_view id) const override;
  void add_commit_observer(CommitObserver observer) override {
    observers_.add(std::move(observer));
  }
  Result<void> hold_for_serving() override;

 private:
  struct Job {
    WriteFn fn;
    std::promise<Result<void>>* done;  // null for write_async and write_then
    std::function<void(Result<void>)> then = {};  // write_then's
  };

  SqliteDatabase(std::string path, Durability durability) : path_(std::move(path)), durability_(durability) {}
  Result<void> start();
  void writer_loop();
  void checkpoint_loop();
  void commit_batch(std::vector<Job>& batch);

  const std::string path_;
  const Durability durability_;
  const uint64_t instance_id_ = next_instance_id_++;
  static inline std::atomic<uint64_t> next_instance_id_{1};

  std::unique_ptr<SqliteConnection> writer_conn_;
  std::thread writer_;
  // Checkpoints run here, off the writer, so a commit never waits for the WAL to be copied back
  // into the database file (and, with full durability, for that copy's fsync).
  std::unique_ptr<SqliteConnection> checkpoint_conn_;
  std::thread checkpointer_;
  std::mutex checkpoint_mu_;
  std::condition_variable checkpoint_cv_;
  bool checkpoint_stop_ = false;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job> queue_;
  bool stopping_ = false;
  bool committing_ = false;          // the writer holds a batch (until its jobs are destroyed)
  std::condition_variable idle_cv_;  // the queue is empty and no batch is held

  std::mutex readers_mu_;
  std::vector<std::unique_ptr<SqliteConnection>> readers_;

  int serving_fd_ = -1;  // PATH-serve.lock, locked while this process serves
  // Shared memory mapped from PATH-epoch: [0] auth, [1] data, then from kVersionsAt the entity
  // versions (every process that opens the file moves them, store/entity_versions.h).
  std::atomic<uint64_t>* epoch_ = nullptr;
  std::unique_ptr<EntityVersions> versions_;
  CommitObservers observers_;
};

}  // namespace parley
