// PDFs through poppler: text per page in order, paragraphs, the info title, and the errors a
// person reads for encrypted, image-only, damaged and too long files.
#include "extract/pdf.h"

#include <gtest/gtest.h>

#include "test_documents.h"

namespace parley {
namespace {

using testing::make_pdf;
using testing::PdfPage;

std::string all_text(const ExtractedDocument& doc) {
  std::string out;
  for (const TextBlock& b : doc.blocks) out += b.text + "\n";
  return out;
}

TEST(ExtractPdf, ReadsEveryPageInOrderWithTheInfoTitle) {
  std::string pdf =
      make_pdf({PdfPage{{"Opening hours", "", "The museum opens at 9 and closes at 17."}},
                PdfPage{{"Tickets cost 12 EUR for adults."}}},
               {.title = "Visitor guide"});
  auto doc = extract_pdf(pdf, {});
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  EXPECT_EQ(doc->title, "Visitor guide");
  std::string text = all_text(*doc);
  size_t first = text.find("The museum opens at 9 and closes at 17.");
  size_t second = text.find("Tickets cost 12 EUR for adults.");
  ASSERT_NE(first, std::string::npos) << text;
  ASSERT_NE(second, std::string::npos) << text;
  EXPECT_LT(first, second);
  EXPECT_NE(text.find("Opening hours"), std::string::npos);
  for (const TextBlock& b : doc->blocks) EXPECT_EQ(b.kind, BlockKind::kParagraph);
}

TEST(ExtractPdf, PagesAreSeparateParagraphs) {
  auto doc = extract_pdf(make_pdf({PdfPage{{"First page"}}, PdfPage{{"Second page"}}}), {});
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  ASSERT_EQ(doc->blocks.size(), 2u);
  EXPECT_EQ(doc->blocks[0].text, "First page");
  EXPECT_EQ(doc->blocks[1].text, "Second page");
  EXPECT_EQ(doc->title, "");
}

TEST(ExtractPdf, EncryptedIsRefused) {
  auto doc = extract_pdf(make_pdf({PdfPage{{"Secret"}}}, {.title = "", .encrypted = true}), {});
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.error().code, ErrorCode::kInvalidRequest);
  EXPECT_EQ(doc.error().message, "The PDF is encrypted.");
}

TEST(ExtractPdf, ImagesOnlyIsRefused) {
  auto doc = extract_pdf(make_pdf({PdfPage{{}, true}, PdfPage{{}, true}}), {});
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.error().message, "No text found: the PDF holds only images.");
}

TEST(ExtractPdf, DamagedIsRefused) {
  for (std::string bytes : {std::string("%PDF-1.4\nthis is not a pdf"), std::string(""),
                            std::string("%PDF-1.4\n1 0 obj << /Type /Catalog")}) {
    auto doc = extract_pdf(bytes, {});
    ASSERT_FALSE(doc.ok());
    EXPECT_EQ(doc.error().code, ErrorCode::kInvalidRequest);
    EXPECT_TRUE(doc.error().message.starts_with("The file is damaged: ")) << doc.error().message;
  }
  // A truncated file is damaged or, when poppler reconstructs it, read.
  std::string pdf = make_pdf({PdfPage{{"Some text here"}}});
  auto truncated = extract_pdf(pdf.substr(0, pdf.size() / 2), {});
  if (!truncated.ok()) {
    EXPECT_FALSE(truncated.error().message.empty());
  }
}

TEST(ExtractPdf, PageCap) {
  std::string pdf = make_pdf({PdfPage{{"a"}}, PdfPage{{"b"}}, PdfPage{{"c"}}});
  ExtractLimits limits;
  limits.max_pdf_pages = 2;
  auto doc = extract_pdf(pdf, limits);
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.error().message, "The PDF has 3 pages; at most 2 are read.");
  limits.max_pdf_pages = 3;
  EXPECT_TRUE(extract_pdf(pdf, limits).ok());
}

TEST(PdfParagraphs, SplitsAtBlankLinesAndJoinsHyphenatedWords) {
  std::vector<TextBlock> blocks;
  append_page_paragraphs("The exhibi-\ntion opens\n  in May.\n\nSecond  para\f Third", blocks);
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(blocks[0].text, "The exhibition opens in May.");
  EXPECT_EQ(blocks[1].text, "Second para");
  EXPECT_EQ(blocks[2].text, "Third");
  blocks.clear();
  append_page_paragraphs("Well-\nKnown", blocks);  // a capital: a real hyphen
  EXPECT_EQ(blocks[0].text, "Well- Known");
}

}  // namespace
}  // namespace parley
