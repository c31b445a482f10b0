// The work threads' niceness (core/thread_priority.h): a pool's threads take the niceness set
// for work when they start, and threads outside any pool keep theirs.
#include "core/thread_priority.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <future>

#include "core/thread_pool.h"

namespace parley {
namespace {

TEST(WorkPriority, APoolsThreadsTakeTheWorkNicenessAndOthersKeepTheirs) {
  const int before = current_thread_nice();
  set_work_nice(7);
  int in_pool = -1;
  {
    ThreadPool pool(1);
    std::promise<int> seen;
    pool.post([&] { seen.set_value(current_thread_nice()); });
    in_pool = seen.get_future().get();
  }
  set_work_nice(0);
  EXPECT_EQ(in_pool, std::max(before, 7));  // a niceness already higher is kept
  EXPECT_EQ(current_thread_nice(), before);
}

TEST(WorkPriority, ZeroLeavesThreadsAsTheyAre) {
  const int before = current_thread_nice();
  set_work_nice(0);
  ThreadPool pool(1);
  std::promise<int> seen;
  pool.post([&] { seen.set_value(current_thread_nice()); });
  EXPECT_EQ(seen.get_future().get(), before);
}

TEST(WorkPriority, TheNicenessIsKeptWithinZeroToNineteen) {
  set_work_nice(40);
  EXPECT_EQ(work_nice(), 19);
  set_work_nice(-5);
  EXPECT_EQ(work_nice(), 0);
}

}  // namespace
}  // namespace parley
