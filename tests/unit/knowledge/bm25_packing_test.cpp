// The BM25 collection's compact postings: past the first packings (tens of thousands of postings)
// every document is still found by each of its terms with its weight, removals and compaction
// keep the rest, and the persisted form reads back the same postings.
#include "knowledge/bm25.h"

#include <gtest/gtest.h>

#include <string>

#include "knowledge/index_bytes.h"

namespace parley {
namespace {

constexpr uint32_t kDocs = 30000;

Bm25Collection many() {
  Bm25Collection c;
  for (uint32_t i = 0; i < kDocs; ++i) {
    // A term of its own, one shared by a seventh of the documents, one with an odd weight.
    c.add({{i % 7, 1.0f}, {100 + i % 13, i % 2 ? 2.5f : 0.3f}, {1000 + i, 1.5f}}, 3.0f);
  }
  return c;
}

void expect_found(const Bm25Collection& c, uint32_t doc) {
  auto own = c.top({{1000 + doc, 1.0f}}, 3);
  ASSERT_EQ(own.size(), 1u) << doc;
  EXPECT_EQ(own[0].doc, doc);
}

TEST(Bm25Packing, EveryPostingSurvivesPacking) {
  Bm25Collection c = many();
  EXPECT_EQ(c.live(), kDocs);
  for (uint32_t doc = 0; doc < kDocs; doc += 997) expect_found(c, doc);
  expect_found(c, kDocs - 1);
  EXPECT_EQ(c.df(3), (kDocs + 3) / 7);
  EXPECT_EQ(c.top({{3, 1.0f}}, kDocs).size(), c.df(3));
  // The odd weights (0.3 is not a whole half) are kept exactly: odd documents score higher.
  auto shared = c.top({{100 + 5, 1.0f}}, 2);
  ASSERT_EQ(shared.size(), 2u);
  EXPECT_EQ(shared[0].doc % 2, 1u);
}

TEST(Bm25Packing, RemovalsCompactAndTheFormReadsBack) {
  Bm25Collection c = many();
  // Every even document and the odd ones below 4,000: removed ones outnumber live ones, so the
  // postings are compacted.
  for (uint32_t doc = 0; doc < kDocs; ++doc)
    if (doc % 2 == 0 || doc < 4000) c.remove(doc, {doc % 7, 100 + doc % 13, 1000 + doc});
  EXPECT_EQ(c.live(), kDocs / 2 - 2000);
  EXPECT_TRUE(c.top({{1000 + 10, 1.0f}}, 3).empty());
  EXPECT_TRUE(c.top({{1000 + 3001, 1.0f}}, 3).empty());
  for (uint32_t doc = 4001; doc < kDocs; doc += 998) expect_found(c, doc);
  // New documents after compaction are found too.
  uint32_t added = c.add({{3, 1.0f}, {999999, 1.0f}}, 2.0f);
  auto hit = c.top({{999999, 1.0f}}, 1);
  ASSERT_EQ(hit.size(), 1u);
  EXPECT_EQ(hit[0].doc, added);

  std::string bytes;
  ByteWriter out(bytes);
  c.save(out);
  Bm25Collection back;
  ByteReader in(bytes);
  ASSERT_TRUE(back.load(in));
  EXPECT_EQ(back.live(), c.live());
  EXPECT_EQ(back.df(3), c.df(3));
  for (uint32_t doc = 4001; doc < kDocs; doc += 998) expect_found(back, doc);
  auto a = c.top({{3, 1.0f}, {100 + 4, 0.5f}}, 50), b = back.top({{3, 1.0f}, {100 + 4, 0.5f}}, 50);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].doc, b[i].doc);
    EXPECT_FLOAT_EQ(a[i].score, b[i].score);
  }
}

}  // namespace
}  // namespace parley
