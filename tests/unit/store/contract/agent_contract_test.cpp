// Accounts and agents: insert, find within the account, list, update, counters moved by many
// writers at once, and a read-modify-write of the row under AgentRepo::lock.
#include <chrono>
#include <future>
#include <thread>

#include "store/account_repo.h"
#include "store/agent_repo.h"
#include "store/gap_repo.h"
#include "store/member_repo.h"
#include "store_contract.h"

namespace parley {
namespace {

TEST_P(StoreContract, AnAgentIsFoundOnlyWithinItsAccountAndListedNewestFirst) {
  write([&](Connection& c) -> Result<void> {
    AgentRecord a;
    a.id = "agt_newer";
    a.account_id = account_;
    a.name = "Newer";
    a.settings = R"({"tone":"warm"})";
    a.created_at = a.updated_at = now_ + 1;
    return AgentRepo::insert(c, a);
  });
  auto found = *AgentRepo::find(reader(), account_, "agt_newer");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->settings, R"({"tone":"warm"})");
  EXPECT_EQ(found->status, "untrained");
  EXPECT_FALSE(AgentRepo::find(reader(), "acc_other", "agt_newer")->has_value());
  auto all = *AgentRepo::list(reader(), account_);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].id, "agt_newer");
  EXPECT_EQ(all[1].id, agent_);
  auto account = *AccountRepo::find(reader(), account_);
  ASSERT_TRUE(account.has_value());
  EXPECT_EQ(account->plan, Plan::kPro);
}

TEST_P(StoreContract, LockingAMissingRowSaysSo) {
  bool agent = false, missing = true;
  write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(agent, AgentRepo::lock(c, agent_));
    PARLEY_ASSIGN_OR_RETURN(missing, AgentRepo::lock(c, "agt_missing"));
    return {};
  });
  EXPECT_TRUE(agent);
  EXPECT_FALSE(missing);
}

TEST_P(StoreContract, ConcurrentCounterMovesAreEachCounted) {
  constexpr int kEach = 25;
  concurrently([&](int t, Database& db) {
    for (int i = 0; i < kEach; ++i) {
      auto r = db.write([&](Connection& c) {
        return AgentRepo::add_to_counter(c, agent_, AgentCounter::kSources, t % 4 == 3 ? -1 : 1);
      });
      EXPECT_TRUE(r.ok());
    }
  });
  // Two threads of eight take one off each time; six add one.
  EXPECT_EQ((**AgentRepo::find_any(reader(), agent_)).sources_count, (6 - 2) * kEach);
}

TEST_P(StoreContract, ConcurrentReadModifyWritesUnderTheLockLoseNoChange) {
  constexpr int kEach = 15;
  concurrently([&](int, Database& db) {
    for (int i = 0; i < kEach; ++i) {
      auto r = db.write([&](Connection& c) -> Result<void> {
        PARLEY_TRY(AgentRepo::lock(c, agent_));
        PARLEY_ASSIGN_OR_RETURN(auto a, AgentRepo::find_any(c, agent_));
        a->characters += 1;
        return AgentRepo::update(c, *a);
      });
      EXPECT_TRUE(r.ok());
    }
  });
  EXPECT_EQ((**AgentRepo::find_any(reader(), agent_)).characters, kThreads * kEach);
}

// The row's lock queues its writers, not a transaction that inserts a row referring to it: a
// writer that did so and then asks for the lock cannot deadlock with the holder (PostgreSQL; SQLite
// has one writer at a time).
TEST_P(StoreContract, ALockedRowStillTakesRowsThatReferToIt) {
  if (GetParam().name != "Postgres") GTEST_SKIP() << "one writer at a time";
  std::promise<void> locked, inserted;
  std::future<void> inserted_done = inserted.get_future();
  bool in_time = false;
  std::thread holder([&] {
    auto r = db().write([&](Connection& c) -> Result<void> {
      PARLEY_ASSIGN_OR_RETURN(bool found, AgentRepo::lock(c, agent_));
      EXPECT_TRUE(found);
      locked.set_value();
      in_time = inserted_done.wait_for(std::chrono::seconds(5)) == std::future_status::ready;
      return {};
    });
    EXPECT_TRUE(r.ok());
  });
  locked.get_future().wait();
  // A row of the agent's inserted meanwhile: its foreign key's check reads the locked row.
  auto r = other().write([&](Connection& c) -> Result<void> {
    return GapRepo::insert_group(c, {"gpg_1", agent_, account_, "parcel", now_, now_, {}, {}});
  });
  inserted.set_value();
  holder.join();
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(in_time) << "the insert waited for the lock's transaction to end";
}

TEST_P(StoreContract, ConcurrentOwnerRemovalsUnderTheAccountLockKeepTheLastOwner) {
  write([&](Connection& c) -> Result<void> {
    for (int i = 0; i < kThreads; ++i) {
      MemberRecord m;
      m.id = "mem_" + std::to_string(i);
      m.account_id = account_;
      m.email = m.id + "@example.com";
      m.role = "owner";
      m.created_at = m.updated_at = now_ + i;
      PARLEY_TRY(MemberRepo::insert(c, m));
    }
    return {};
  });
  // Every owner removes the next one, all at once; the check is the one the domain makes.
  std::atomic<int> removed{0};
  concurrently([&](int t, Database& db) {
    bool gone = false;
    auto r = db.write([&](Connection& c) -> Result<void> {
      gone = false;
      PARLEY_TRY(AccountRepo::lock(c, account_));
      PARLEY_ASSIGN_OR_RETURN(auto all, MemberRepo::list(c, account_));
      if (all.size() <= 1) return {};
      PARLEY_ASSIGN_OR_RETURN(gone,
                              MemberRepo::remove(c, "mem_" + std::to_string((t + 1) % kThreads)));
      return {};
    });
    EXPECT_TRUE(r.ok());
    if (r.ok() && gone) ++removed;
  });
  EXPECT_EQ(MemberRepo::list(reader(), account_)->size(), 1u);
  EXPECT_EQ(removed.load(), kThreads - 1);
}

}  // namespace
}  // namespace parley
