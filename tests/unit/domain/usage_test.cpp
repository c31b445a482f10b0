// count_reply_within_limits: the plan's monthly messages and the agent's monthly cap are counted
// and enforced in the reply's write; a reply refused by the agent's cap leaves the account's
// count as it was, and replies committed at once from many threads stop exactly at the limit.
#include "domain/usage.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <filesystem>
#include <thread>
#include <vector>

namespace parley {
namespace {

class ReplyCount : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir_template[] = "/tmp/parley_usage_XXXXXX";
    dir_ = mkdtemp(dir_template);
    auto db = open_database({"sqlite:" + dir_ + "/parley.db", Durability::kNormal});
    ASSERT_TRUE(db.ok());
    db_ = std::move(*db);
  }
  void TearDown() override {
    db_.reset();
    std::filesystem::remove_all(dir_);
  }
  Result<void> count(const ReplyLimits& limits) {
    return db_->write([&](Connection& c) -> Result<void> {
      PendingReplyCount pending;
      PARLEY_TRY(count_reply_within_limits_later(c, "acc_u", "agt_u", limits, kNow, pending));
      return pending.check();
    });
  }
  int64_t used(std::string_view scope) {
    return *usage_count(db_->read()->get(), scope, month_period(kNow));
  }

  static constexpr int64_t kNow = 1'790'000'000'000;
  std::string dir_;
  std::unique_ptr<Database> db_;
};

TEST_F(ReplyCount, CountsTheAccountAndTheAgentUntilThePlanRunsOut) {
  ReplyLimits limits{2, std::nullopt};
  EXPECT_TRUE(count(limits).ok());
  EXPECT_TRUE(count(limits).ok());
  auto third = count(limits);
  ASSERT_FALSE(third.ok());
  EXPECT_EQ(third.error().code, ErrorCode::kMessageLimitReached);
  EXPECT_EQ(third.error().message, "The account has used all 2 messages of its plan this month.");
  EXPECT_EQ(used("acc_u"), 2);
  EXPECT_EQ(used("agt_u"), 2);
}

TEST_F(ReplyCount, TheAgentsCapRefusesWithoutCountingTheAccount) {
  ReplyLimits limits{10, 1};
  EXPECT_TRUE(count(limits).ok());
  auto second = count(limits);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().code, ErrorCode::kAgentCapReached);
  EXPECT_EQ(second.error().message, "The agent has reached its monthly cap of 1 messages.");
  EXPECT_EQ(used("acc_u"), 1);
  EXPECT_EQ(used("agt_u"), 1);
}

TEST_F(ReplyCount, RepliesCommittedAtOnceStopExactlyAtThePlansLimit) {
  constexpr int kThreads = 8, kEach = 10;
  ReplyLimits limits{45, std::nullopt};
  std::atomic<int> accepted{0}, refused{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kEach; ++i) {
        auto r = count(limits);
        if (r.ok())
          ++accepted;
        else if (r.error().code == ErrorCode::kMessageLimitReached)
          ++refused;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(accepted.load(), 45);
  EXPECT_EQ(refused.load(), kThreads * kEach - 45);
  EXPECT_EQ(used("acc_u"), 45);
  EXPECT_EQ(used("agt_u"), 45);
}

}  // namespace
}  // namespace parley
