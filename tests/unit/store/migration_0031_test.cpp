// Migration 0031 on a database that already holds sources (one written before the migration
// existed): each agent's source counter starts after its highest seq, so the next source never
// takes a number in use, and an agent without sources starts from 1.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "store/account_repo.h"
#include "store/agent_repo.h"
#include "store/source_repo.h"

namespace parley {
namespace {

TEST(Migration0031, StartsEachAgentsSourceCounterAfterItsHighestSeq) {
  char dir_template[] = "/tmp/parley_migration_test_XXXXXX";
  const std::string dir = mkdtemp(dir_template);
  const std::string url = "sqlite:" + dir + "/parley.db";
  {
    auto db = open_database({url, Durability::kNormal});
    ASSERT_TRUE(db.ok());
    auto r = (*db)->write([&](Connection& c) -> Result<void> {
      PARLEY_TRY(c.execute_script(
          "INSERT INTO accounts (id, name, plan, created_at, updated_at) VALUES ('acc', 'a', "
          "'pro', 0, 0);"
          "INSERT INTO agents (id, account_id, name, created_at, updated_at) VALUES "
          "('agt_a', 'acc', 'a', 0, 0), ('agt_b', 'acc', 'b', 0, 0);"
          "INSERT INTO sources (id, agent_id, account_id, seq, type, content, characters, status,"
          " created_at, updated_at) VALUES"
          " ('src_1', 'agt_a', 'acc', 1, 'text', 'x', 1, 'trained', 0, 0),"
          " ('src_2', 'agt_a', 'acc', 2, 'text', 'x', 1, 'trained', 0, 0),"
          " ('src_7', 'agt_a', 'acc', 7, 'text', 'x', 1, 'trained', 0, 0);"
          // The database as it was before 0031.
          "DROP INDEX sources_agent_seq;"
          "ALTER TABLE agents DROP COLUMN last_source_seq;"
          "DELETE FROM schema_migrations WHERE version = 31;"));
      return {};
    });
    ASSERT_TRUE(r.ok()) << r.error().message;
  }
  auto db = open_database({url, Durability::kNormal});  // applies 0031 to the data above
  ASSERT_TRUE(db.ok()) << db.error().message;
  std::vector<int64_t> seqs;
  auto r = (*db)->write([&](Connection& c) -> Result<void> {
    seqs.clear();
    for (std::string agent : {"agt_a", "agt_b"}) {
      SourceRecord s;
      s.id = "src_new_" + agent;
      s.agent_id = agent;
      s.account_id = "acc";
      s.type = "text";
      s.content = "y";
      PARLEY_TRY(SourceRepo::insert(c, s));
      seqs.push_back(s.seq);
    }
    return {};
  });
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(seqs, (std::vector<int64_t>{8, 1}));
  db->reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace parley
