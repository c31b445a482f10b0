// The cached vectors against a real SQLite database: an agent's stored vectors of one model are
// loaded on first use, the trainer's changes are followed in place, another process's through
// the knowledge version, and a deleted source's vectors go with it (foreign key). The vectors
// count against the knowledge's memory budget with the BM25 indexes.
#include "knowledge/vector_index.h"

#include <gtest/gtest.h>

#include "agent_db_test.h"
#include "domain/sources.h"
#include "knowledge/chunk_embedding.h"
#include "knowledge/knowledge_index.h"
#include "store/chunk_embedding_repo.h"

namespace parley {
namespace {

constexpr std::string_view kModel = "embed-small";

class VectorIndexTest : public test::AgentDbTest {
 protected:
  // Adds a one-chunk text source, stores its vector of `model` the way the trainer does (before
  // the training is recorded), trains it, and tells `index` when given.
  std::string add_trained(const std::string& content, std::vector<float> values, VectorIndex* index,
                          std::string_view model = kModel, bool train = true) {
    Services s = services();
    NewSource n;
    n.type = "text";
    n.title = "T";
    n.content = content;
    auto added = add_source(s, account_, agent_, n, nullptr);
    EXPECT_TRUE(added.ok());
    auto claimed = claim_next_source(s, 60000);
    EXPECT_TRUE(claimed.ok() && claimed->has_value());
    const SourceRecord& source = **claimed;
    std::vector<ChunkVector> vectors{
        {source.id, 0, embedding_hash(embedding_input(source.title, content)), std::move(values)}};
    EXPECT_TRUE(db_->write([&](Connection& c) {
                     return ChunkEmbeddingRepo::replace_source(c, agent_, source.id, model, vectors,
                                                               0);
                   })
                    .ok());
    if (!train) return source.id;
    auto finished = finish_training(s, source, std::nullopt);
    EXPECT_TRUE(finished.ok() && finished->applied);
    if (index) {
      index->source_trained(agent_, model, {source.id, "text", source.title, std::nullopt, content},
                            vectors, finished->version);
    }
    return source.id;
  }

