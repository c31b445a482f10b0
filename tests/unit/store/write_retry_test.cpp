// The retry hook a backend with concurrent writers uses for transactions that lost a race.
#include "store/write_retry.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

WriteAttempt conflict() {
  return {ApiError{ErrorCode::kUnavailable, "could not serialize access"}, true};
}

TEST(WriteRetry, RunsAgainAfterConflictsUntilTheAttemptSucceeds) {
  int runs = 0;
  auto r = run_write_attempts([&]() -> WriteAttempt {
    ++runs;
    return runs < 3 ? conflict() : WriteAttempt{};
  });
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(runs, 3);
}

TEST(WriteRetry, ReturnsAnErrorThatIsNoConflictAtOnce) {
  int runs = 0;
  auto r = run_write_attempts([&]() -> WriteAttempt {
    ++runs;
    return {ApiError{ErrorCode::kContactLimitReached, "full"}, false};
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kContactLimitReached);
  EXPECT_EQ(runs, 1);
}

TEST(WriteRetry, GivesUpAfterTheLastAttemptWithUnavailable) {
  int runs = 0;
  auto r = run_write_attempts([&]() -> WriteAttempt {
    ++runs;
    return conflict();
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kUnavailable);
  EXPECT_EQ(runs, kWriteAttempts);
}

}  // namespace
}  // namespace parley
