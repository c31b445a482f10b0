// extract_document: the reader chosen by sniffing, charsets applied, the refusals' messages and
// the text cap.
#include "extract/extract.h"

#include <gtest/gtest.h>

#include "test_documents.h"

namespace parley {
namespace {

TEST(ExtractDocument, UnsupportedTypeIsNamed) {
  auto png = extract_document({"\x89PNG\r\n\x1A\n\0\0", "image/png", "logo.png"});
  ASSERT_FALSE(png.ok());
  EXPECT_EQ(png.error().code, ErrorCode::kInvalidRequest);
  EXPECT_EQ(png.error().message, "Not text: image/png.");
  auto zip = extract_document({testing::make_zip({{"a.txt", "x"}}), "", "a.zip"});
  ASSERT_FALSE(zip.ok());
  EXPECT_EQ(zip.error().message, "Not text: application/zip.");
}

TEST(ExtractDocument, HtmlWithLatin1FromTheContentType) {
  auto doc = extract_document(
      {"<title>Caf\xE9</title><h1>Men\xFC</h1><p>5 \x80</p>", "text/html; charset=ISO-8859-1", ""});
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  EXPECT_EQ(doc->title, "Café");
  EXPECT_EQ(render_text(*doc), "Menü\n\n5 €");
}

TEST(ExtractDocument, HtmlWithShiftJisFromMeta) {
  auto doc =
      extract_document({"<html><head><meta charset=\"Shift_JIS\"></head><body><p>\x93\xFA"
                        "\x96\x7B\x8C\xEA</p></body></html>",
                        "text/html", "page.html"});
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  EXPECT_EQ(render_text(*doc), "日本語");
}

TEST(ExtractDocument, EachReader) {
  auto md = extract_document({"# Hours\n\n*Open* daily", "", "faq.md"});
  ASSERT_TRUE(md.ok());
  EXPECT_EQ(render_text(*md), "Hours\n\nOpen daily");
  auto csv = extract_document({"Name,Price\nMug,4\n", "text/csv", ""});
  ASSERT_TRUE(csv.ok());
  EXPECT_EQ(render_text(*csv), "Name: Mug; Price: 4");
  auto text = extract_document({"\xEF\xBB\xBFHello\n\nWorld", "", "notes.txt"});
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(render_text(*text), "Hello\n\nWorld");
  auto pdf = extract_document({testing::make_pdf({testing::PdfPage{{"PDF text"}}}), "", "a.pdf"});
  ASSERT_TRUE(pdf.ok()) << pdf.error().message;
  EXPECT_EQ(render_text(*pdf), "PDF text");
  auto docx = extract_document({testing::make_docx(testing::docx_paragraph("Word text")), "", ""});
  ASSERT_TRUE(docx.ok()) << docx.error().message;
  EXPECT_EQ(render_text(*docx), "Word text");
}

TEST(ExtractDocument, RefusalsKeepTheReadersMessages) {
  auto locked = extract_document(
      {testing::make_pdf({testing::PdfPage{{"x"}}}, {.title = "", .encrypted = true}),
       "application/pdf", ""});
  ASSERT_FALSE(locked.ok());
  EXPECT_EQ(locked.error().message, "The PDF is encrypted.");
  auto damaged = extract_document({"not a pdf", "application/pdf", "a.pdf"});
  ASSERT_FALSE(damaged.ok());
  EXPECT_TRUE(damaged.error().message.starts_with("The file is damaged: "));
  auto empty = extract_document({"  \n ", "text/plain", ""});
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().message, "No text found.");
  // A page without text still has its links.
  auto links_only = extract_document({"<a href=\"/next\"></a>", "text/html", ""});
  ASSERT_TRUE(links_only.ok());
  EXPECT_EQ(links_only->links, std::vector<std::string>{"/next"});
}

TEST(ExtractDocument, TextCapCutsAtABlockBoundary) {
  ExtractLimits limits;
  limits.max_text_chars = 11;
  auto doc = extract_document({"aaaaa\n\nbbbbb\n\ncc", "text/plain", ""}, limits);
  ASSERT_TRUE(doc.ok());
  ASSERT_EQ(doc->blocks.size(), 2u);
  EXPECT_EQ(doc->blocks[1].text, "bbbbb");
  // One block longer than the cap is cut at a character boundary.
  limits.max_text_chars = 3;
  auto cut = extract_document({"ééééé", "text/plain; charset=utf-8", ""}, limits);
  ASSERT_TRUE(cut.ok());
  EXPECT_EQ(cut->blocks[0].text, "ééé");
}

}  // namespace
}  // namespace parley
