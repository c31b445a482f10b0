// The knowledge indexes within a memory budget, against a real SQLite database: past the budget
// the least recently asked agent's index leaves memory; its next question loads it from the
// persisted form (not from its sources) and answers alike; a form that is corrupt, of an old
// layout or of an old knowledge version is not used: the index is rebuilt from the sources and
// its form written again.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "agent_db_test.h"
#include "domain/sources.h"
#include "knowledge/index_form.h"
#include "knowledge/knowledge_index.h"
#include "store/knowledge_form_repo.h"
#include "workers/trainer.h"

namespace parley {
namespace {

class KnowledgeMemoryTest : public test::AgentDbTest {
 protected:
  std::string new_agent(const std::string& name) {
    Services s = services();
    auto account = create_account(s, name, "enterprise");
    EXPECT_TRUE(account.ok());
    auto agent = create_agent(s, account->id, name, false, "");
    EXPECT_TRUE(agent.ok());
    accounts_[agent->id] = account->id;
    return agent->id;
  }
  // Adds a text source to the agent and trains it the way a worker does (nothing told to the
  // index: it finds the version moved).
  void add_trained(const std::string& agent, const std::string& content) {
    Services s = services();
    NewSource n;
    n.type = "text";
    n.content = content;
    std::string account = accounts_.count(agent) ? accounts_[agent] : account_;
    auto added = add_source(s, account, agent, n, nullptr);
    ASSERT_TRUE(added.ok()) << added.error().message;
    auto claimed = claim_next_source(s, 60000);
    ASSERT_TRUE(claimed.ok() && claimed->has_value());
    auto finished = finish_training(s, **claimed, std::nullopt);
    ASSERT_TRUE(finished.ok() && finished->applied);
  }
  std::string best(const KnowledgeIndex& index, const std::string& agent, const std::string& q) {
    auto hits = index.search(agent, KnowledgeSettings{}, q, 1);
    return hits.empty() ? "" : hits[0].text;
  }
  void overwrite_form(const std::string& agent, const std::string& form,
                      int64_t format = kIndexFormVersion) {
    auto version = db_->read();
    ASSERT_TRUE(version.ok());
    auto v = SourceRepo::version(*version, agent);
    ASSERT_TRUE(v.ok());
    auto saved = db_->write(
        [&](Connection& c) { return KnowledgeFormRepo::save(c, agent, *v, format, form, 1); });
    ASSERT_TRUE(saved.ok());
  }

