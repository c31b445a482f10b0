// The agent cache reads an agent's settings once per change: a write elsewhere reloads the
// record (as fresh as the database) but keeps the settings already read while their text is
// the same.
#include "domain/agent_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "domain/accounts.h"
#include "domain/agents.h"

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

}  // namespace
}  // namespace parley
