// UsageCounts: a count is read from the database until it is learnt, learnt only when no write of
// it was in flight during the read, then kept by the writes' ends; on a shared database every
// read goes to the database.
#include "domain/usage_counts.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "domain/usage.h"

namespace parley {
namespace {

class UsageCountsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir_template[] = "/tmp/parley_usage_counts_XXXXXX";
    dir_ = mkdtemp(dir_template);
    auto db = open_database({"sqlite:" + dir_ + "/parley.db", Durability::kNormal});
    ASSERT_TRUE(db.ok());
    db_ = std::move(*db);
  }
  void TearDown() override {
    db_.reset();
    std::filesystem::remove_all(dir_);
  }
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
  std::string dir_;
  std::unique_ptr<Database> db_;
};

TEST_F(UsageCountsTest, LearntOnceThenKeptByTheWritesEnds) {
  UsageCounts counts(true);
  add_stored("acc_1", 3);
  add_stored("agt_1", 2);
  EXPECT_EQ(read(counts), (std::array<int64_t, 3>{3, 2, 0}));
  // Learnt: a change that did not go through it is not seen (none can, on its own database).
  add_stored("acc_1", 5);
  EXPECT_EQ(read(counts), (std::array<int64_t, 3>{3, 2, 0}));
  counts.begin("acc_1", kMonth);
  counts.begin("agt_1", kHour);
  counts.end("acc_1", kMonth, 1);
  counts.end("agt_1", kHour, 1);
  EXPECT_EQ(read(counts), (std::array<int64_t, 3>{4, 2, 1}));
}

TEST_F(UsageCountsTest, NotLearntWhileAWriteOfItIsInFlight) {
  UsageCounts counts(true);
  counts.begin("acc_1", kMonth);
  add_stored("acc_1", 1);  // the write committed; its end() has not come yet
  EXPECT_EQ(read(counts)[0], 1);
  counts.end("acc_1", kMonth, 1);
  // Had the read been learnt, the write would now be counted twice.
  EXPECT_EQ(read(counts)[0], 1);
  add_stored("acc_1", 1);  // learnt by the read above: not seen
  EXPECT_EQ(read(counts)[0], 1);
}

TEST_F(UsageCountsTest, AWriteThatFailedOrNeverCommittedAddsNothing) {
  UsageCounts counts(true);
  EXPECT_EQ(read(counts), (std::array<int64_t, 3>{0, 0, 0}));
  {
    CountsInFlight dropped(counts, {{"acc_1", std::string(kMonth), 1}});
  }
  CountsInFlight committed(counts, {{"acc_1", std::string(kMonth), 0}});
  committed.pending()[0].added = 1;  // what the unit of work decided
  committed.committed();
  committed.committed();  // once only
  EXPECT_EQ(read(counts)[0], 1);
}

TEST_F(UsageCountsTest, OnASharedDatabaseEveryReadGoesToIt) {
  UsageCounts counts(false);
  EXPECT_EQ(read(counts)[0], 0);
  add_stored("acc_1", 2);
  counts.begin("acc_1", kMonth);
  counts.end("acc_1", kMonth, 7);
  EXPECT_EQ(read(counts)[0], 2);
  EXPECT_EQ(counts.size(), 0u);
}

TEST_F(UsageCountsTest, TheCheckBeforeTheEngineRefusesFromMemory) {
  UsageCounts counts(true);
  constexpr int64_t kNow = 1'790'000'000'000;
  const std::string month = month_period(kNow);
  ReplyLimits limits{2, std::nullopt};
  auto check = [&] {
    return check_reply_allowed(db_->read()->get(), "acc_1", "agt_1", limits, kNow, &counts);
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
