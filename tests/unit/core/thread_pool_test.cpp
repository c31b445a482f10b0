#include "core/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

namespace parley {
namespace {

TEST(ThreadPool, TryPostRefusesOnceTheWaitListIsFull) {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> ran{0};
  {
    ThreadPool pool(1);
    std::promise<void> started;
    ASSERT_TRUE(pool.try_post(
        [&] {
          started.set_value();
          released.wait();
          ran++;
        },
        0));  // a free thread: nothing waits
    started.get_future().wait();
    EXPECT_FALSE(pool.try_post([&] { ran++; }, 0));  // the thread is busy and no wait is allowed
    EXPECT_TRUE(pool.try_post([&] { ran++; }, 1));
    EXPECT_EQ(pool.waiting(), 1u);
    EXPECT_FALSE(pool.try_post([&] { ran++; }, 1));
    release.set_value();
  }  // the destructor finishes the queued task
  EXPECT_EQ(ran.load(), 2);
}

}  // namespace
}  // namespace parley
