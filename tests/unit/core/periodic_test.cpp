// Periodic runs its task at its period, not before the first period, and never after it is
// destroyed.
#include "core/periodic.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace parley {
namespace {

TEST(Periodic, RunsAtItsPeriodAndNeverAfterItIsDestroyed) {
  std::atomic<int> runs{0};
  {
    Periodic every(std::chrono::milliseconds(10), [&] { ++runs; });
    for (int i = 0; i < 200 && runs < 3; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_GE(runs.load(), 3);
  }
  int after = runs.load();
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  EXPECT_EQ(runs.load(), after);
}

TEST(Periodic, DestroyedBeforeItsFirstPeriodItNeverRuns) {
  std::atomic<int> runs{0};
  { Periodic every(std::chrono::hours(1), [&] { ++runs; }); }
  EXPECT_EQ(runs.load(), 0);
}

}  // namespace
}  // namespace parley
