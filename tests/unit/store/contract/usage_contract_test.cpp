// Usage counters: counts per scope and period, and the capped count that concurrent replies
// must never take past the plan's limit.
#include <array>
#include <optional>
#include <vector>

#include "store/postgres/pg_database.h"
#include "store/usage_repo.h"
#include "store_contract.h"

namespace parley {
namespace {

TEST_P(StoreContract, UsageIsCountedPerScopeAndPeriod) {
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(UsageRepo::add_one(c, account_, "m:2026-09"));
    PARLEY_TRY(UsageRepo::add_one(c, account_, "m:2026-09"));
    return UsageRepo::add_one(c, account_, "m:2026-10");
  });
  EXPECT_EQ(*UsageRepo::count(reader(), account_, "m:2026-09"), 2);
  EXPECT_EQ(*UsageRepo::count(reader(), account_, "m:2026-10"), 1);
  EXPECT_EQ(*UsageRepo::count(reader(), agent_, "m:2026-09"), 0);
}

TEST_P(StoreContract, ACappedCountStopsAtTheCap) {
  std::vector<bool> added;
  write([&](Connection& c) -> Result<void> {
    added.clear();
    for (int i = 0; i < 4; ++i) {
      PARLEY_ASSIGN_OR_RETURN(bool a, UsageRepo::add_one_below(c, account_, "m:2026-09", 3));
      added.push_back(a);
    }
    PARLEY_ASSIGN_OR_RETURN(bool none, UsageRepo::add_one_below(c, agent_, "m:2026-09", 0));
    added.push_back(none);
    return {};
  });
  EXPECT_EQ(added, (std::vector<bool>{true, true, true, false, false}));
  EXPECT_EQ(*UsageRepo::count(reader(), account_, "m:2026-09"), 3);
  EXPECT_EQ(*UsageRepo::count(reader(), agent_, "m:2026-09"), 0);
}

// A count taken only while other counts are below their limits: each limit refuses it, none
// moves anything then, and a count with no row yet is 0 (below any limit above 0).
TEST_P(StoreContract, ACountIsTakenOnlyWhileTheOtherCountsAreBelowTheirLimits) {
  std::vector<std::optional<int64_t>> made;
  write([&](Connection& c) -> Result<void> {
    made.clear();
    PARLEY_TRY(UsageRepo::add_one(c, agent_, "m:2026-09"));
    PARLEY_TRY(UsageRepo::add_one(c, agent_, "m:2026-09"));
    const UsageRepo::Limit account{account_, "m:2026-09", 2};
    auto take = [&](std::array<UsageRepo::Limit, 2> under) -> Result<void> {
      PARLEY_ASSIGN_OR_RETURN(auto n, UsageRepo::add_one_within(c, account, under));
      made.push_back(n);
      return {};
    };
    // No row for the hour yet; the agent's month at 2, below 3.
    PARLEY_TRY(take({{{agent_, "m:2026-09", 3}, {agent_, "h:2026-09-01T10", 1}}}));
    // The agent's month at its limit.
    PARLEY_TRY(take({{{agent_, "m:2026-09", 2}, {agent_, "h:2026-09-01T10", 1}}}));
    // The hour's limit 0.
    PARLEY_TRY(take({{{agent_, "m:2026-09", UsageRepo::kNoCap}, {agent_, "h:2026-09-01T10", 0}}}));
    PARLEY_TRY(take({{{agent_, "m:2026-09", UsageRepo::kNoCap}, {agent_, "h:2026-09-01T10", 1}}}));
    // The account's own limit reached.
    PARLEY_TRY(take({{{agent_, "m:2026-09", UsageRepo::kNoCap}, {agent_, "h:2026-09-01T10", 1}}}));
    return {};
  });
  EXPECT_EQ(made,
            (std::vector<std::optional<int64_t>>{1, std::nullopt, std::nullopt, 2, std::nullopt}));
  EXPECT_EQ(*UsageRepo::count(reader(), account_, "m:2026-09"), 2);
  EXPECT_EQ(*UsageRepo::count(reader(), agent_, "m:2026-09"), 2);
  EXPECT_EQ(*UsageRepo::count(reader(), agent_, "h:2026-09-01T10"), 0);
}

