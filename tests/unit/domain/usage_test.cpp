// count_reply_within_limits: the plan's monthly messages and the agent's monthly cap are counted
// and enforced in the reply's write; a reply refused by the agent's cap leaves the account's
// count as it was, and replies committed at once from many threads stop exactly at the limit.
// UsageCounts: the counts the check before the engine reads from memory.
#include "domain/usage.h"
#include "domain/usage_counts.h"
#include "store/usage_repo.h"

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

// UsageCounts (domain/usage_counts.h): a count is read from the database once, then raised by
// the counts committed writes returned (CountsSeen); a lower count told late changes nothing.
class UsageCountsTest : public ReplyCount {
 protected:
  // Adds to the stored count without telling any UsageCounts.
  void add_stored(std::string_view scope, int n) {
    for (int i = 0; i < n; ++i) {
      ASSERT_TRUE(db_->write([&](Connection& c) { return UsageRepo::add_one(c, scope, kMonth); })
                      .ok());
    }
  }
  std::array<int64_t, 3> read(UsageCounts& counts) {
    auto got = counts.read(db_->read()->get(),
                           {{{"acc_1", kMonth}, {"agt_1", kMonth}, {"agt_1", kHour}}});
    EXPECT_TRUE(got.ok());
    return got.ok() ? *got : std::array<int64_t, 3>{-1, -1, -1};
  }

  static constexpr std::string_view kMonth = "m:2026-11";
  static constexpr std::string_view kHour = "h:2026-11-26T22";
};

TEST_F(UsageCountsTest, LearntOnceThenRaisedByWhatCommittedWritesReturned) {
  auto counts = std::make_shared<UsageCounts>();
  add_stored("acc_1", 3);
  add_stored("agt_1", 2);
  EXPECT_EQ(read(*counts), (std::array<int64_t, 3>{3, 2, 0}));
  // Learnt: a change that did not go through it is not seen (none can, on its own database).
  add_stored("acc_1", 5);
  EXPECT_EQ(read(*counts), (std::array<int64_t, 3>{3, 2, 0}));
  counts->saw("acc_1", kMonth, 4);
  counts->saw("agt_1", kHour, 1);
  EXPECT_EQ(read(*counts), (std::array<int64_t, 3>{4, 2, 1}));
  // Told late by a write that committed before another: the higher count stays.
  counts->saw("acc_1", kMonth, 2);
  EXPECT_EQ(read(*counts)[0], 4);
}

TEST_F(UsageCountsTest, AWriteInFlightDuringTheReadIsCountedOnce) {
  auto counts = std::make_shared<UsageCounts>();
  CountsSeen write(counts);
  int64_t* month = write.place("acc_1", std::string(kMonth));
  ASSERT_TRUE(
      db_->write([&](Connection& c) { return UsageRepo::add_one(c, "acc_1", kMonth, month); })
          .ok());
  EXPECT_EQ(*month, 1);
  // Read after the write committed and before it told: the read has it already.
  EXPECT_EQ(read(*counts)[0], 1);
  write.committed();
  EXPECT_EQ(read(*counts)[0], 1);
  // A read before a write committed: the write's count replaces the read's when it tells.
  EXPECT_EQ(read(*counts)[1], 0);
  CountsSeen next(counts);
  int64_t* agent_month = next.place("agt_1", std::string(kMonth));
  ASSERT_TRUE(
      db_->write([&](Connection& c) { return UsageRepo::add_one(c, "agt_1", kMonth, agent_month); })
          .ok());
  EXPECT_EQ(read(*counts)[1], 0);  // committed, not told yet
  next.committed();
  EXPECT_EQ(read(*counts), (std::array<int64_t, 3>{1, 1, 0}));
}

TEST_F(UsageCountsTest, AWriteThatFailedOrCountedNothingTellsNothing) {
  auto counts = std::make_shared<UsageCounts>();
  EXPECT_EQ(read(*counts), (std::array<int64_t, 3>{0, 0, 0}));
  {
    CountsSeen rolled_back(counts);
    *rolled_back.place("acc_1", std::string(kMonth)) = 7;  // its statement ran; no commit came
  }
  CountsSeen nothing(counts);
  nothing.place("acc_1", std::string(kMonth));  // its statement refused, or never ran
  nothing.committed();
  CountsSeen again(counts);
  *again.place("agt_1", std::string(kHour)) = 9;
  again.clear();  // its unit of work runs again, and this time counts nothing
  again.committed();
  EXPECT_EQ(read(*counts), (std::array<int64_t, 3>{0, 0, 0}));
  // A count not learnt yet is not taken from a write: it is read.
  counts->saw("acc_2", kMonth, 1);
  add_stored("acc_2", 4);
  auto got =
      counts->read(db_->read()->get(), {{{"acc_2", kMonth}, {"agt_1", kMonth}, {"agt_1", kHour}}});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ((*got)[0], 4);
}

TEST_F(UsageCountsTest, TheCheckBeforeTheEngineRefusesFromMemory) {
  auto counts = std::make_shared<UsageCounts>();
  const std::string month = month_period(kNow);
  ReplyLimits limits{2, std::nullopt};
  auto check = [&] {
    return check_reply_allowed(db_->read()->get(), "acc_1", "agt_1", limits, kNow, counts.get());
  };
  EXPECT_TRUE(check().ok());
  for (int i = 0; i < 2; ++i) {
    CountsSeen turn(counts);
    int64_t* account = turn.place("acc_1", month);
    ASSERT_TRUE(db_->write([&](Connection& c) -> Result<void> {
                     PendingReplyCount pending;
                     PARLEY_TRY(count_reply_within_limits_later(c, "acc_1", "agt_1", limits, kNow,
                                                                pending));
                     *account = pending.account_count();
                     return pending.check();
                   })
                    .ok());
    turn.committed();
  }
  auto refused = check();
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kMessageLimitReached);
}

}  // namespace
}  // namespace parley
