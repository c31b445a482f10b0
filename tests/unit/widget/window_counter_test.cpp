#include "widget/window_counter.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

constexpr int64_t kMinute = 1'800'000'000'000;  // a whole minute, in ms

TEST(WindowCounter, RefusesPastTheLimitUntilTheWindowEnds) {
  ManualClock clock(kMinute + 15'000);
  WindowCounter counter(clock, 60'000);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(counter.hit("a", 3).allowed);
  auto refused = counter.hit("a", 3);
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.retry_after_s, 45);
  EXPECT_TRUE(counter.hit("b", 3).allowed) << "each key has its own count";
  clock.set_ms(kMinute + 60'000);
  EXPECT_TRUE(counter.hit("a", 3).allowed) << "a new window starts from nothing";
}

TEST(WindowCounter, ARefusedEventIsNotCountedAndTheLimitMayDifferPerCall) {
  ManualClock clock(kMinute);
  WindowCounter counter(clock, 60'000);
  EXPECT_TRUE(counter.hit("a", 1).allowed);
  EXPECT_FALSE(counter.hit("a", 1).allowed);
  EXPECT_TRUE(counter.hit("a", 2).allowed) << "refusals did not add to the count";
  EXPECT_FALSE(counter.hit("a", 2).allowed);
}

TEST(WindowCounter, KeysBeyondTheBoundAreNotTrackedSoMemoryStaysBounded) {
  ManualClock clock(kMinute);
  WindowCounter counter(clock, 60'000, /*max_keys=*/2);
  EXPECT_TRUE(counter.hit("a", 1).allowed);
  EXPECT_TRUE(counter.hit("b", 1).allowed);
  EXPECT_TRUE(counter.hit("c", 1).allowed);
  EXPECT_TRUE(counter.hit("c", 1).allowed) << "not tracked: the table is full";
  EXPECT_FALSE(counter.hit("a", 1).allowed) << "tracked keys are still held";
}

}  // namespace
}  // namespace parley
