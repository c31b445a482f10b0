// The knowledge version a VersionedCache serves by, against a real SQLite file: the version is read
// from the database only when the knowledge's entity version moved since it was last read. A
// change no commit announced (a raw write) is not read; a change committed through a Database,
// this one or another opened on the same file, is seen by the very next query. Caches sharing a
// MemoryBudget stay within it together, the least recently used value of any of them dropped first.
#include "knowledge/versioned_cache.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>

#include <filesystem>
#include <thread>

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
    account_ = account->id;
  }
  std::string new_agent(const std::string& name) {
    Services s{*db_, clock_, random_};
    auto agent = create_agent(s, account_, name, false, "");
    EXPECT_TRUE(agent.ok());
    return agent.ok() ? agent->id : "";
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
  std::string account_;
  int loads_ = 0;
};

TEST_F(VersionedCacheTest, AReaderWhoSeesACommitBeforeItIsPublishedIsServedWhatItWrote) {
  bump(*db_);
  auto cache = std::make_shared<VersionedCache<int64_t, int>>(*db_);
  EXPECT_EQ(served(*cache), 1);
  // A read made after the commit and before its knowledge change is published: from the observer
  // of the commit's first change (an account's), on the writing thread. The observer stays with
  // the database: it holds what it uses.
  auto inside = std::make_shared<int64_t>(-1);
  auto armed = std::make_shared<std::atomic<bool>>(false);
  entity_source(*db_)->add_commit_observer(
      [this, inside, armed, cache](const EntityChange& change, uint64_t) {
        if (*armed && change.kind == Entity::kAccount && *inside < 0) *inside = served(*cache);
      });
  *armed = true;
  ASSERT_TRUE(db_->write([this](Connection& c) -> Result<void> {
                   record_change(c, Entity::kAccount, account_);
                   PARLEY_TRY(SourceRepo::bump_version(c, agent_));
                   return {};
                 })
                  .ok());
  *armed = false;
  EXPECT_EQ(*inside, 2);  // not the 1 the cache held before the commit
  EXPECT_EQ(served(*cache), 2);
}

using TextCache = VersionedCache<std::string, int>;

// A cache of one string per agent, measured by its length.
std::unique_ptr<TextCache> text_cache(Database& db, MemoryBudget& budget) {
  return std::make_unique<TextCache>(db, &budget, [](const std::string& v) { return v.size(); });
}

// Serves the agent's value from `cache`, loading `bytes` characters when it is not in memory;
// whether it had to load.
bool use(TextCache& cache, const std::string& agent, size_t bytes) {
  bool loaded = false;
  cache.with_current(
      agent, 0,
      [&](std::string& value, int64_t) {
        loaded = true;
        value.assign(bytes, 'x');
        return true;
      },
      [](const std::string&) { return 0; });
  return loaded;
}

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

TEST_F(VersionedCacheTest, CachesSharingABudgetDropTheLeastRecentlyUsedOfAny) {
  const std::string a1 = agent_, a2 = new_agent("Two"), a3 = new_agent("Three");
  MemoryBudget budget(250);
  auto bm25 = text_cache(*db_, budget);
  auto vectors = text_cache(*db_, budget);
  EXPECT_TRUE(use(*bm25, a1, 100));
  EXPECT_TRUE(use(*vectors, a1, 100));
  EXPECT_EQ(budget.total(), 200u);
  // Past the budget, the oldest value of either cache leaves: a1's index, used before a1's
  // vectors.
  EXPECT_TRUE(use(*bm25, a2, 100));
  EXPECT_EQ(budget.total(), 200u);
  EXPECT_EQ(bm25->figures().evictions, 1u);
  EXPECT_EQ(vectors->figures().evictions, 0u);
  EXPECT_FALSE(use(*vectors, a1, 100));  // still in memory, and now the most recent
  // a3's vectors push out a2's index (used before a1's vectors were used again).
  EXPECT_TRUE(use(*vectors, a3, 100));
  EXPECT_EQ(bm25->figures().evictions, 2u);
  EXPECT_EQ(bm25->figures().bytes, 0u);
  EXPECT_EQ(vectors->figures().bytes, 200u);
  EXPECT_EQ(budget.total(), 200u);
  EXPECT_FALSE(use(*vectors, a1, 100));
  EXPECT_FALSE(use(*vectors, a3, 100));
  EXPECT_TRUE(use(*bm25, a1, 100));             // came back by loading again
  EXPECT_EQ(vectors->figures().evictions, 1u);  // a1's vectors, used before a3's

  // One value larger than the budget is served, alone.
  EXPECT_TRUE(use(*bm25, a2, 1000));
  EXPECT_EQ(budget.total(), 1000u);
  EXPECT_EQ(vectors->figures().values, 0u);
  EXPECT_FALSE(use(*bm25, a2, 1000));

  // A cache that goes takes its bytes with it.
  bm25.reset();
  EXPECT_EQ(budget.total(), 0u);
  EXPECT_TRUE(use(*vectors, a1, 200));
  EXPECT_EQ(budget.total(), 200u);
}

