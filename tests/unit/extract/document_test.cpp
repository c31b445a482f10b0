// The extracted document's text: block hashes that fold case and space, and render_text's layout
// and its skipping of template blocks.
#include "extract/document.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

TextBlock para(std::string text) { return {BlockKind::kParagraph, 0, std::move(text)}; }

TEST(BlockHash, FoldsCaseAndWhiteSpace) {
  EXPECT_EQ(block_hash(para("Accept all cookies")), block_hash(para("  ACCEPT   all\n cookies ")));
  EXPECT_EQ(block_hash(para("Straße")), block_hash(para("STRASSE")));
  EXPECT_EQ(block_hash(para("a\u00A0b")), block_hash(para("a b")));
  EXPECT_NE(block_hash(para("Opening hours")), block_hash(para("Opening hour")));
  EXPECT_EQ(fold_block_text("  Über\tUNS  "), "über uns");
}

TEST(BlockHash, IgnoresKindAndIsStable) {
  EXPECT_EQ(block_hash({BlockKind::kHeading, 2, "Contact"}), block_hash(para("contact")));
  // FNV-1a 64 of "contact": the value is stored in databases, so it must never change.
  uint64_t h = 14695981039346656037ull;
  for (char c : std::string("contact")) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  EXPECT_EQ(block_hash(para("Contact")), h);
}

TEST(RenderText, HeadingsOnTheirOwnLineAndBlankLinesBetweenBlocks) {
  ExtractedDocument doc;
  doc.blocks = {{BlockKind::kHeading, 1, "Prices"},
                para("Tickets are sold at the door."),
                {BlockKind::kListItem, 0, "Adults"},
                {BlockKind::kListItem, 0, "Children"},
                {BlockKind::kTableRow, 0, "Adult ticket: 45 EUR"},
                {BlockKind::kTableRow, 0, "Child ticket: 20 EUR"},
                {BlockKind::kPreformatted, 0, "line 1\n  line 2"}};
  EXPECT_EQ(render_text(doc),
            "Prices\n\nTickets are sold at the door.\n\nAdults\nChildren\n\n"
            "Adult ticket: 45 EUR\nChild ticket: 20 EUR\n\nline 1\n  line 2");
}

TEST(RenderText, LeavesOutSkippedBlocks) {
  ExtractedDocument doc;
  doc.blocks = {para("Home About Contact"),
                {BlockKind::kHeading, 1, "Museum"},
                para("Open daily."),
                para("We use cookies.")};
  std::unordered_set<uint64_t> skip = {block_hash(para("home about contact")),
                                       block_hash(para("WE USE COOKIES."))};
  EXPECT_EQ(render_text(doc, &skip), "Museum\n\nOpen daily.");
  std::unordered_set<uint64_t> none;
  EXPECT_EQ(render_text(doc, &none),
            "Home About Contact\n\nMuseum\n\nOpen daily.\n\nWe use cookies.");
  EXPECT_EQ(render_text(ExtractedDocument{}), "");
}

}  // namespace
}  // namespace parley
