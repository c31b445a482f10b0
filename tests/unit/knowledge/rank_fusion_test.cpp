// Reciprocal-rank fusion of BM25's and the vectors' rankings: scores from ranks alone, chunks
// named by (source, ordinal), ties in order of first appearance.
#include "knowledge/rank_fusion.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

RetrievedChunk chunk(const std::string& source, uint32_t ordinal, double score = 0,
                     const std::string& text = "") {
  RetrievedChunk c;
  c.source_id = source;
  c.chunk = ordinal;
  c.score = score;
  c.text = text.empty() ? source + "#" + std::to_string(ordinal) : text;
  return c;
}

std::vector<std::string> names(const std::vector<RetrievedChunk>& chunks) {
  std::vector<std::string> out;
  for (const auto& c : chunks) out.push_back(c.source_id + "#" + std::to_string(c.chunk));
  return out;
}

TEST(RankFusion, ScoresAreSumsOfReciprocalRanks) {
  std::vector<RetrievedChunk> bm25{chunk("a", 0, 12.5), chunk("b", 0, 3.1)};
  std::vector<RetrievedChunk> vectors{chunk("b", 0, 0.9), chunk("c", 2, 0.8)};
  auto fused = fuse_rankings({&bm25, &vectors}, 10);
  ASSERT_EQ(names(fused), (std::vector<std::string>{"b#0", "a#0", "c#2"}));
  EXPECT_DOUBLE_EQ(fused[0].score, 1.0 / 62 + 1.0 / 61);
  EXPECT_DOUBLE_EQ(fused[1].score, 1.0 / 61);
  EXPECT_DOUBLE_EQ(fused[2].score, 1.0 / 62);
}

TEST(RankFusion, OnlyRanksCountNotTheScoresScales) {
  // BM25 scores in the tens and cosines below one fuse the same as any other scale.
  std::vector<RetrievedChunk> bm25{chunk("a", 0, 1000), chunk("b", 0, 999)};
  std::vector<RetrievedChunk> vectors{chunk("b", 0, 0.01), chunk("a", 0, 0.001)};
  auto fused = fuse_rankings({&bm25, &vectors}, 10);
  ASSERT_EQ(fused.size(), 2u);
  EXPECT_DOUBLE_EQ(fused[0].score, fused[1].score);
  EXPECT_EQ(names(fused), (std::vector<std::string>{"a#0", "b#0"}));  // tie: first seen first
}

TEST(RankFusion, ChunksAreNamedBySourceAndOrdinal) {
  // Two chunks of one source are different chunks; the same (source, ordinal) in both lists is
  // one chunk, whose fields come from the first list that holds it.
  std::vector<RetrievedChunk> bm25{chunk("a", 0, 5, "from bm25"), chunk("a", 1, 4)};
  std::vector<RetrievedChunk> vectors{chunk("a", 1, 0.5, "from vectors"), chunk("a", 0, 0.4)};
  auto fused = fuse_rankings({&bm25, &vectors}, 10);
  ASSERT_EQ(fused.size(), 2u);
  EXPECT_EQ(fused[0].text, "from bm25");
  EXPECT_EQ(fused[1].text, "a#1");
}

TEST(RankFusion, AChunkRankedWellByBothBeatsOneRankedFirstByOne) {
  std::vector<RetrievedChunk> bm25{chunk("x", 0), chunk("both", 0)};
  std::vector<RetrievedChunk> vectors{chunk("y", 0), chunk("both", 0)};
  auto fused = fuse_rankings({&bm25, &vectors}, 1);
  EXPECT_EQ(names(fused), (std::vector<std::string>{"both#0"}));
}

TEST(RankFusion, KeepsAtMostKAndARepeatCountsOnce) {
  std::vector<RetrievedChunk> bm25{chunk("a", 0), chunk("a", 0), chunk("b", 0), chunk("c", 0)};
  auto fused = fuse_rankings({&bm25}, 2);
  ASSERT_EQ(names(fused), (std::vector<std::string>{"a#0", "b#0"}));
  EXPECT_DOUBLE_EQ(fused[0].score, 1.0 / 61);
  EXPECT_DOUBLE_EQ(fused[1].score, 1.0 / 63);  // b keeps its rank in the list
}

TEST(RankFusion, EmptyAndMissingRankings) {
  std::vector<RetrievedChunk> none;
  std::vector<RetrievedChunk> vectors{chunk("v", 3)};
  EXPECT_TRUE(fuse_rankings({&none, &none}, 5).empty());
  EXPECT_EQ(names(fuse_rankings({&none, &vectors}, 5)), (std::vector<std::string>{"v#3"}));
  EXPECT_EQ(names(fuse_rankings({nullptr, &vectors}, 5)), (std::vector<std::string>{"v#3"}));
  EXPECT_TRUE(fuse_rankings({&vectors}, 0).empty());
}

TEST(RankFusion, TheConstantDampsTheFirstRanks) {
  // With a constant of 0, first place in one list outweighs second place in both.
  std::vector<RetrievedChunk> bm25{chunk("x", 0), chunk("both", 0), chunk("z", 0)};
  std::vector<RetrievedChunk> vectors{chunk("y", 0), chunk("z", 1), chunk("both", 0)};
  EXPECT_EQ(names(fuse_rankings({&bm25, &vectors}, 1, 0.0)), (std::vector<std::string>{"x#0"}));
  EXPECT_EQ(names(fuse_rankings({&bm25, &vectors}, 1)), (std::vector<std::string>{"both#0"}));
}

}  // namespace
}  // namespace parley
