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

// UsageCounts (domain/usage_counts.h): a count is read from the database until it is learnt,
// learnt only when no write of it was in flight during the read, then kept by the writes' ends.
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

TEST_F(UsageCountsTest, LearntOnceThenKeptByTheWritesEnds) {
  auto counts = std::make_shared<UsageCounts>();
  add_stored("acc_1", 3);
  add_stored("agt_1", 2);
  EXPECT_EQ(read(*counts), (std::array<int64_t, 3>{3, 2, 0}));
  // Learnt: a change that did not go through it is not seen (none can, on its own database).
  add_stored("acc_1", 5);
  EXPECT_EQ(read(*counts), (std::array<int64_t, 3>{3, 2, 0}));
  counts->begin("acc_1", kMonth);
  counts->begin("agt_1", kHour);
  counts->end("acc_1", kMonth, 1);
  counts->end("agt_1", kHour, 1);
  EXPECT_EQ(read(*counts), (std::array<int64_t, 3>{4, 2, 1}));
}

TEST_F(UsageCountsTest, NotLearntWhileAWriteOfItIsInFlight) {
  auto counts = std::make_shared<UsageCounts>();
  counts->begin("acc_1", kMonth);
  add_stored("acc_1", 1);  // the write committed; its end() has not come yet
  EXPECT_EQ(read(*counts)[0], 1);
  counts->end("acc_1", kMonth, 1);
  // Had the read been learnt, the write would now be counted twice.
  EXPECT_EQ(read(*counts)[0], 1);
  add_stored("acc_1", 1);  // learnt by the read above: not seen
  EXPECT_EQ(read(*counts)[0], 1);
}

TEST_F(UsageCountsTest, AWriteThatFailedOrNeverCommittedAddsNothing) {
  auto counts = std::make_shared<UsageCounts>();
  EXPECT_EQ(read(*counts), (std::array<int64_t, 3>{0, 0, 0}));
  {
    CountsInFlight dropped(counts, {{"acc_1", std::string(kMonth), 1}});
  }
  CountsInFlight committed(counts, {{"acc_1", std::string(kMonth), 0}});
  committed.pending()[0].added = 1;  // what the unit of work decided
  committed.committed();
  committed.committed();  // once only
  EXPECT_EQ(read(*counts)[0], 1);
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
    CountsInFlight turn(counts, {{"acc_1", month, 1}, {"agt_1", month, 1}});
    turn.committed();
  }
  auto refused = check();
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kMessageLimitReached);
}

}  // namespace
}  // namespace parley
