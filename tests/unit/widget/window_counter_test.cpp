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

// Past 100,000 keys in a window the counter once stopped limiting anyone new.
TEST(WindowCounter, AFullCounterEvictsAKeySeenOnceAndNeverStopsLimiting) {
  ManualClock clock(kMinute);
  WindowCounter counter(clock, 60'000, /*max_keys=*/3);
  EXPECT_TRUE(counter.hit("flood", 2).allowed);
  EXPECT_TRUE(counter.hit("b", 2).allowed);
  EXPECT_TRUE(counter.hit("c", 2).allowed);
  EXPECT_TRUE(counter.hit("flood", 2).allowed);  // seen twice: never the one evicted
  EXPECT_TRUE(counter.hit("d", 2).allowed);      // evicts b, the oldest seen once
  EXPECT_EQ(counter.tracked(), 3u);
  EXPECT_TRUE(counter.hit("d", 2).allowed);
  EXPECT_FALSE(counter.hit("d", 2).allowed) << "a new key past the bound is still limited";
  EXPECT_FALSE(counter.hit("flood", 2).allowed) << "the active key is still held";
  EXPECT_TRUE(counter.hit("e", 2).allowed);  // evicts c
  EXPECT_EQ(counter.tracked(), 3u);
}

TEST(WindowCounter, AFullCounterOfActiveKeysRefusesNewKeysUntilTheWindowEnds) {
  ManualClock clock(kMinute + 30'000);
  WindowCounter counter(clock, 60'000, /*max_keys=*/2);
  for (const char* k : {"a", "a", "b", "b"}) EXPECT_TRUE(counter.hit(k, 5).allowed);
  auto refused = counter.hit("c", 5);
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.retry_after_s, 30);
  EXPECT_EQ(counter.tracked(), 2u);
  clock.set_ms(kMinute + 60'000);
  EXPECT_TRUE(counter.hit("c", 5).allowed);
}

}  // namespace
}  // namespace parley
