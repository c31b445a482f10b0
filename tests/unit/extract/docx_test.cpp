// Word documents: paragraphs, headings by style name or id, lists, tables, the core title, and
// the refusals (not a zip, no document.xml, bad XML, zip bombs by ratio and by total size).
#include "extract/docx.h"

#include "extract/docx_body.h"

#include <gtest/gtest.h>

#include "test_documents.h"

namespace parley {
namespace {

using testing::docx_paragraph;
using testing::make_docx;
using testing::make_zip;

TEST(ExtractDocx, ParagraphsHeadingsListsAndTitle) {
  std::string body = docx_paragraph("Visitor guide", "Title") +
                     docx_paragraph("Tickets", "Heading2") + docx_paragraph("Adults pay 12 EUR.") +
                     "<w:p><w:pPr><w:numPr><w:ilvl w:val=\"0\"/><w:numId w:val=\"1\"/></w:numPr>"
                     "</w:pPr><w:r><w:t>Free for children</w:t></w:r></w:p>" +
                     "<w:p><w:r><w:t>Split </w:t></w:r><w:r><w:t>run</w:t><w:tab/><w:t>tab</w:t>"
                     "</w:r><w:r><w:delText>deleted</w:delText></w:r></w:p>";
  auto doc = extract_docx(make_docx(body, "The Guide"), {});
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  EXPECT_EQ(doc->title, "The Guide");
  ASSERT_EQ(doc->blocks.size(), 5u);
  EXPECT_EQ(doc->blocks[0].kind, BlockKind::kHeading);
  EXPECT_EQ(doc->blocks[0].level, 1);
  EXPECT_EQ(doc->blocks[1].kind, BlockKind::kHeading);
  EXPECT_EQ(doc->blocks[1].level, 2);
  EXPECT_EQ(doc->blocks[2].kind, BlockKind::kParagraph);
  EXPECT_EQ(doc->blocks[3].kind, BlockKind::kListItem);
  EXPECT_EQ(doc->blocks[3].text, "Free for children");
  EXPECT_EQ(doc->blocks[4].text, "Split run tab");
}

TEST(ExtractDocx, LocalisedStyleIdsReadThroughStylesXml) {
  std::string styles =
      "<?xml version=\"1.0\"?><w:styles xmlns:w=\"http://schemas.openxmlformats.org/"
      "wordprocessingml/2006/main\"><w:style w:type=\"paragraph\" w:styleId=\"berschrift1\">"
      "<w:name w:val=\"heading 1\"/></w:style><w:style w:type=\"paragraph\" "
      "w:styleId=\"Aufzhlung\">"
      "<w:name w:val=\"List Bullet\"/></w:style></w:styles>";
  std::string body =
      docx_paragraph("Preise", "berschrift1") + docx_paragraph("Eintritt", "Aufzhlung");
  auto doc = extract_docx(make_docx(body, "", styles), {});
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  ASSERT_EQ(doc->blocks.size(), 2u);
  EXPECT_EQ(doc->blocks[0].kind, BlockKind::kHeading);
  EXPECT_EQ(doc->blocks[1].kind, BlockKind::kListItem);
  EXPECT_EQ(doc->title, "Preise");  // no core title: the first heading
}

TEST(ExtractDocx, TablesAsRows) {
  auto cell = [](const std::string& t) { return "<w:tc>" + docx_paragraph(t) + "</w:tc>"; };
  std::string plain = "<w:tbl><w:tr>" + cell("Adult ticket") + cell("45 EUR") + "</w:tr></w:tbl>";
  std::string headed = "<w:tbl><w:tr><w:trPr><w:tblHeader/></w:trPr>" + cell("Ticket") +
                       cell("Price") + "</w:tr><w:tr>" + cell("Child") + cell("20 EUR") +
                       "</w:tr></w:tbl>";
  auto doc = extract_docx(make_docx(plain + headed), {});
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  ASSERT_EQ(doc->blocks.size(), 2u);
  EXPECT_EQ(doc->blocks[0].kind, BlockKind::kTableRow);
  EXPECT_EQ(doc->blocks[0].text, "Adult ticket | 45 EUR");
  EXPECT_EQ(doc->blocks[1].text, "Ticket: Child; Price: 20 EUR");
}

TEST(ExtractDocx, InvalidUtf8AndSurrogatesAreReplaced) {
  std::vector<TextBlock> blocks;
  ASSERT_TRUE(
      read_docx_body(testing::docx_document_xml(docx_paragraph("a\xFF b &#xD800;")), {}, blocks)
          .ok());
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].text, "a\uFFFD b \uFFFD\uFFFD\uFFFD");
}

TEST(ExtractDocx, NotADocx) {
  auto not_zip = extract_docx("PK\x03\x04 not really", {});
  ASSERT_FALSE(not_zip.ok());
  EXPECT_EQ(not_zip.error().code, ErrorCode::kInvalidRequest);
  EXPECT_TRUE(not_zip.error().message.starts_with("The file is damaged: "))
      << not_zip.error().message;
  auto no_body = extract_docx(make_zip({{"other.txt", "hello"}}), {});
  ASSERT_FALSE(no_body.ok());
  EXPECT_EQ(no_body.error().message, "The file is damaged: it holds no word/document.xml.");
  auto bad_xml = extract_docx(make_zip({{"word/document.xml", "<w:document><w:body>"}}), {});
  ASSERT_FALSE(bad_xml.ok());
  EXPECT_TRUE(bad_xml.error().message.starts_with("The file is damaged: word/document.xml"))
      << bad_xml.error().message;
}

TEST(ExtractDocx, ZipBombByRatio) {
  // 8 MiB of one letter deflates about a thousand times.
  std::string body = docx_paragraph(std::string(8 << 20, 'a'));
  auto doc = extract_docx(make_docx(body), {});
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.error().message, "The archive expands too much.");
  ExtractLimits lenient;
  lenient.max_ratio = 1e9;
  EXPECT_TRUE(extract_docx(make_docx(body), lenient).ok());
}

TEST(ExtractDocx, ZipBombByTotalSize) {
  std::string text;
  for (int i = 0; text.size() < 300'000; ++i) text += std::to_string(i * 7919 % 100003) + " ";
  std::string docx = make_docx(docx_paragraph(text));
  ExtractLimits limits;
  limits.max_expanded_bytes = 100'000;
  auto doc = extract_docx(docx, limits);
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.error().message, "The archive expands too much.");
  limits.max_expanded_bytes = 1'000'000;
  EXPECT_TRUE(extract_docx(docx, limits).ok());
}

}  // namespace
}  // namespace parley
