// The cached index against a real SQLite database: it loads an agent's trained sources on first
// use, follows this node's changes in place, and rebuilds when another process moved the agent's
// knowledge version.
#include "knowledge/knowledge_index.h"

#include <gtest/gtest.h>

#include "agent_db_test.h"
#include "domain/sources.h"
#include "workers/trainer.h"

namespace parley {
namespace {

class KnowledgeIndexTest : public test::AgentDbTest {
 protected:
  // Adds a text source and trains it the way a worker does, telling `index` when given.
  std::string add_trained(const std::string& content, KnowledgeIndex* index) {
    NewSource n;
    n.type = "text";
    n.content = content;
    auto finished = train(n);
    if (index) index->source_trained(finished.source, finished.version);
    return finished.source.id;
  }
};

TEST_F(KnowledgeIndexTest, LoadsFollowsAndRebuilds) {
  add_trained("Apples grow on trees.", nullptr);
  KnowledgeIndex index(*db_);
  auto hits = index.search(agent_, KnowledgeSettings{}, "apples", 5);
  ASSERT_EQ(hits.size(), 1u);

  // This node's change is applied in place.
  auto pears = add_trained("Pears grow on trees too.", &index);
  EXPECT_EQ(index.search(agent_, KnowledgeSettings{}, "pears", 5).size(), 1u);

  // Another process trains a source: the version moves and the next query rebuilds.
  add_trained("Plums are purple.", nullptr);
  EXPECT_EQ(index.search(agent_, KnowledgeSettings{}, "plums", 5).size(), 1u);

  // A deletion here leaves the index at once.
  Services s = services();
  auto deleted = delete_source(s, account_, agent_, pears, nullptr);
  ASSERT_TRUE(deleted.ok());
  EXPECT_EQ(index.search(agent_, KnowledgeSettings{}, "pears", 5).size(), 0u);  // via the version, even without telling it
  EXPECT_EQ(index.search(agent_, KnowledgeSettings{}, "grow trees", 5).size(), 1u);
  EXPECT_GT(index.memory_bytes(), 0u);
}

// A source retrained under its id (a Q&A pair's new answer, a page read again) is announced as
// removed after its commit; by then the trainer may have trained it again and a query loaded the
// index with it. That late removal is of an older version than the index and takes nothing out.
TEST_F(KnowledgeIndexTest, ALateRemovalLeavesTheSourceRetrainedSince) {
  KnowledgeIndex index(*db_);
  Services s = services();
  NewSource pair;
  pair.type = "qa";
  pair.question = "When does the desk open on Sundays?";
  pair.answer = "At 10:30.";
  ASSERT_TRUE(train(pair).applied);
  ASSERT_EQ(index.match_qa(agent_, KnowledgeSettings{}, *pair.question, 5).size(), 1u);

  // A new answer: the pair goes back to training, and its old answer leaves at `removed`.
  pair.answer = "At 11:15.";
  int64_t removed = 0;
  ASSERT_TRUE(db_->write([&](Connection& c) -> Result<void> {
                   PARLEY_TRY(add_source_in(c, s, account_, agent_, pair, removed));
                   return {};
                 })
                  .ok());
  ASSERT_GT(removed, 0);
  // Trained again, and asked, before the removal is announced.
  auto finished = train_next();
  ASSERT_TRUE(finished.applied);
  ASSERT_GT(finished.version, removed);
  index.source_trained(finished.source, finished.version);
  auto before = index.match_qa(agent_, KnowledgeSettings{}, *pair.question, 5);
  ASSERT_EQ(before.size(), 1u);
  EXPECT_EQ(before[0].answer, "At 11:15.");

  index.source_removed(agent_, finished.source.id, removed);
  auto after = index.match_qa(agent_, KnowledgeSettings{}, *pair.question, 5);
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(after[0].answer, "At 11:15.");

  // Announced in time, a removal still takes the old answer out of the index at once: the next
  // query finds the index at the new version, without loading it again.
  pair.answer = "At noon.";
  ASSERT_TRUE(db_->write([&](Connection& c) -> Result<void> {
                   PARLEY_TRY(add_source_in(c, s, account_, agent_, pair, removed));
                   return {};
                 })
                  .ok());
  const uint64_t loads = index.figures().cache.loads;
  index.source_removed(agent_, finished.source.id, removed);
  EXPECT_TRUE(index.match_qa(agent_, KnowledgeSettings{}, *pair.question, 5).empty());
  EXPECT_EQ(index.figures().cache.loads, loads);
}

TEST_F(KnowledgeIndexTest, UnknownAgentHasNothing) {
  KnowledgeIndex index(*db_);
  EXPECT_TRUE(index.search("agt_missing", KnowledgeSettings{}, "anything", 5).empty());
  EXPECT_TRUE(index.match_qa("agt_missing", KnowledgeSettings{}, "anything", 5).empty());
}

TEST_F(KnowledgeIndexTest, TrainingProblems) {
  SourceRecord s;
  s.type = "text";
  s.content = "!!! ...";
  EXPECT_EQ(training_problem(s), "The content has no words to index.");
  s.content = "ok";
  EXPECT_FALSE(training_problem(s).has_value());
  s.type = "qa";
  s.question = "???";
  EXPECT_EQ(training_problem(s), "The question has no words to match.");
}

}  // namespace
}  // namespace parley
