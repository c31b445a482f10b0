#include "views/heartbeats.h"

#include <pthread.h>

#include <algorithm>

namespace parley {

Heartbeats& Heartbeats::instance() {
  static Heartbeats heartbeats;
  return heartbeats;
}

Heartbeats::~Heartbeats() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Heartbeats::add(std::weak_ptr<void> owner, int64_t interval_ms, std::function<bool()> beat) {
  auto every = std::chrono::milliseconds(std::max<int64_t>(10, interval_ms / 4));
  std::lock_guard lock(mu_);
  entries_.push_back({std::move(owner), every, std::chrono::steady_clock::now() + every, std::move(beat)});
  start_locked();
  cv_.notify_all();
}

void Heartbeats::start() {
  std::lock_guard lock(mu_);
  start_locked();
}

void Heartbeats::start_locked() {
  if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
}

void Heartbeats::loop() {
  pthread_setname_np(pthread_self(), "heartbeats");  // as `top -H` and /proc show it
  std::unique_lock lock(mu_);
  while (!stop_) {
    if (entries_.empty()) {
      cv_.wait(lock, [&] { return stop_ || !entries_.empty(); });
      continue;
    }
    auto next = std::min_element(entries_.begin(), entries_.end(),
                                 [](const Entry& a, const Entry& b) { return a.due < b.due; })->due;
    if (cv_.wait_until(lock, next, [&] { return stop_; })) break;
    auto now = std::chrono::steady_clock::now();
    std::vector<Entry> due;
    for (auto it = entries_.begin(); it != entries_.end();) {
      if (it->due <= now) {
        due.push_back(std::move(*it));
        it = entries_.erase(it);
      } else {
        ++it;
      }
    }
    lock.unlock();
    std::vector<Entry> again;
    for (auto& e : due) {
      auto owner = e.owner.lock();
      if (!owner || !e.beat()) continue;
      e.due = std::chrono::steady_clock::now() + e.every;
      again.push_back(std::move(e));
    }
    lock.lock();
    for (auto& e : again) entries_.push_back(std::move(e));
  }
}

}  // namespace parley
