// The agent cache reads an agent's settings once per change: a change of the agent reloads the
// record (as fresh as the database) but keeps the settings already read while their text is
// the same; writes of other rows leave the entry alone, and a commit that moves only the agent's
// counters hands the entry its new counts.
#include "domain/agent_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "domain/accounts.h"
#include "domain/agents.h"
#include "store/contact_repo.h"

namespace parley {
namespace {

class AgentCacheTest : public ::testing::Test {
 protected:
  AgentCacheTest()
      : dir_(std::filesystem::temp_directory_path() /
             ("parley-agent-cache-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir_);
    db_ = std::move(open_database({"sqlite:" + (dir_ / "db.sqlite").string(), Durability::kNormal}))
              .value();
    Services s{*db_, clock_, random_};
    account_ = create_account(s, "Acme", "starter")->id;
    agent_ = create_agent(s, account_, "Helper", false, R"({"followUps": true})")->id;
  }
  ~AgentCacheTest() override {
    db_.reset();
    std::filesystem::remove_all(dir_);
  }

  Result<AgentRecord> update(AgentChanges changes) {
    Services s{*db_, clock_, random_};
    return update_agent(s, agent_, changes);
  }

  std::filesystem::path dir_;
  ManualClock clock_{1'795'345'572'123};
  SecureRandom random_;
  std::unique_ptr<Database> db_;
  std::string account_, agent_;
};

TEST_F(AgentCacheTest, SettingsAreReadOncePerChange) {
  AgentCache cache(*db_);
  auto first = cache.get(account_, agent_);
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE((*first)->settings->reply.follow_ups);
  EXPECT_EQ(cache.get(account_, agent_).value(), *first);  // nothing written: the same entry

  ASSERT_TRUE(update({.name = "Renamed"}).ok());
  auto renamed = cache.get(account_, agent_);
  ASSERT_TRUE(renamed.ok());
  EXPECT_EQ((*renamed)->record.name, "Renamed");
  EXPECT_EQ((*renamed)->settings, (*first)->settings);  // same text: not read again

  ASSERT_TRUE(update({.settings_update = R"({"followUps": false})"}).ok());
  auto changed = cache.get(account_, agent_);
  ASSERT_TRUE(changed.ok());
  EXPECT_NE((*changed)->settings, (*first)->settings);
  EXPECT_FALSE((*changed)->settings->reply.follow_ups);
}

TEST_F(AgentCacheTest, AnotherAccountsAgentIsNotFound) {
  AgentCache cache(*db_);
  auto other = cache.get("acc_other", agent_);
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().message, "No agent " + agent_ + " in this account.");
  EXPECT_EQ(cache.find_any("agt_missing").value(), nullptr);
  EXPECT_EQ(cache.find_any(agent_).value()->record.account_id, account_);
}

TEST_F(AgentCacheTest, WritesOfOtherRowsLeaveTheEntryCurrent) {
  AgentCache cache(*db_);
  ASSERT_TRUE(cache.get(account_, agent_).ok());
  Services s{*db_, clock_, random_};
  const std::string other = create_agent(s, account_, "Other", false, "")->id;
  ASSERT_TRUE(db_->write([&](Connection& c) -> Result<void> {
                   ContactRecord x;
                   x.id = "ctc_cache";
                   x.agent_id = other;
                   x.account_id = account_;
                   x.email = "x@example.com";
                   x.first_seen_at = x.last_seen_at = x.created_at = x.updated_at = 1;
                   return ContactRepo::insert_counted(c, x);
                 })
                  .ok());
  EXPECT_NE(cache.fresh(agent_), nullptr);  // no read needed
}

TEST_F(AgentCacheTest, ACountersOnlyCommitHandsTheEntryItsCounts) {
  AgentCache cache(*db_);
  auto first = cache.get(account_, agent_).value();
  ASSERT_TRUE(db_->write([&](Connection& c) -> Result<void> {
                   PARLEY_TRY(AgentRepo::add_to_counter(c, agent_, AgentCounter::kMessages, 2));
                   return AgentRepo::add_to_counter(c, agent_, AgentCounter::kConversations, 1);
                 })
                  .ok());
  auto now = cache.fresh(agent_);
  ASSERT_NE(now, nullptr);  // still current, without a read
  EXPECT_EQ(now->record.messages_count, 2);
  EXPECT_EQ(now->record.conversations_count, 1);
  EXPECT_EQ(now->settings, first->settings);
  EXPECT_EQ(now->record.name, "Helper");

  // Another process's commit (a second handle on the file): the entry is stale and reloads.
  auto second = open_database({"sqlite:" + (dir_ / "db.sqlite").string(), Durability::kNormal});
  ASSERT_TRUE(second.ok());
  ASSERT_TRUE((*second)
                  ->write([&](Connection& c) {
                    return AgentRepo::add_to_counter(c, agent_, AgentCounter::kLeads, 1);
                  })
                  .ok());
  EXPECT_EQ(cache.fresh(agent_), nullptr);
  auto reloaded = cache.get(account_, agent_).value();
  EXPECT_EQ(reloaded->record.leads_count, 1);
  EXPECT_EQ(reloaded->record.messages_count, 2);
}

TEST_F(AgentCacheTest, AChangeOfTheAgentIsSeenAtOnce) {
  AgentCache cache(*db_);
  ASSERT_TRUE(cache.get(account_, agent_).ok());
  ASSERT_TRUE(update({.name = "Renamed"}).ok());
  EXPECT_EQ(cache.fresh(agent_), nullptr);
  EXPECT_EQ(cache.get(account_, agent_).value()->record.name, "Renamed");
  EXPECT_NE(cache.fresh(agent_), nullptr);
}

}  // namespace
}  // namespace parley
