// A file read into the source it becomes: the name kept, the title chosen, the text rendered and
// held to a source's size, and the reasons a file is refused.
#include "domain/file_sources.h"

#include <gtest/gtest.h>

#include "../extract/test_documents.h"

namespace parley {
namespace {

using parley::testing::make_pdf;
using parley::testing::PdfOptions;

TEST(FileDisplayName, KeepsTheLastPathSegmentWithoutControlCharacters) {
  EXPECT_EQ(file_display_name("report.pdf"), "report.pdf");
  EXPECT_EQ(file_display_name("C:\\Users\\ann\\report.pdf"), "report.pdf");
  EXPECT_EQ(file_display_name("/tmp/x/notes.md"), "notes.md");
  EXPECT_EQ(file_display_name("  tab\there\x01.txt  "), "tabhere.txt");
  EXPECT_EQ(file_display_name("dir/"), "");
  EXPECT_EQ(file_display_name(std::string(300, 'a') + ".txt"), std::string(255, 'a'));
  std::string euro;
  for (int i = 0; i < 300; ++i) euro += "\xE2\x82\xAC";
  EXPECT_EQ(file_display_name(euro).size(), 255u * 3);  // characters, not bytes
}

TEST(ReadFileSource, TakesTheDocumentsTitleElseTheFileName) {
  PdfOptions info;
  info.title = "Price list";
  auto pdf =
      read_file_source({make_pdf({{{"Kayak: 450 EUR"}}}, info), "application/pdf", "prices.pdf"});
  ASSERT_TRUE(pdf.ok()) << pdf.error().message;
  EXPECT_EQ(pdf->type, "file");
  EXPECT_EQ(pdf->title, "Price list");
  EXPECT_EQ(pdf->filename, "prices.pdf");
  EXPECT_NE(pdf->content->find("Kayak: 450 EUR"), std::string::npos);
  auto text = read_file_source({"Parking is free after six.", "text/plain", "/home/ann/notes.txt"});
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text->title, "notes.txt");
  EXPECT_EQ(text->filename, "notes.txt");
  auto md = read_file_source({"# Opening hours\n\nNine to five.\n", "", "hours.md"});
  ASSERT_TRUE(md.ok());
  EXPECT_EQ(md->title, "Opening hours");
  EXPECT_EQ(*md->content, "Opening hours\n\nNine to five.");
}

TEST(ReadFileSource, ALongTitleIsCutToASourcesTitle) {
  std::string heading(300, 'T');
  auto md = read_file_source({"# " + heading + "\n\nBody text.\n", "text/markdown", "t.md"});
  ASSERT_TRUE(md.ok());
  EXPECT_EQ(md->title, std::string(kMaxTitleChars, 'T'));
}

TEST(ReadFileSource, TheTextIsHeldToWhatASourceHoldsAtABlockBoundary) {
  // 30,000 paragraphs of 40 characters: 1,200,000 characters, plus a blank line between each.
  std::string text;
  for (int i = 0; i < 30'000; ++i) text += std::string(39, 'a' + i % 26) + ".\n\n";
  auto r = read_file_source({text, "text/plain", "big.txt"});
  ASSERT_TRUE(r.ok()) << r.error().message;
  size_t chars = r->content->size();  // ASCII
  EXPECT_LE(chars, kMaxContentChars);
  EXPECT_GT(chars,
            kMaxContentChars - 10'000);  // the blank lines of the blocks cut leave a little room
  EXPECT_EQ(r->content->back(), '.');    // whole paragraphs only
  EXPECT_TRUE(validate_new_source(*r).ok());
}

// Blank lines between blocks can outnumber the blocks' letters: two million one-letter paragraphs
// still make a source of whole paragraphs (it was refused as having no text).
TEST(ReadFileSource, ParagraphsWhoseBlankLinesOutweighThemStillFill) {
  std::string text;
  for (int i = 0; i < 2'000'000; ++i) text += "a\n\n";
  auto r = read_file_source({text, "text/plain", "many.txt"});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_LE(r->content->size(), kMaxContentChars);
  EXPECT_GT(r->content->size(), kMaxContentChars - 10'000);
  EXPECT_EQ(r->content->back(), 'a');
}

TEST(ReadFileSource, RefusesWhatItCannotReadWithTheReason) {
  std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
  auto image = read_file_source({png, "image/png", "logo.png"});
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(image.error().code, ErrorCode::kInvalidRequest);
  EXPECT_EQ(image.error().message, "Unsupported file type: image/png.");
  PdfOptions locked;
  locked.encrypted = true;
  auto secret = read_file_source({make_pdf({{{"x"}}}, locked), "", "s.pdf"});
  ASSERT_FALSE(secret.ok());
  EXPECT_EQ(secret.error().message, "The PDF is encrypted.");
  auto blank = read_file_source({"   \n\n  \n", "text/plain", "blank.txt"});
  ASSERT_FALSE(blank.ok());
  EXPECT_EQ(blank.error().code, ErrorCode::kInvalidRequest);
}

}  // namespace
}  // namespace parley
