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

}  // namespace
}  // namespace parley