  std::map<std::string, std::string> accounts_;
};

TEST_F(KnowledgeMemoryTest, LeastRecentlyUsedLeavesAndComesBackFromItsForm) {
  std::vector<std::string> agents = {agent_, new_agent("B"), new_agent("C")};
  for (size_t i = 0; i < agents.size(); ++i) {
    for (int k = 0; k < 20; ++k) {
      add_trained(agents[i],
                  "Agent " + std::to_string(i) + " paragraph " + std::to_string(k) +
                      ": bicycles, kayaks and tents are rented by the day. Helmets cost " +
                      std::to_string(k + 3) + " euros.");
    }
  }
  // Measure one agent's index, then allow two and a half of them.
  size_t one = 0;
  {
    KnowledgeIndex probe(*db_);
    probe.search(agents[0], KnowledgeSettings{}, "helmets", 1);
    one = probe.memory_bytes();
  }
  ASSERT_GT(one, 0u);
  MemoryBudget budget(one * 5 / 2);
  KnowledgeIndex index(*db_, &budget);
  std::vector<std::string> before;
  for (const auto& a : agents) before.push_back(best(index, a, "How much do helmets cost?"));
  auto f = index.figures();
  EXPECT_EQ(f.cache.evictions, 1u);  // the third load pushed the first out
  EXPECT_EQ(f.cache.values, 2u);
  EXPECT_LE(f.cache.bytes, one * 5 / 2);
  // The probe stored the first agent's form; the others were rebuilt and their forms stored.
  EXPECT_EQ(f.from_forms, 1u);
  EXPECT_EQ(f.from_sources, 2u);
  EXPECT_EQ(f.forms_written, 2u);

  // Agent 1 is asked again (most recent), then agent 0 comes back: agent 2 leaves, not 1.
  EXPECT_EQ(best(index, agents[1], "How much do helmets cost?"), before[1]);
  EXPECT_EQ(best(index, agents[0], "How much do helmets cost?"), before[0]);
  f = index.figures();
  EXPECT_EQ(f.from_forms, 2u);
  EXPECT_EQ(f.from_sources, 2u);  // never rebuilt again
  EXPECT_EQ(f.cache.evictions, 2u);
  EXPECT_EQ(best(index, agents[1], "How much do helmets cost?"), before[1]);
  EXPECT_EQ(index.figures().cache.evictions, 2u);  // 1 stayed
  EXPECT_EQ(best(index, agents[2], "How much do helmets cost?"), before[2]);
  EXPECT_EQ(index.figures().from_forms, 3u);
  EXPECT_EQ(index.figures().from_sources, 2u);
}

TEST_F(KnowledgeMemoryTest, UnreadableOrOldFormIsRebuiltFromSources) {
  add_trained(agent_, "Kayaks are rented by the hour at the lake.");
  add_trained(agent_, "Tents sleep four people.");
  {
    KnowledgeIndex writer(*db_);
    writer.persist(agent_, KnowledgeSettings{});
    EXPECT_EQ(writer.figures().forms_written, 1u);
  }
  const std::string expected = "Kayaks are rented by the hour at the lake.";
  {
    KnowledgeIndex reader(*db_);
    EXPECT_EQ(best(reader, agent_, "kayak rental"), expected);
    EXPECT_EQ(reader.figures().from_forms, 1u);
    EXPECT_EQ(reader.figures().from_sources, 0u);
  }
  // Corrupt bytes: rebuilt from the sources, and a good form stored again.
  overwrite_form(agent_, "PKIF not an index");
  {
    KnowledgeIndex reader(*db_);
    EXPECT_EQ(best(reader, agent_, "kayak rental"), expected);
    EXPECT_EQ(reader.figures().from_sources, 1u);
    EXPECT_EQ(reader.figures().forms_written, 1u);
  }
  {
    KnowledgeIndex reader(*db_);
    EXPECT_EQ(best(reader, agent_, "kayak rental"), expected);
    EXPECT_EQ(reader.figures().from_forms, 1u);
  }
  // A form of another layout version is not read.
  {
    KnowledgeIndex writer(*db_);
    writer.search(agent_, KnowledgeSettings{}, "x", 1);
  }
  auto reader_conn = db_->read();
  ASSERT_TRUE(reader_conn.ok());
  auto v = SourceRepo::version(*reader_conn, agent_);
  auto stored = KnowledgeFormRepo::find(*reader_conn, agent_, *v);
  ASSERT_TRUE(stored.ok() && stored->has_value());
  overwrite_form(agent_, (*stored)->form, kIndexFormVersion + 1);
  {
    KnowledgeIndex reader(*db_);
    EXPECT_EQ(best(reader, agent_, "kayak rental"), expected);
    EXPECT_EQ(reader.figures().from_sources, 1u);
  }
  // A source trained since the form was written: the stored form (an older version) is not used.
  add_trained(agent_, "Bicycles have two wheels and a bell.");
  {
    KnowledgeIndex reader(*db_);
    EXPECT_EQ(best(reader, agent_, "bicycle bell"), "Bicycles have two wheels and a bell.");
    EXPECT_EQ(reader.figures().from_forms, 0u);
    EXPECT_EQ(reader.figures().from_sources, 1u);
  }
  // Other analysis settings than the form's: rebuilt for them.
  KnowledgeSettings french;
  french.language = "fr";
  KnowledgeIndex reader(*db_);
  EXPECT_FALSE(reader.search(agent_, french, "kayaks", 1).empty());
  EXPECT_EQ(reader.figures().from_sources, 1u);
}

TEST_F(KnowledgeMemoryTest, OneIndexLargerThanTheBudgetIsStillServed) {
  add_trained(agent_, "Kayaks are rented by the hour at the lake.");
  MemoryBudget budget(1);
  KnowledgeIndex index(*db_, &budget);
  EXPECT_EQ(best(index, agent_, "kayak"), "Kayaks are rented by the hour at the lake.");
  EXPECT_EQ(best(index, agent_, "kayak"), "Kayaks are rented by the hour at the lake.");
  EXPECT_EQ(index.figures().cache.values, 1u);
  EXPECT_EQ(index.figures().cache.evictions, 0u);
}

}  // namespace
}  // namespace parley