  int64_t stored(const std::string& source_id) {
    auto reader = db_->read();
    EXPECT_TRUE(reader.ok());
    auto n = ChunkEmbeddingRepo::count_source(*reader, source_id);
    EXPECT_TRUE(n.ok());
    return n.ok() ? *n : -1;
  }
};

std::vector<std::string> texts(const std::vector<RetrievedChunk>& hits) {
  std::vector<std::string> out;
  for (const auto& h : hits) out.push_back(h.text);
  return out;
}

TEST_F(VectorIndexTest, LoadsFollowsAndReloads) {
  add_trained("Apples grow on trees.", {1, 0, 0}, nullptr);
  VectorIndex index(*db_);
  EXPECT_EQ(index.rows(agent_, kModel), 1u);
  EXPECT_EQ(texts(index.search(agent_, kModel, {1, 0, 0}, 5)),
            (std::vector<std::string>{"Apples grow on trees."}));

  // This node's training is applied in place.
  auto pears = add_trained("Pears grow on trees too.", {0, 1, 0}, &index);
  EXPECT_EQ(texts(index.search(agent_, kModel, {0, 1, 0}, 1)),
            (std::vector<std::string>{"Pears grow on trees too."}));

  // Another process trains a source: the version moves and the next query reloads.
  add_trained("Plums are purple.", {0, 0, 1}, nullptr);
  EXPECT_EQ(index.rows(agent_, kModel), 3u);
  EXPECT_EQ(texts(index.search(agent_, kModel, {0, 0, 1}, 1)),
            (std::vector<std::string>{"Plums are purple."}));

  // A deleted source's vectors are deleted with it and leave the cache.
  EXPECT_EQ(stored(pears), 1);
  Services s = services();
  ASSERT_TRUE(delete_source(s, account_, agent_, pears, nullptr).ok());
  EXPECT_EQ(stored(pears), 0);
  EXPECT_EQ(index.rows(agent_, kModel), 2u);
  for (const auto& hit : index.search(agent_, kModel, {0, 1, 0}, 5))
    EXPECT_NE(hit.source_id, pears);
  EXPECT_GT(index.memory_bytes(), 0u);
}

TEST_F(VectorIndexTest, VectorsOfAnotherModelAreIgnored) {
  add_trained("Apples grow on trees.", {1, 0}, nullptr, "old-model");
  add_trained("Pears grow on trees too.", {0, 1}, nullptr);
  VectorIndex index(*db_);
  EXPECT_EQ(index.rows(agent_, kModel), 1u);
  EXPECT_EQ(texts(index.search(agent_, kModel, {1, 0}, 5)),
            (std::vector<std::string>{"Pears grow on trees too."}));
  // Asking for the other model reloads the agent's vectors of that model.
  EXPECT_EQ(texts(index.search(agent_, "old-model", {1, 0}, 5)),
            (std::vector<std::string>{"Apples grow on trees."}));
  EXPECT_EQ(index.rows(agent_, "no-such-model"), 0u);
}

TEST_F(VectorIndexTest, OnlyTrainedSourcesCount) {
  // Vectors are stored before the source is marked trained: until then they are not used.
  add_trained("Still processing.", {1, 0}, nullptr, kModel, /*train=*/false);
  VectorIndex index(*db_);
  EXPECT_EQ(index.rows(agent_, kModel), 0u);
  EXPECT_TRUE(index.search(agent_, kModel, {1, 0}, 5).empty());
}

TEST_F(VectorIndexTest, InvalidateReloadsWhatWasStoredBesidesTheVersion) {
  add_trained("Apples grow on trees.", {1, 0}, nullptr);
  VectorIndex index(*db_);
  EXPECT_EQ(index.rows(agent_, kModel), 1u);
  // Vectors replaced without a version change (the trainer's backfill of other sources).
  auto reader = db_->read();
  ASSERT_TRUE(reader.ok());
  auto ids = ChunkEmbeddingRepo::sources_without(*reader, agent_, "new-model", 10);
  ASSERT_TRUE(ids.ok());
  ASSERT_EQ(ids->size(), 1u);
  std::string id = ids->front();
  ASSERT_TRUE(db_->write([&](Connection& c) {
                   return ChunkEmbeddingRepo::replace_source(
                       c, agent_, id, kModel,
                       {{id,
                         0,
                         embedding_hash(embedding_input(std::string("T"), "Apples grow on trees.")),
                         {0, 1}}},
                       0);
                 })
                  .ok());
  EXPECT_EQ(index.search(agent_, kModel, {0, 1}, 1).front().score, 0.0f);  // still cached
  index.invalidate(agent_);
  EXPECT_NEAR(index.search(agent_, kModel, {0, 1}, 1).front().score, 1.0, 1e-6);
}

TEST_F(VectorIndexTest, ASourceWithoutVectorsMovesTheVersionWithoutAReload) {
  auto apples = add_trained("Apples grow on trees.", {1, 0}, nullptr);
  VectorIndex index(*db_);
  EXPECT_EQ(index.rows(agent_, kModel), 1u);
  // The stored rows disappear behind the cache's back (no version change)...
  ASSERT_TRUE(db_->write([&](Connection& c) {
                   return ChunkEmbeddingRepo::replace_source(c, agent_, apples, kModel, {}, 0);
                 })
                  .ok());
  // ...then a Q&A pair is trained here: the version moves on, the set stays as it was.
  NewSource qa;
  qa.type = "qa";
  qa.question = "Do apples grow on trees?";
  qa.answer = "Yes.";
  auto finished = train(qa);
  ASSERT_TRUE(finished.applied);
  index.source_trained(agent_, "", {}, {}, finished.version);
  EXPECT_EQ(index.rows(agent_, kModel), 1u);  // not reloaded
  index.invalidate(agent_);
  EXPECT_EQ(index.rows(agent_, kModel), 0u);  // reloaded: the rows are gone
}

TEST_F(VectorIndexTest, VectorsAndIndexesShareOneBudget) {
  std::vector<float> wide(1536, 0.0f);  // a provider's embedding: 6 KB a chunk
  wide[0] = 1;
  add_trained("Apples grow on trees, and pears on trees too.", wide, nullptr);
  size_t index_bytes = 0, vector_bytes = 0;
  {
    KnowledgeIndex built(*db_);  // stores the index's form, which every later load reads
    ASSERT_FALSE(built.search(agent_, KnowledgeSettings{}, "apples", 1).empty());
    KnowledgeIndex bm25(*db_);
    ASSERT_FALSE(bm25.search(agent_, KnowledgeSettings{}, "apples", 1).empty());
    ASSERT_EQ(bm25.figures().from_forms, 1u);
    index_bytes = bm25.memory_bytes();
    VectorIndex vectors(*db_);
    ASSERT_EQ(vectors.rows(agent_, kModel), 1u);
    vector_bytes = vectors.memory_bytes();
  }
  ASSERT_GT(vector_bytes, 6000u);
  // Room for either, not both.
  MemoryBudget budget(std::max(index_bytes, vector_bytes) +
                      std::min(index_bytes, vector_bytes) / 2);
  KnowledgeIndex bm25(*db_, &budget);
  VectorIndex vectors(*db_, &budget);
  EXPECT_FALSE(bm25.search(agent_, KnowledgeSettings{}, "apples", 1).empty());
  EXPECT_EQ(budget.total(), index_bytes);
  // The vectors come in, and the index, the same agent's, stays: an agent is served with all of
  // its values, past the budget if need be, alone.
  EXPECT_EQ(texts(vectors.search(agent_, kModel, wide, 1)),
            (std::vector<std::string>{"Apples grow on trees, and pears on trees too."}));
  EXPECT_EQ(budget.total(), index_bytes + vector_bytes);
  EXPECT_EQ(bm25.figures().cache.evictions, 0u);
  // Asked again, neither loads.
  EXPECT_FALSE(bm25.search(agent_, KnowledgeSettings{}, "apples", 1).empty());
  EXPECT_EQ(vectors.search(agent_, kModel, wide, 1).size(), 1u);
  EXPECT_EQ(bm25.figures().cache.loads, 1u);
  EXPECT_EQ(vectors.figures().loads, 1u);

  // Another agent's index comes in: the first agent's values, used before it, leave.
  Services s = services();
  auto two = create_agent(s, account_, "Two", false, "");
  ASSERT_TRUE(two.ok());
  NewSource plums;
  plums.type = "text";
  plums.content = "Plums are purple.";
  ASSERT_TRUE(train(plums, two->id).applied);
  EXPECT_FALSE(bm25.search(two->id, KnowledgeSettings{}, "plums", 1).empty());
  EXPECT_EQ(bm25.figures().cache.evictions, 1u);
  EXPECT_EQ(vectors.figures().evictions, 1u);
  EXPECT_EQ(vectors.figures().values, 0u);
  EXPECT_LE(budget.total(), budget.limit());
  // Reloaded on their next use: the index from its stored form, the vectors as stored.
  EXPECT_FALSE(bm25.search(agent_, KnowledgeSettings{}, "apples", 1).empty());
  EXPECT_EQ(bm25.figures().from_forms, 2u);
  EXPECT_EQ(bm25.figures().from_sources, 1u);  // the other agent's, never stored before
  EXPECT_EQ(vectors.rows(agent_, kModel), 1u);
  EXPECT_EQ(vectors.figures().loads, 2u);
}

TEST_F(VectorIndexTest, UnknownAgentHasNothing) {
  VectorIndex index(*db_);
  EXPECT_EQ(index.rows("agt_missing", kModel), 0u);
  EXPECT_TRUE(index.search("agt_missing", kModel, {1, 0}, 5).empty());
}

}  // namespace
}  // namespace parley
