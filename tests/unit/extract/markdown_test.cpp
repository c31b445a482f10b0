// Markdown to blocks: headings (ATX, setext), lists, tables, fences, quotes; inline markup removed.
#include "extract/markdown.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

TEST(ExtractMarkdown, HeadingsParagraphsAndLists) {
  ExtractedDocument doc = extract_markdown(
      "# Museum guide #\n\nThe museum is\nopen daily.\n\nTickets\n-------\n\n"
      "- Adults: **12 EUR**\n- Children\n  under 6 free\n1. [ ] First\n2) Second\n\n"
      "### Notes\n---\nLast words.\n");
  ASSERT_EQ(doc.blocks.size(), 9u);
  EXPECT_EQ(doc.title, "Museum guide");
  EXPECT_EQ(doc.blocks[0].kind, BlockKind::kHeading);
  EXPECT_EQ(doc.blocks[0].level, 1);
  EXPECT_EQ(doc.blocks[0].text, "Museum guide");
  EXPECT_EQ(doc.blocks[1].text, "The museum is open daily.");
  EXPECT_EQ(doc.blocks[2].kind, BlockKind::kHeading);
  EXPECT_EQ(doc.blocks[2].level, 2);
  EXPECT_EQ(doc.blocks[2].text, "Tickets");
  EXPECT_EQ(doc.blocks[3].kind, BlockKind::kListItem);
  EXPECT_EQ(doc.blocks[3].text, "Adults: 12 EUR");
  EXPECT_EQ(doc.blocks[4].text, "Children under 6 free");
  EXPECT_EQ(doc.blocks[5].text, "First");
  EXPECT_EQ(doc.blocks[6].text, "Second");
  EXPECT_EQ(doc.blocks[7].level, 3);
  // "---" after a heading is a thematic break, then a paragraph.
  EXPECT_EQ(doc.blocks[8].kind, BlockKind::kParagraph);
  EXPECT_EQ(doc.blocks[8].text, "Last words.");
}

TEST(ExtractMarkdown, SetextLevelOneAndBreaks) {
  ExtractedDocument doc = extract_markdown("Title\n=====\n\n***\n\nText");
  ASSERT_EQ(doc.blocks.size(), 2u);
  EXPECT_EQ(doc.blocks[0].kind, BlockKind::kHeading);
  EXPECT_EQ(doc.blocks[0].level, 1);
  EXPECT_EQ(doc.blocks[1].text, "Text");
}

TEST(ExtractMarkdown, TablesFencesAndQuotes) {
  ExtractedDocument doc = extract_markdown(
      "| Ticket | Price |\n|:--|--:|\n| Adult | 45 EUR |\n| Child | *free* |\n\n"
      "```cpp\nint main() {\n  return 0;\n}\n```\n\n> Quoted **words**\n> go on\n");
  ASSERT_EQ(doc.blocks.size(), 4u);
  EXPECT_EQ(doc.blocks[0].kind, BlockKind::kTableRow);
  EXPECT_EQ(doc.blocks[0].text, "Ticket: Adult; Price: 45 EUR");
  EXPECT_EQ(doc.blocks[1].text, "Ticket: Child; Price: free");
  EXPECT_EQ(doc.blocks[2].kind, BlockKind::kPreformatted);
  EXPECT_EQ(doc.blocks[2].text, "int main() {\n  return 0;\n}");
  EXPECT_EQ(doc.blocks[3].text, "Quoted words go on");
}

TEST(ExtractMarkdown, UnclosedFenceKeepsItsText) {
  ExtractedDocument doc = extract_markdown("~~~\ncode line");
  ASSERT_EQ(doc.blocks.size(), 1u);
  EXPECT_EQ(doc.blocks[0].text, "code line");
}

TEST(ExtractMarkdown, FrontMatterTitleAndReferenceDefinitions) {
  ExtractedDocument doc = extract_markdown(
      "---\ntitle: \"Visitor FAQ\"\nlayout: page\n---\n# Questions\n\n[home]: https://x.example\n");
  EXPECT_EQ(doc.title, "Visitor FAQ");
  ASSERT_EQ(doc.blocks.size(), 1u);
  EXPECT_EQ(doc.blocks[0].text, "Questions");
}

TEST(StripInlineMarkdown, KeepsTheTextNotTheMarkup) {
  EXPECT_EQ(strip_inline_markdown("**Open** _daily_ [from 9](/hours \"t\")"), "Open daily from 9");
  EXPECT_EQ(strip_inline_markdown("![A map](map.png) and `a_b * c`"), "A map and a_b * c");
  EXPECT_EQ(strip_inline_markdown("snake_case_name and 5 * 3"), "snake_case_name and 5 * 3");
  EXPECT_EQ(strip_inline_markdown("~~old~~ new \\*not em\\*"), "old new *not em*");
  EXPECT_EQ(strip_inline_markdown("<https://x.example> <b>bold</b><!-- note -->"),
            "https://x.example bold");
  EXPECT_EQ(strip_inline_markdown("a < b and [unclosed"), "a < b and [unclosed");
}

// Openers that never close are each looked for once, not once per opener: 1.6 million '[' took
// 14 s of CPU. The text stays as written.
TEST(StripInlineMarkdown, UnclosedOpenersKeepTheirTextAndAreScannedOnce) {
  for (char opener : {'[', '<', '`'}) {
    std::string s = "x " + std::string(2'000'000, opener);
    EXPECT_EQ(strip_inline_markdown(s), s) << opener;
  }
  std::string links;
  for (int i = 0; i < 200'000; ++i) links += "[a](";
  EXPECT_EQ(strip_inline_markdown(links + "b)"), "a");  // the first link's target runs to the ')'
  std::string unmatched;  // runs of 1 to 2,000 backticks, each length once: no span closes
  for (int n = 1; n <= 2'000; n += 2) unmatched += std::string(n, '`') + "x";
  EXPECT_EQ(strip_inline_markdown(unmatched), unmatched);
  // A span closes at a run of its own length (CommonMark), not inside a longer one.
  EXPECT_EQ(strip_inline_markdown("`a``b`"), "a``b");
}

}  // namespace
}  // namespace parley
