// Plain text paragraphs and CSV rows as "Header: value" facts.
#include "extract/plain_text.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

TEST(ExtractPlainText, ParagraphsAtBlankLines) {
  ExtractedDocument doc = extract_plain_text("First line\r\nsecond line  \r\n\r\n \t \n\nNext\n");
  ASSERT_EQ(doc.blocks.size(), 2u);
  EXPECT_EQ(doc.blocks[0].kind, BlockKind::kParagraph);
  EXPECT_EQ(doc.blocks[0].text, "First line\nsecond line");
  EXPECT_EQ(doc.blocks[1].text, "Next");
  EXPECT_EQ(doc.title, "");
  EXPECT_TRUE(extract_plain_text("  \n\n").blocks.empty());
}

TEST(ExtractCsv, RowsAsHeaderValueFacts) {
  ExtractedDocument doc = extract_csv(
      "Product,Price,Colour\r\nMug,\"4,50 EUR\",blue\r\n\"Tea \"\"Earl\"\" Grey\",3 EUR,\n"
      "Poster,\"12\nEUR\",red,extra\n,,\n");
  ASSERT_EQ(doc.blocks.size(), 3u);
  EXPECT_EQ(doc.blocks[0].kind, BlockKind::kTableRow);
  EXPECT_EQ(doc.blocks[0].text, "Product: Mug; Price: 4,50 EUR; Colour: blue");
  EXPECT_EQ(doc.blocks[1].text, "Product: Tea \"Earl\" Grey; Price: 3 EUR");
  EXPECT_EQ(doc.blocks[2].text, "Product: Poster; Price: 12 EUR; Colour: red; Column 4: extra");
}

TEST(ExtractCsv, NoBreakSpacesAreSpacesAndTrimmed) {
  ExtractedDocument doc = extract_csv("Name\u00A0,Price\nMug\u00A0,\u00A04\u00A0 \n");
  ASSERT_EQ(doc.blocks.size(), 1u);
  EXPECT_EQ(doc.blocks[0].text, "Name: Mug; Price: 4");
}

TEST(ExtractCsv, DetectsSemicolonsAndTabs) {
  EXPECT_EQ(detect_csv_separator("a;b;c\n1,5;2;3"), ';');
  EXPECT_EQ(detect_csv_separator("a\tb\n1\t2"), '\t');
  EXPECT_EQ(detect_csv_separator("\"x;y;z\",b\n"), ',');
  EXPECT_EQ(detect_csv_separator("single"), ',');
  ExtractedDocument doc = extract_csv("Name;Price\nMug;4,50\n");
  ASSERT_EQ(doc.blocks.size(), 1u);
  EXPECT_EQ(doc.blocks[0].text, "Name: Mug; Price: 4,50");
}

TEST(ExtractCsv, HeaderOnlyAndEmpty) {
  ExtractedDocument header_only = extract_csv("Name,Price\n");
  ASSERT_EQ(header_only.blocks.size(), 1u);
  EXPECT_EQ(header_only.blocks[0].text, "Name | Price");
  EXPECT_TRUE(extract_csv("").blocks.empty());
}

TEST(ParseCsv, QuotesAndLineEnds) {
  auto records = parse_csv("a,\"b\r\nc\",d\r\n\r\ne", ',');
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0], (std::vector<std::string>{"a", "b\r\nc", "d"}));
  EXPECT_EQ(records[1], (std::vector<std::string>{"e"}));
}

}  // namespace
}  // namespace parley
