// Ranking an agent's chunks by cosine similarity to a question's vector: the order, what comes
// back for a hit, and the vectors refused (another text, another dimension, not finite, zero).
#include "knowledge/vector_set.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "knowledge/chunk_embedding.h"
#include "knowledge/chunker.h"

namespace parley {
namespace {

VectorSource source(const std::string& id, const std::string& content,
                    std::optional<std::string> title = std::nullopt) {
  return {id, "text", std::move(title), std::nullopt, content};
}

// The vector of chunk `ordinal` of the source, hashed as the trainer hashes it.
ChunkVector vec(const VectorSource& s, uint32_t ordinal, std::vector<float> values) {
  auto chunks = chunk_text(s.content);
  std::string hash =
      ordinal < chunks.size() ? embedding_hash(embedding_input(s.title, chunks[ordinal])) : "none";
  return {s.id, ordinal, hash, std::move(values)};
}

// A text of `n` paragraphs of about 620 bytes each: one chunk each.
std::string paragraphs(int n) {
  std::string out;
  for (int p = 0; p < n; ++p) {
    if (p > 0) out += "\n\n";
    for (int s = 0; s < 20; ++s) out += "Paragraph " + std::to_string(p) + " says a thing here. ";
  }
  return out;
}

TEST(VectorSet, RanksChunksByCosineSimilarity) {
  VectorSet set;
  auto a = source("src_a", "Apples are red.");
  auto b = source("src_b", "Bananas are yellow.");
  auto c = source("src_c", "Cherries are dark.");
  EXPECT_EQ(set.add(a, {vec(a, 0, {1, 0, 0})}), 1u);
  EXPECT_EQ(set.add(b, {vec(b, 0, {0.6f, 0.8f, 0})}), 1u);
  EXPECT_EQ(set.add(c, {vec(c, 0, {0, 0, 5})}), 1u);  // length does not matter, direction does
  auto hits = set.search({2, 0, 0}, 3);
  ASSERT_EQ(hits.size(), 3u);
  EXPECT_EQ(hits[0].source_id, "src_a");
  EXPECT_NEAR(hits[0].score, 1.0, 1e-6);
  EXPECT_EQ(hits[1].source_id, "src_b");
  EXPECT_NEAR(hits[1].score, 0.6, 1e-6);
  EXPECT_EQ(hits[2].source_id, "src_c");
  EXPECT_NEAR(hits[2].score, 0.0, 1e-6);
  EXPECT_EQ(set.search({0, 0, 1}, 1).front().source_id, "src_c");
  EXPECT_EQ(set.search({0, 1, 0}, 1).front().source_id, "src_b");
}

TEST(VectorSet, AHitCarriesItsChunksTextOrdinalAndSource) {
  VectorSet set;
  auto s = source("src_long", paragraphs(4), "Guide");
  s.type = "website";
  s.url = "https://example.com/guide";
  auto chunks = chunk_text(s.content);
  ASSERT_GE(chunks.size(), 3u);
  std::string expected(chunks[2]);
  EXPECT_EQ(set.add(s, {vec(s, 0, {1, 0}), vec(s, 1, {1, 1}), vec(s, 2, {0, 1})}), 3u);
  auto hits = set.search({0, 1}, 1);
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].chunk, 2u);
  EXPECT_EQ(hits[0].text, expected);
  EXPECT_EQ(hits[0].title, "Guide");
  EXPECT_EQ(hits[0].url, "https://example.com/guide");
  EXPECT_EQ(hits[0].source_type, "website");
}

TEST(VectorSet, KeepsTheKBestInOrder) {
  VectorSet set;
  auto s = source("src", paragraphs(6));
  size_t n = chunk_text(s.content).size();
  ASSERT_GE(n, 5u);
  std::vector<ChunkVector> vectors;
  for (uint32_t i = 0; i < n; ++i) {
    float angle = 0.2f * static_cast<float>(i);  // chunk i is i steps away from (1, 0)
    vectors.push_back(vec(s, i, {std::cos(angle), std::sin(angle)}));
  }
  EXPECT_EQ(set.add(s, vectors), n);
  auto hits = set.search({1, 0}, 3);
  ASSERT_EQ(hits.size(), 3u);
  EXPECT_EQ(hits[0].chunk, 0u);
  EXPECT_EQ(hits[1].chunk, 1u);
  EXPECT_EQ(hits[2].chunk, 2u);
  EXPECT_TRUE(set.search({1, 0}, 0).empty());
  EXPECT_EQ(set.search({1, 0}, 100).size(), n);
}