TEST_P(StoreContract, ACountReturnsTheCountItMadeOnceItsAnswerIsIn) {
  int64_t first = -1, second = -1, capped = -1, refused = -1;
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(UsageRepo::add_one(c, account_, "m:2026-09", &first));
    PARLEY_TRY(UsageRepo::add_one(c, account_, "m:2026-09", &second));
    const std::array<UsageRepo::Add, 1> below{{{account_, "m:2026-09", 3, &capped}}};
    PARLEY_TRY(UsageRepo::add_later(c, below));
    const std::array<UsageRepo::Add, 1> above{{{account_, "m:2026-09", 3, &refused}}};
    return UsageRepo::add_later(c, above);
  });
  EXPECT_EQ(first, 1);
  EXPECT_EQ(second, 2);
  EXPECT_EQ(capped, 3);
  EXPECT_EQ(refused, 0);
  EXPECT_EQ(*UsageRepo::count(reader(), account_, "m:2026-09"), 3);
}

TEST_P(StoreContract, ACountGivenBackTakesOneOffAndNeverGoesBelowZero) {
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(UsageRepo::add_one(c, account_, "m:2026-09"));
    PARLEY_TRY(UsageRepo::add_one(c, account_, "m:2026-09"));
    PARLEY_TRY(UsageRepo::subtract_one(c, account_, "m:2026-09"));
    PARLEY_TRY(UsageRepo::subtract_one(c, agent_, "m:2026-09"));  // no count: nothing to take
    PARLEY_TRY(UsageRepo::add_one(c, agent_, "m:2026-10"));
    PARLEY_TRY(UsageRepo::subtract_one(c, agent_, "m:2026-10"));
    return UsageRepo::subtract_one(c, agent_, "m:2026-10");
  });
  EXPECT_EQ(*UsageRepo::count(reader(), account_, "m:2026-09"), 1);
  EXPECT_EQ(*UsageRepo::count(reader(), agent_, "m:2026-09"), 0);
  EXPECT_EQ(*UsageRepo::count(reader(), agent_, "m:2026-10"), 0);
}

// A turn's counts in one statement: each pair as add_one or add_one_below would count it,
// each told the count it made (0 where its cap refused it).
TEST_P(StoreContract, SeveralCountsInOneStatementEachKeepTheirCap) {
  int64_t month = -1, hour = -1, agent_month = -1, full = -1, none = -1, again = -1;
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(UsageRepo::add_one(c, agent_, "m:2026-09"));
    PARLEY_TRY(UsageRepo::add_one(c, agent_, "m:2026-09"));  // the agent's month at its cap of 2
    const std::array<UsageRepo::Add, 3> first{
        {{account_, "m:2026-09", 5, &month},
         {agent_, "h:2026-09-21T10", UsageRepo::kNoCap, &hour},
         {agent_, "m:2026-09", 2, &full}}};
    PARLEY_TRY(UsageRepo::add_later(c, first));
    // A cap of 0 counts nothing; a pair's cap is its own (the account's 5 is not the agent's).
    const std::array<UsageRepo::Add, 3> second{{{account_, "m:2026-10", 0, &none},
                                                {account_, "m:2026-09", 5, &again},
                                                {agent_, "m:2026-10", 1, &agent_month}}};
    return UsageRepo::add_later(c, second);
  });
  EXPECT_EQ(month, 1);
  EXPECT_EQ(hour, 1);
  EXPECT_EQ(full, 0);
  EXPECT_EQ(none, 0);
  EXPECT_EQ(again, 2);
  EXPECT_EQ(agent_month, 1);
  EXPECT_EQ(*UsageRepo::count(reader(), account_, "m:2026-09"), 2);
  EXPECT_EQ(*UsageRepo::count(reader(), agent_, "m:2026-09"), 2);
  EXPECT_EQ(*UsageRepo::count(reader(), agent_, "h:2026-09-21T10"), 1);
  EXPECT_EQ(*UsageRepo::count(reader(), account_, "m:2026-10"), 0);
  EXPECT_EQ(*UsageRepo::count(reader(), agent_, "m:2026-10"), 1);
}

