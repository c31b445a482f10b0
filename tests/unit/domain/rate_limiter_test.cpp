#include "domain/rate_limiter.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

constexpr int64_t kMinute = 1'800'000'000'000;  // a whole minute, in ms

TEST(RateLimiter, CountsAFixedWindowAlignedToTheMinute) {
  ManualClock clock(kMinute + 15'000);
  RateLimiter limiter(clock, 3);
  for (int i = 1; i <= 3; ++i) {
    auto d = limiter.hit("key_a");
    EXPECT_TRUE(d.allowed);
    EXPECT_EQ(d.remaining, 3 - i);
    EXPECT_EQ(d.limit, 3);
    EXPECT_EQ(d.reset_unix_s, (kMinute + 60'000) / 1000);
  }
  auto refused = limiter.hit("key_a");
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.remaining, 0);
  EXPECT_EQ(refused.retry_after_s, 45);
  clock.set_ms(kMinute + 60'000);  // the next minute starts
  EXPECT_TRUE(limiter.hit("key_a").allowed);
}

TEST(RateLimiter, KeysHaveTheirOwnWindows) {
  ManualClock clock(kMinute);
  RateLimiter limiter(clock, 1);
  EXPECT_TRUE(limiter.hit("key_a").allowed);
  EXPECT_FALSE(limiter.hit("key_a").allowed);
  EXPECT_TRUE(limiter.hit("key_b").allowed);
}

TEST(RateLimiter, RetryAfterIsAtLeastOneSecond) {
  ManualClock clock(kMinute + 59'999);
  RateLimiter limiter(clock, 1);
  limiter.hit("k");
  EXPECT_EQ(limiter.hit("k").retry_after_s, 1);
}

TEST(RateLimiter, DirtyWindowsAreTakenOnceAndRestored) {
  ManualClock clock(kMinute + 1000);
  RateLimiter limiter(clock, 10);
  limiter.hit("k");
  limiter.hit("k");
  auto dirty = limiter.take_dirty();
  ASSERT_EQ(dirty.size(), 1u);
  EXPECT_EQ(dirty[0].count, 2);
  EXPECT_EQ(dirty[0].window_start_ms, kMinute);
  EXPECT_TRUE(limiter.take_dirty().empty());

  RateLimiter restarted(clock, 10);
  restarted.restore(dirty[0]);
  EXPECT_EQ(restarted.hit("k").remaining, 7);
}

}  // namespace
}  // namespace parley
