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

TEST(ThreadPool, FinishRunsWhatIsQueuedAndWhatItQueuesThenNothingMore) {
  auto held = std::make_shared<int>(0);
  std::atomic<int> ran{0};
  ThreadPool pool(2);
  for (int i = 0; i < 4; ++i) {
    pool.post([&pool, &ran, held] {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      ran++;
      pool.post([&ran, held] { ran++; });  // queued by a task while the pool finishes
    });
  }
  pool.finish();
  EXPECT_EQ(ran.load(), 8);
  EXPECT_EQ(held.use_count(), 1);  // what the tasks held went with them
  pool.post([&ran] { ran++; });
  pool.finish();  // a second call finds nothing to join
  EXPECT_EQ(ran.load(), 8);
}

}  // namespace
}  // namespace parley
