#include "core/thread_pool.h"

#include "core/log.h"
#include "core/thread_priority.h"

namespace parley {

ThreadPool::ThreadPool(size_t threads) {
  for (size_t i = 0; i < threads; ++i) threads_.emplace_back([this] { run(); });
}

ThreadPool::~ThreadPool() { finish(); }

void ThreadPool::finish() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
}

void ThreadPool::post(std::function<void()> task) {
  {
    std::lock_guard lock(mu_);
    tasks_.push_back(std::move(task));
  }
  cv_.notify_one();
}

bool ThreadPool::try_post(std::function<void()> task, size_t max_waiting) {
  {
    std::lock_guard lock(mu_);
    // Tasks beyond the free threads wait; refuse once that wait list is full.
    size_t free = threads_.size() - busy_;
    size_t would_wait = tasks_.size() + 1 > free ? tasks_.size() + 1 - free : 0;
    if (would_wait > max_waiting) return false;
    tasks_.push_back(std::move(task));
  }
  cv_.notify_one();
  return true;
}

size_t ThreadPool::waiting() const {
  std::lock_guard lock(mu_);
  size_t free = threads_.size() - busy_;
  return tasks_.size() > free ? tasks_.size() - free : 0;
}

void ThreadPool::run() {
  enter_work_priority();
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return stopping_ || !tasks_.empty(); });
      if (tasks_.empty()) return;
      task = std::move(tasks_.front());
      tasks_.pop_front();
      ++busy_;
    }
    // A task that throws must not take the process down (std::thread would terminate).
    try {
      task();
    } catch (const std::exception& e) {
      log_error("background task failed", {{"error", std::string_view(e.what())}});
    } catch (...) {
      log_error("background task failed");
    }
    task = nullptr;  // what the task held goes before the thread counts as free
    std::lock_guard lock(mu_);
    --busy_;
  }
}

}  // namespace parley
