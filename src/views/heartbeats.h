// One thread that keeps every event stream of the process alive: each registered beat runs about
// every quarter of its interval while its owner lives, and decides itself whether its stream has
// been silent long enough to need a comment line. Started with the first beat, or by start().
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace parley {

class Heartbeats {
 public:
  static Heartbeats& instance();
  ~Heartbeats();

  // `beat` runs on the heartbeat thread until it returns false or `owner` is gone.
  void add(std::weak_ptr<void> owner, int64_t interval_ms, std::function<bool()> beat);
  // Starts the thread now, from the calling thread, whose niceness it takes (`serve`: before the
  // work threads that answer streams could start it at theirs).
  void start();

 private:
  Heartbeats() = default;
  void start_locked();  // mu_ held
  void loop();

  struct Entry {
    std::weak_ptr<void> owner;
    std::chrono::milliseconds every;
    std::chrono::steady_clock::time_point due;
    std::function<bool()> beat;
  };
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Entry> entries_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace parley
