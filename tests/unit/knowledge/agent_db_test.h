// A test fixture for the knowledge caches that read a real SQLite database: a temporary database
// with one account and one agent, removed after the test.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "core/clock.h"
#include "core/random.h"
#include "domain/accounts.h"
#include "domain/agents.h"
#include "domain/sources.h"
#include "store/db.h"
#include "store/services.h"

namespace parley::test {

class AgentDbTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("parley_agent_db_" + random_base62(random_, 8));
    std::filesystem::create_directories(dir_);
    auto db = open_database({"sqlite:" + (dir_ / "parley.db").string(), Durability::kNormal});
    ASSERT_TRUE(db.ok()) << db.error().message;
    db_ = std::move(*db);
    Services s = services();
    auto account = create_account(s, "Acme", "starter");
    ASSERT_TRUE(account.ok());
    auto agent = create_agent(s, account->id, "Bot", false, "");
    ASSERT_TRUE(agent.ok());
    account_ = account->id;
    agent_ = agent->id;
  }
  void TearDown() override {
    db_.reset();
    std::filesystem::remove_all(dir_);
  }
  Services services() { return Services{*db_, clock_, random_}; }
  // Claims the next pending source and records it trained, as a worker does (no vectors).
  TrainingFinished train_next() {
    Services s = services();
    auto claimed = claim_next_source(s, 60000);
    EXPECT_TRUE(claimed.ok() && claimed->has_value());
    if (!claimed.ok() || !claimed->has_value()) return {};
    auto finished = finish_training(s, **claimed, std::nullopt);
    EXPECT_TRUE(finished.ok() && finished->applied);
    return finished.ok() ? *finished : TrainingFinished{};
  }
  // Adds `source` to `agent` (this fixture's when empty) and trains it.
  TrainingFinished train(const NewSource& source, const std::string& agent = "") {
    Services s = services();
    EXPECT_TRUE(add_source(s, account_, agent.empty() ? agent_ : agent, source, nullptr).ok());
    return train_next();
  }

  std::filesystem::path dir_;
  ManualClock clock_{1'700'000'000'000};
  SecureRandom random_;
  std::unique_ptr<Database> db_;
  std::string account_, agent_;
};

}  // namespace parley::test
