#include "core/periodic.h"

namespace parley {

Periodic::Periodic(std::chrono::milliseconds period, std::function<void()> task) {
  thread_ = std::thread([this, period, task = std::move(task)] {
    std::unique_lock lock(mu_);
    while (!cv_.wait_for(lock, period, [this] { return stop_; })) {
      lock.unlock();
      task();
      lock.lock();
    }
  });
}

Periodic::~Periodic() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

}  // namespace parley
