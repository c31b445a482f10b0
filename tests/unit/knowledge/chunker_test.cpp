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

TEST(Chunker, AHeadingStartsTheChunkOfItsParagraph) {
  // The intro and the heading would fit in one chunk, but a heading is never a chunk's last
  // paragraph: it goes with the paragraph it introduces.
  std::string paragraph;
  for (int i = 0; i < 12; ++i) paragraph += "Cabin number " + std::to_string(i) + " has two beds. ";
  paragraph.pop_back();
  std::string text = "Welcome aboard the ferry.\n\nCabin classes\n\n" + paragraph;
  auto chunks = chunk_sections(text, 120);
  ASSERT_GE(chunks.size(), 4u);
  EXPECT_EQ(chunks[0].text, "Welcome aboard the ferry.");
  EXPECT_EQ(chunks[0].heading, "");
  EXPECT_TRUE(chunks[1].text.starts_with("Cabin classes\n\nCabin number 0 has two beds.")) << chunks[1].text;
  // Every piece of the cut paragraph carries its heading, and the pieces hold the whole paragraph.
  std::string joined;
  for (size_t i = 1; i < chunks.size(); ++i) {
    EXPECT_EQ(chunks[i].heading, "Cabin classes") << i;
    EXPECT_LE(chunks[i].text.size(), 120u + std::string_view("Cabin classes\n\n").size()) << i;
    if (i > 1) EXPECT_FALSE(chunks[i].text.starts_with("Cabin classes")) << i;
    joined += std::string(chunks[i].text) + " ";
  }
  joined.pop_back();
  EXPECT_EQ(joined, "Cabin classes\n\n" + paragraph);
}

TEST(Chunker, AHeadingLineOpeningAParagraphIsItsPiecesHeading) {
  std::string body;
  for (int i = 0; i < 10; ++i) body += "Dogs travel in kennel " + std::to_string(i) + ". ";
  body.pop_back();
  const std::string text = "## Pets\n" + body;  // the chunks are views into it
  auto chunks = chunk_sections(text, 100);
  ASSERT_GE(chunks.size(), 3u);
  EXPECT_TRUE(chunks[0].text.starts_with("## Pets\nDogs travel in kennel 0.")) << chunks[0].text;
  for (const auto& c : chunks) EXPECT_EQ(c.heading, "## Pets") << c.text;
}

TEST(Chunker, AHeadingAppliesUntilTheNextOne) {
  auto chunks = chunk_sections("Pets\n\nDogs are welcome.\n\nMeals\n\nThe restaurant opens at noon.", 40);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].text, "Pets\n\nDogs are welcome.");
  EXPECT_EQ(chunks[0].heading, "Pets");
  EXPECT_EQ(chunks[1].text, "Meals\n\nThe restaurant opens at noon.");
  EXPECT_EQ(chunks[1].heading, "Meals");
}

TEST(Chunker, ATrailingHeadingIsKeptAsText) {
  auto chunks = chunk_text("Dogs are welcome.\n\nSee also", 1000);
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_EQ(chunks[0], "Dogs are welcome.\n\nSee also");
}

TEST(Chunker, ChineseAndJapaneseSentencesAreNoHeadings) {
  EXPECT_FALSE(is_heading_line("返品は購入後30日以内に受け付けます。"));
  EXPECT_FALSE(is_heading_line("你们的退货政策是什么？"));
  EXPECT_FALSE(is_heading_line("送料は無料です！"));
  EXPECT_TRUE(is_heading_line("配送について"));
  EXPECT_TRUE(is_heading_line("Cabin classes"));
  EXPECT_FALSE(is_heading_line("Cabins have two beds."));
  // A one-sentence paragraph is text, not the heading of the paragraph after it.
  auto chunks = chunk_sections("返品は購入後30日以内に受け付けます。\n\n配送は三日かかります。", 1000);
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_EQ(chunks[0].heading, "");
}

}  // namespace
}  // namespace parley
