#include "console/login_throttle.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

constexpr int64_t kStart = 1'700'000'000'000;

TEST(LoginThrottle, BlocksAnEmailAfterItsFailuresUntilTheWindowEnds) {
  ManualClock clock(kStart);
  LoginThrottle t(clock, LoginLimits{3, 100, 60'000});
  for (int i = 0; i < 3; ++i) EXPECT_EQ(t.begin("a@x.example", "1.1.1.1"), 0);
  clock.advance_ms(10'500);
  EXPECT_EQ(t.begin("a@x.example", "2.2.2.2"), 50);  // 49.5 s left, rounded up
  EXPECT_EQ(t.begin("b@x.example", "1.1.1.1"), 0);
  clock.advance_ms(49'500);
  EXPECT_EQ(t.begin("a@x.example", "1.1.1.1"), 0);
}

TEST(LoginThrottle, BlocksAnAddressAcrossEmails) {
  ManualClock clock(kStart);
  LoginThrottle t(clock, LoginLimits{100, 2, 60'000});
  EXPECT_EQ(t.begin("a@x.example", "1.1.1.1"), 0);
  EXPECT_EQ(t.begin("b@x.example", "1.1.1.1"), 0);
  EXPECT_EQ(t.begin("c@x.example", "1.1.1.1"), 60);
  EXPECT_EQ(t.begin("c@x.example", "9.9.9.9"), 0);
}

TEST(LoginThrottle, SuccessClearsTheEmailAndUncountsTheAttempt) {
  ManualClock clock(kStart);
  LoginThrottle t(clock, LoginLimits{2, 2, 60'000});
  EXPECT_EQ(t.begin("a@x.example", "1.1.1.1"), 0);
  EXPECT_EQ(t.begin("a@x.example", "1.1.1.1"), 0);
  t.succeeded("a@x.example", "1.1.1.1");
  EXPECT_EQ(t.begin("a@x.example", "1.1.1.1"), 0);
  t.succeeded("a@x.example", "1.1.1.1");
  EXPECT_EQ(t.begin("a@x.example", "1.1.1.1"), 0);
  EXPECT_EQ(t.begin("a@x.example", "1.1.1.1"), 60);
}

TEST(LoginThrottle, RetryAfterIsAtLeastOneSecond) {
  ManualClock clock(kStart);
  LoginThrottle t(clock, LoginLimits{1, 10, 60'000});
  EXPECT_EQ(t.begin("a@x.example", "1.1.1.1"), 0);
  clock.advance_ms(59'999);
  EXPECT_EQ(t.begin("a@x.example", "1.1.1.1"), 1);
}

TEST(LoginThrottle, RefusedAttemptsAddNoEntries) {
  ManualClock clock(kStart);
  LoginThrottle t(clock, LoginLimits{5, 2, 60'000, 1000});
  EXPECT_EQ(t.begin("a@x.example", "1.1.1.1"), 0);
  EXPECT_EQ(t.begin("b@x.example", "1.1.1.1"), 0);
  EXPECT_EQ(t.tracked(), 3u);  // two emails, one address
  for (int i = 0; i < 500; ++i) {
    EXPECT_EQ(t.begin("flood" + std::to_string(i) + "@x.example", "1.1.1.1"), 60);
  }
  EXPECT_EQ(t.tracked(), 3u);
}

TEST(LoginThrottle, HoldsAtMostTheCapEvictingTheOldestWindowFirst) {
  ManualClock clock(kStart);
  LoginThrottle t(clock, LoginLimits{1, 1'000'000, 60'000, 3});
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(t.begin("e" + std::to_string(i) + "@x.example", "1.1.1.1"), 0);
    clock.advance_ms(1);
  }
  EXPECT_EQ(t.begin("e0@x.example", "1.1.1.1"), 60);  // blocked while still tracked
  EXPECT_EQ(t.begin("e3@x.example", "1.1.1.1"), 0);   // evicts e0, the oldest
  EXPECT_EQ(t.tracked(), 4u);                          // three emails, one address
  EXPECT_EQ(t.begin("e0@x.example", "1.1.1.1"), 0);   // forgotten: counted afresh (evicts e1)
  EXPECT_EQ(t.begin("e2@x.example", "1.1.1.1"), 60);  // still tracked, still blocked
  EXPECT_EQ(t.begin("e1@x.example", "1.1.1.1"), 0);
}

TEST(LoginThrottle, EndedWindowsAreDroppedAsTimePasses) {
  ManualClock clock(kStart);
  LoginThrottle t(clock, LoginLimits{5, 1'000'000, 60'000, 100'000});
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(t.begin("e" + std::to_string(i) + "@x.example", "1.1.1.1"), 0);
  clock.advance_ms(30'000);
  EXPECT_EQ(t.begin("late@x.example", "2.2.2.2"), 0);
  EXPECT_EQ(t.tracked(), 1003u);
  clock.advance_ms(30'000);  // the first 1000 windows and the first address's have ended
  EXPECT_EQ(t.begin("later@x.example", "2.2.2.2"), 0);
  EXPECT_EQ(t.tracked(), 3u);  // late, later, and 2.2.2.2
}

TEST(LoginThrottle, AWindowRestartedAfterSuccessIsNotDroppedByItsOldQueueEntry) {
  ManualClock clock(kStart);
  LoginThrottle t(clock, LoginLimits{2, 1'000'000, 60'000, 100'000});
  EXPECT_EQ(t.begin("a@x.example", "1.1.1.1"), 0);
  t.succeeded("a@x.example", "1.1.1.1");
  clock.advance_ms(30'000);
  EXPECT_EQ(t.begin("a@x.example", "1.1.1.1"), 0);
  EXPECT_EQ(t.begin("a@x.example", "1.1.1.1"), 0);
  clock.advance_ms(30'000);  // the first window's queue entry ends; the second window runs on
  EXPECT_EQ(t.begin("a@x.example", "1.1.1.1"), 30);
}

}  // namespace
}  // namespace parley