// An agent with a monthly cap: its month under the cap, its hour without one (a turn on
// PostgreSQL, where the account's month is counted ahead).
TEST_P(StoreContract, ACappedAndAnUncappedCountInOneStatement) {
  int64_t month = -1, hour = -1, refused = -1, hour_again = -1;
  write([&](Connection& c) -> Result<void> {
    const std::array<UsageRepo::Add, 2> first{
        {{agent_, "m:2026-09", 1, &month}, {agent_, "h:2026-09-21T10", UsageRepo::kNoCap, &hour}}};
    PARLEY_TRY(UsageRepo::add_later(c, first));
    const std::array<UsageRepo::Add, 2> second{
        {{agent_, "m:2026-09", 1, &refused},
         {agent_, "h:2026-09-21T10", UsageRepo::kNoCap, &hour_again}}};
    return UsageRepo::add_later(c, second);
  });
  EXPECT_EQ(month, 1);
  EXPECT_EQ(hour, 1);
  EXPECT_EQ(refused, 0);
  EXPECT_EQ(hour_again, 2);
  EXPECT_EQ(*UsageRepo::count(reader(), agent_, "m:2026-09"), 1);
  EXPECT_EQ(*UsageRepo::count(reader(), agent_, "h:2026-09-21T10"), 2);
}

TEST_P(StoreContract, SeveralCountsWithoutCapsAreOneStatementToo) {
  int64_t a = -1, b = -1;
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(UsageRepo::add_one(c, agent_, "m:2026-09"));
    const std::array<UsageRepo::Add, 2> adds{{{agent_, "m:2026-09", UsageRepo::kNoCap, &a},
                                              {agent_, "h:2026-09-21T10", UsageRepo::kNoCap, &b}}};
    return UsageRepo::add_later(c, adds);
  });
  EXPECT_EQ(a, 2);
  EXPECT_EQ(b, 1);
  // add_one's statement and add_later's: one statement for the two pairs.
  if (GetParam().name == "Postgres") {
    EXPECT_EQ(PgDatabase::last_write_cost().statements, 2);
  }
}

TEST_P(StoreContract, OnePairCountedTwiceInOneStatementIsRefused) {
  Connection& c = reader();
  const std::array<UsageRepo::Add, 2> twice{{{agent_, "m:2026-09"}, {agent_, "m:2026-09"}}};
  auto r = UsageRepo::add_later(c, twice);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInternal);
  EXPECT_EQ(*UsageRepo::count(reader(), agent_, "m:2026-09"), 0);
}

TEST_P(StoreContract, ConcurrentCountsAreEachCounted) {
  constexpr int kEach = 25;
  concurrently([&](int, Database& db) {
    for (int i = 0; i < kEach; ++i) {
      auto r =
          db.write([&](Connection& c) { return UsageRepo::add_one(c, agent_, "h:2026-09-21T10"); });
      EXPECT_TRUE(r.ok());
    }
  });
  EXPECT_EQ(*UsageRepo::count(reader(), agent_, "h:2026-09-21T10"), kThreads * kEach);
}

TEST_P(StoreContract, ConcurrentCappedCountsAddExactlyUpToTheCap) {
  constexpr int kEach = 10;
  constexpr int64_t kCap = 37;
  std::atomic<int> accepted{0};
  concurrently([&](int, Database& db) {
    for (int i = 0; i < kEach; ++i) {
      bool added = false;
      auto r = db.write([&](Connection& c) -> Result<void> {
        PARLEY_ASSIGN_OR_RETURN(added, UsageRepo::add_one_below(c, account_, "m:2026-09", kCap));
        return {};
      });
      EXPECT_TRUE(r.ok());
      if (added) ++accepted;
    }
  });
  EXPECT_EQ(accepted.load(), kCap);
  EXPECT_EQ(*UsageRepo::count(reader(), account_, "m:2026-09"), kCap);
}

}  // namespace
}  // namespace parley