TEST(VectorSet, RefusesVectorsThatDoNotFitTheText) {
  VectorSet set;
  auto s = source("src", "Only one chunk here.", "Title");
  ChunkVector stale = vec(s, 0, {1, 0});
  stale.text_hash = embedding_hash("Only one chunk here.");  // computed without the title
  EXPECT_EQ(set.add(s, {stale}), 0u);
  EXPECT_EQ(set.add(s, {vec(s, 1, {1, 0})}), 0u);  // no chunk 1
  ChunkVector other_source = vec(s, 0, {1, 0});
  other_source.source_id = "src_other";
  EXPECT_EQ(set.add(s, {other_source}), 0u);
  EXPECT_EQ(set.rows(), 0u);
  EXPECT_EQ(set.add(s, {vec(s, 0, {1, 0})}), 1u);
}

TEST(VectorSet, RefusesVectorsOfAnotherDimensionNotFiniteOrZero) {
  VectorSet set;
  auto a = source("a", "Alpha text.");
  auto b = source("b", "Beta text.");
  EXPECT_EQ(set.add(a, {vec(a, 0, {1, 0, 0})}), 1u);
  EXPECT_EQ(set.dimensions(), 3u);
  EXPECT_EQ(set.add(b, {vec(b, 0, {1, 0})}), 0u);
  EXPECT_EQ(set.add(b, {vec(b, 0, {std::numeric_limits<float>::quiet_NaN(), 0, 0})}), 0u);
  EXPECT_EQ(set.add(b, {vec(b, 0, {std::numeric_limits<float>::infinity(), 0, 0})}), 0u);
  EXPECT_EQ(set.add(b, {vec(b, 0, {0, 0, 0})}), 0u);
  EXPECT_EQ(set.rows(), 1u);
  // A query of another dimension, or without a direction, finds nothing.
  EXPECT_TRUE(set.search({1, 0}, 5).empty());
  EXPECT_TRUE(set.search({0, 0, 0}, 5).empty());
  EXPECT_TRUE(set.search({std::numeric_limits<float>::quiet_NaN(), 1, 0}, 5).empty());
}

TEST(VectorSet, RemovingASourceDropsItsRowsAndKeepsTheOthers) {
  VectorSet set;
  auto a = source("a", paragraphs(3));
  auto b = source("b", "Beta text.");
  auto c = source("c", "Gamma text.");
  size_t na = chunk_text(a.content).size();
  std::vector<ChunkVector> va;
  for (uint32_t i = 0; i < na; ++i) va.push_back(vec(a, i, {1, 0.1f * static_cast<float>(i)}));
  set.add(a, va);
  set.add(b, {vec(b, 0, {0, 1})});
  set.add(c, {vec(c, 0, {-1, 0})});
  EXPECT_EQ(set.rows(), na + 2);
  EXPECT_TRUE(set.remove("a"));
  EXPECT_FALSE(set.remove("a"));
  EXPECT_EQ(set.rows(), 2u);
  auto hits = set.search({0, 1}, 5);
  ASSERT_EQ(hits.size(), 2u);
  EXPECT_EQ(hits[0].source_id, "b");
  EXPECT_EQ(hits[0].text, "Beta text.");
  EXPECT_EQ(hits[1].source_id, "c");
  EXPECT_EQ(hits[1].text, "Gamma text.");
  // Adding a source again replaces it.
  set.add(b, {vec(b, 0, {0, -1})});
  EXPECT_EQ(set.rows(), 2u);
  EXPECT_EQ(set.search({0, -1}, 1).front().source_id, "b");
}

TEST(VectorSet, MemoryIsAboutFourBytesPerDimension) {
  VectorSet set;
  auto s = source("src", paragraphs(40));
  size_t n = chunk_text(s.content).size();
  std::vector<ChunkVector> vectors;
  for (uint32_t i = 0; i < n; ++i) vectors.push_back(vec(s, i, std::vector<float>(256, 1.0f)));
  ASSERT_EQ(set.add(s, vectors), n);
  size_t text = s.content.size();
  EXPECT_GE(set.memory_bytes(), n * 256 * 4 + text);
  EXPECT_LE(set.memory_bytes(), 2 * (n * 256 * 4 + n * 16) + text + 1024);
}

}  // namespace
}  // namespace parley