// An agent whose index and vectors exceed the budget together keeps both while it is served:
// neither pushes the other out (which made each question load one of them again).
TEST_F(VersionedCacheTest, AnAgentLargerThanTheBudgetKeepsAllItsValues) {
  const std::string a1 = agent_, a2 = new_agent("Two");
  MemoryBudget budget(250);
  auto bm25 = text_cache(*db_, budget);
  auto vectors = text_cache(*db_, budget);
  EXPECT_TRUE(use(*bm25, a2, 100));
  EXPECT_TRUE(use(*bm25, a1, 200));     // a2's index leaves
  EXPECT_TRUE(use(*vectors, a1, 200));  // a1's index, older, stays
  EXPECT_EQ(budget.total(), 400u);
  for (int question = 0; question < 3; ++question) {
    EXPECT_FALSE(use(*bm25, a1, 200));
    EXPECT_FALSE(use(*vectors, a1, 200));
  }
  EXPECT_EQ(bm25->figures().evictions, 1u);
  EXPECT_EQ(vectors->figures().evictions, 0u);
  // Another agent served: the first's values are the oldest and leave.
  EXPECT_TRUE(use(*bm25, a2, 100));
  EXPECT_EQ(budget.total(), 100u);
  EXPECT_EQ(bm25->figures().evictions, 2u);
  EXPECT_EQ(vectors->figures().evictions, 1u);
}

TEST_F(VersionedCacheTest, OneClockOfUseDecidesAcrossTheCaches) {
  const std::string a1 = agent_, a2 = new_agent("Two");
  MemoryBudget budget(250);
  auto bm25 = text_cache(*db_, budget);     // joined first
  auto vectors = text_cache(*db_, budget);  // joined second
  EXPECT_TRUE(use(*vectors, a1, 100));
  EXPECT_TRUE(use(*bm25, a1, 100));
  // Each cache has used one value once: only the shared clock says the vectors are older.
  EXPECT_TRUE(use(*bm25, a2, 100));
  EXPECT_EQ(vectors->figures().evictions, 1u);
  EXPECT_EQ(bm25->figures().evictions, 0u);
  EXPECT_EQ(budget.total(), 200u);
}

TEST_F(VersionedCacheTest, ConcurrentUseOfCachesSharingABudgetStaysWithinIt) {
  std::vector<std::string> agents{agent_};
  for (int i = 0; i < 7; ++i) agents.push_back(new_agent("Agent " + std::to_string(i)));
  MemoryBudget budget(1000);
  auto bm25 = text_cache(*db_, budget);
  auto vectors = text_cache(*db_, budget);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      // Every agent in both caches: at least 1,600 bytes wanted, 1,000 allowed.
      for (int i = 0; i < 300; ++i) {
        const std::string& agent = agents[(i * 7 + t * 3) % agents.size()];
        use(*bm25, agent, 100 + 50 * static_cast<size_t>(t));
        use(*vectors, agent, 100 + 50 * static_cast<size_t>(t));
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(budget.total(), bm25->figures().bytes + vectors->figures().bytes);
  EXPECT_LE(budget.total(), 1000u);
  EXPECT_GT(bm25->figures().evictions + vectors->figures().evictions, 0u);
  vectors.reset();
  EXPECT_EQ(budget.total(), bm25->figures().bytes);
}

TEST_F(VersionedCacheTest, WithoutALimitNothingIsMeasuredOrDropped) {
  MemoryBudget none(0);
  auto cache = text_cache(*db_, none);
  EXPECT_TRUE(use(*cache, agent_, 1 << 20));
  EXPECT_TRUE(use(*cache, new_agent("Two"), 1 << 20));
  EXPECT_EQ(none.total(), 0u);
  EXPECT_EQ(cache->figures().evictions, 0u);
  EXPECT_EQ(cache->figures().values, 2u);
}

}  // namespace
}  // namespace parley
