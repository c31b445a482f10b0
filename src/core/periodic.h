// A thread that runs one task at a fixed period until it is destroyed: for the workers that keep
// something in step in the background (writing rate windows behind, purging ended rows). The
// destructor wakes the thread, waits for a task under way to finish, and joins it; the task never
// runs after that.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace parley {

class Periodic {
 public:
  // `task` first runs one `period` after construction.
  Periodic(std::chrono::milliseconds period, std::function<void()> task);
  ~Periodic();
  Periodic(const Periodic&) = delete;
  Periodic& operator=(const Periodic&) = delete;

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace parley
