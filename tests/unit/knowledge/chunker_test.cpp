// Chunking: paragraphs kept together up to the target, long text cut at sentence ends, spaces or
// character boundaries, never inside a UTF-8 character.
#include "knowledge/chunker.h"

#include <gtest/gtest.h>

#include <string>

namespace parley {
namespace {

TEST(Chunker, ShortTextIsOneTrimmedChunk) {
  auto chunks = chunk_text("  Hello there.  \n");
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_EQ(chunks[0], "Hello there.");
}

TEST(Chunker, BlankTextHasNoChunks) { EXPECT_TRUE(chunk_text(" \n\n \t").empty()); }

TEST(Chunker, ParagraphsAreGatheredUpToTheTarget) {
  auto chunks = chunk_text("First para.\n\nSecond para.\n\nThird paragraph is here.", 30);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0], "First para.\n\nSecond para.");
  EXPECT_EQ(chunks[1], "Third paragraph is here.");
}

TEST(Chunker, LongParagraphIsCutAtSentenceEnds) {
  std::string text;
  for (int i = 0; i < 50; ++i) text += "This is sentence number " + std::to_string(i) + ". ";
  auto chunks = chunk_text(text, 200);
  ASSERT_GT(chunks.size(), 5u);
  for (auto c : chunks) {
    EXPECT_LE(c.size(), 200u);
    EXPECT_EQ(c.back(), '.');
  }
}

TEST(Chunker, NeverCutsInsideACharacter) {
  std::string text;
  for (int i = 0; i < 500; ++i) text += "é";  // no spaces at all
  auto chunks = chunk_text(text, 101);
  size_t total = 0;
  for (auto c : chunks) {
    EXPECT_LE(c.size(), 101u);
    EXPECT_EQ(c.size() % 2, 0u);
    total += c.size();
  }
  EXPECT_EQ(total, text.size());
}

TEST(Chunker, KeepsACharacterLongerThanTheTargetWhole) {
  // Three-byte characters with a two-byte target: each is its own chunk, never a byte of one.
  auto chunks = chunk_text("\xEF\xBC\xA6\xEF\xBC\xB5\xEF\xBC\xAC", 2);
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[0], "\xEF\xBC\xA6");
  EXPECT_EQ(chunks[1], "\xEF\xBC\xB5");
  EXPECT_EQ(chunks[2], "\xEF\xBC\xAC");
}

}  // namespace
}  // namespace parley
