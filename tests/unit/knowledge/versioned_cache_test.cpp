// The knowledge version a VersionedCache serves by, against a real SQLite file: the version is read
// from the database only when the knowledge's entity version moved since it was last read. A
// change no commit announced (a raw write) is not read; a change committed through a Database,
// this one or another opened on the same file, is seen by the very next query.
#include "knowledge/versioned_cache.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>

#include <filesystem>

#include "domain/accounts.h"
#include "domain/agents.h"
#include "store/source_repo.h"

namespace parley {
namespace {

class VersionedCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir_template[] = "/tmp/parley_versioned_XXXXXX";
    dir_ = mkdtemp(dir_template);
    db_ = open(dir_);
    Services s{*db_, clock_, random_};
    auto account = create_account(s, "Acme", "starter");
    ASSERT_TRUE(account.ok());
    auto agent = create_agent(s, account->id, "Helper", false, "");
    ASSERT_TRUE(agent.ok());
    agent_ = agent->id;
  }
  void TearDown() override {
    db_.reset();
    std::filesystem::remove_all(dir_);
  }
  static std::unique_ptr<Database> open(const std::string& dir) {
    auto db = open_database({"sqlite:" + dir + "/parley.db", Durability::kNormal});
    EXPECT_TRUE(db.ok());
    return db.ok() ? std::move(*db) : nullptr;
  }
  void bump(Database& db) {
    ASSERT_TRUE(db.write([this](Connection& c) -> Result<void> {
                    PARLEY_TRY(SourceRepo::bump_version(c, agent_));
                    return {};
                  }).ok());
  }
  // A write no Database announces: the row moves, no entity version does.
  void write_behind_its_back(int64_t version) {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open((dir_ + "/parley.db").c_str(), &raw), SQLITE_OK);
    std::string sql = "UPDATE knowledge_versions SET version = " + std::to_string(version) +
                      " WHERE agent_id = '" + agent_ + "'";
    EXPECT_EQ(sqlite3_exec(raw, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(raw);
  }
  // The version the cache's value was loaded for, and how many loads it took so far.
  int64_t served(VersionedCache<int64_t, int>& cache) {
    return cache.with_current(
        agent_, 0,
        [this](int64_t& value, int64_t version) {
          ++loads_;
          value = version;
          return true;
        },
        [](const int64_t& value) { return value; });
  }

  std::string dir_;
  std::unique_ptr<Database> db_;
  ManualClock clock_{1'795'345'572'123};
  SecureRandom random_;
  std::string agent_;
  int loads_ = 0;
};

TEST_F(VersionedCacheTest, ReadsTheVersionOnlyWhenACommitMovedIt) {
  bump(*db_);
  VersionedCache<int64_t, int> cache(*db_);
  EXPECT_EQ(served(cache), 1);
  EXPECT_EQ(loads_, 1);
  // Not read again: a row changed behind every Database's back stays unseen.
  write_behind_its_back(7);
  EXPECT_EQ(served(cache), 1);
  EXPECT_EQ(loads_, 1);
  // A commit moves the entity's version: the next query reads the row (7 + 1) and reloads.
  bump(*db_);
  EXPECT_EQ(served(cache), 8);
  EXPECT_EQ(loads_, 2);
  EXPECT_EQ(served(cache), 8);
  EXPECT_EQ(loads_, 2);
}

TEST_F(VersionedCacheTest, AnotherProcesssCommitIsSeenByTheNextQuery) {
  bump(*db_);
  VersionedCache<int64_t, int> cache(*db_);
  EXPECT_EQ(served(cache), 1);
  auto other = open(dir_);  // as `parley admin` would, in its own process
  ASSERT_NE(other, nullptr);
  bump(*other);
  EXPECT_EQ(served(cache), 2);
  EXPECT_EQ(loads_, 2);
}

}  // namespace
}  // namespace parley
