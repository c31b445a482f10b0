#include "api/piece_channel.h"

#include <gtest/gtest.h>

#include <thread>

namespace parley {
namespace {

TEST(PieceChannel, JoinsWaitingPiecesAndEndsWithTheOutcome) {
  PieceChannel ch;
  EXPECT_TRUE(ch.push("Hello. "));
  EXPECT_TRUE(ch.push("World."));
  ASSERT_TRUE(ch.wait_ready(std::chrono::milliseconds(0)));
  EXPECT_EQ(ch.next(), "Hello. World.");
  ch.finish({});
  EXPECT_EQ(ch.next(), std::nullopt);
  EXPECT_TRUE(ch.outcome().ok());
}

TEST(PieceChannel, TimesOutWithoutTextAndRefusesTextOnceAbandoned) {
  PieceChannel ch;
  EXPECT_FALSE(ch.wait_ready(std::chrono::milliseconds(5)));
  ch.abandon();
  EXPECT_FALSE(ch.push("late"));
}

TEST(PieceChannel, CarriesTheEnginesErrorAcrossThreads) {
  PieceChannel ch;
  std::thread t([&] { ch.finish(ApiError{ErrorCode::kTimeout, "slow"}); });
  EXPECT_TRUE(ch.wait_ready(std::chrono::seconds(5)));
  t.join();
  EXPECT_TRUE(ch.finished());
  EXPECT_EQ(ch.next(), std::nullopt);
  EXPECT_EQ(ch.outcome().error().code, ErrorCode::kTimeout);
}

}  // namespace
}  // namespace parley
