// A fixed pool of threads for blocking work (handlers that wait on a commit, reply engines,
// streaming). post() and try_post() are thread-safe; finish() (or the destructor) finishes queued
// work, then joins.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace parley {

class ThreadPool {
 public:
  explicit ThreadPool(size_t threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  void post(std::function<void()> task);
  // Runs `task` unless `max_waiting` tasks already wait for a thread (none free), in which case
  // it returns false and drops the task: the caller answers "busy" at once instead of letting
  // the queue grow without bound.
  bool try_post(std::function<void()> task, size_t max_waiting);
  // Tasks waiting for a thread (not counting the running ones).
  size_t waiting() const;
  // Runs the tasks queued, and those they queue, then joins the threads. A task posted after that
  // never runs (it is destroyed with the pool). Not from one of the pool's own threads.
  void finish();

 private:
  void run();

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;
  size_t busy_ = 0;  // threads running a task
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace parley
