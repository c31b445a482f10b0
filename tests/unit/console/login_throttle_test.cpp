#include "console/login_throttle.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

constexpr int64_t kStart = 1'700'000'000'000;

TEST(LoginThrottle, BlocksAnEmailFromOneAddressAfterItsFailuresUntilTheWindowEnds) {
  ManualClock clock(kStart);
  LoginThrottle t(clock, LoginLimits{3, 100, 60'000});
  for (int i = 0; i < 3; ++i) EXPECT_EQ(t.begin("a@x.example", "1.1.1.1"), 0);
  clock.advance_ms(10'500);
  EXPECT_EQ(t.begin("a@x.example", "1.1.1.1"), 50);  // 49.5 s left, rounded up
  EXPECT_EQ(t.begin("b@x.example", "1.1.1.1"), 0);
  // The owner, from their own address, is not locked out by a guesser elsewhere.
  EXPECT_EQ(t.begin("a@x.example", "2.2.2.2"), 0);
  clock.advance_ms(49'500);
  EXPECT_EQ(t.begin("a@x.example", "1.1.1.1"), 0);
}

TEST(LoginThrottle, TheEmailsCeilingStopsGuessingSpreadOverManyAddresses) {
  ManualClock clock(kStart);
  LoginLimits limits{3, 100, 60'000};
  limits.failures_per_email_all_addresses = 10;
  LoginThrottle t(clock, limits);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(t.begin("a@x.example", "10.0.0." + std::to_string(i)), 0);
  EXPECT_EQ(t.begin("a@x.example", "10.0.0.99"), 60);
  EXPECT_EQ(t.begin("a@x.example", "2.2.2.2"), 60);
  EXPECT_EQ(t.begin("b@x.example", "10.0.0.1"), 0);  // other emails go on
  // A success gives back its own attempt only: the ceiling is not reset for the guesser.
  t.succeeded("b@x.example", "10.0.0.1");
  EXPECT_EQ(t.begin("a@x.example", "10.0.0.5"), 60);
}

TEST(LoginThrottle, TheEmailsCeilingDoesNotHoldAnAddressItSignedInFromWithinThirtyDays) {
  ManualClock clock(kStart);
  LoginLimits limits{3, 100, 60'000};
  limits.failures_per_email_all_addresses = 4;
  LoginThrottle t(clock, limits);
  EXPECT_EQ(t.begin("a@x.example", "198.51.100.2"), 0);
  t.succeeded("a@x.example", "198.51.100.2");
  for (int i = 0; i < 4; ++i) EXPECT_EQ(t.begin("a@x.example", "10.0.0." + std::to_string(i)), 0);
  EXPECT_EQ(t.begin("a@x.example", "10.0.0.99"), 60);
  EXPECT_EQ(t.begin("a@x.example", "198.51.100.2"), 0);
  // The pair is known, not the address: another email from it is held by its own ceiling.
  for (int i = 0; i < 4; ++i) EXPECT_EQ(t.begin("b@x.example", "10.0.3." + std::to_string(i)), 0);
  EXPECT_EQ(t.begin("b@x.example", "198.51.100.2"), 60);
  // Thirty days after its last sign-in the pair is a stranger again.
  clock.advance_ms(limits.known_pair_ms - 1);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(t.begin("a@x.example", "10.0.1." + std::to_string(i)), 0);
  EXPECT_EQ(t.begin("a@x.example", "198.51.100.2"), 0);
  clock.advance_ms(1);
  EXPECT_EQ(t.begin("a@x.example", "198.51.100.2"), 60);
}

TEST(LoginThrottle, FiftyOneFailuresFromOneAddressDoNotLockAnotherAddressOut) {
  ManualClock clock(kStart);
  LoginThrottle t(clock, LoginLimits{});
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(t.begin("made-up" + std::to_string(i) + "@x.example", "203.0.113.7"), 0);
  }
  EXPECT_GT(t.begin("made-up50@x.example", "203.0.113.7"), 0);
  EXPECT_GT(t.begin("owner@x.example", "203.0.113.7"), 0);
  EXPECT_EQ(t.begin("owner@x.example", "198.51.100.2"), 0);
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
  EXPECT_EQ(t.tracked(), 5u);  // two pairs, one address, two emails
  for (int i = 0; i < 500; ++i) {
    EXPECT_EQ(t.begin("flood" + std::to_string(i) + "@x.example", "1.1.1.1"), 60);
  }
  EXPECT_EQ(t.tracked(), 5u);
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
  EXPECT_EQ(t.tracked(), 7u);                         // three pairs, one address, three emails
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
  EXPECT_EQ(t.tracked(), 2004u);
  clock.advance_ms(30'000);  // the first 1000 windows and the first address's have ended
  EXPECT_EQ(t.begin("later@x.example", "2.2.2.2"), 0);
  EXPECT_EQ(t.tracked(), 5u);  // late and later (pairs and emails), and 2.2.2.2
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
