// A table's column labels repeat on every row, but they may not multiply a document's text: a
// long header over many short rows is read with its labels while they add at most twice the
// values' text (plus RowLabels::kSlack), then without them, in every reader that labels rows.
#include <gtest/gtest.h>

#include "extract/docx.h"
#include "extract/html.h"
#include "extract/markdown.h"
#include "extract/plain_text.h"
#include "test_documents.h"

namespace parley {
namespace {

size_t text_size(const ExtractedDocument& doc) {
  size_t n = 0;
  for (const TextBlock& b : doc.blocks) n += b.text.size();
  return n;
}

TEST(RowLabels, ShortLabelsAreKeptAndLongOnesStopWhenTheyWouldMultiplyTheText) {
  RowLabels labels;
  std::string line;
  labels.append(line, "Adult ticket", 6);
  line += "45 EUR";
  EXPECT_EQ(line, "Adult ticket: 45 EUR");
  RowLabels tight;
  std::string header(RowLabels::kSlack, 'h');
  std::string first, second;
  tight.append(first, header, 1);   // within the slack
  tight.append(second, header, 1);  // past it
  EXPECT_EQ(first, header + ": ");
  EXPECT_EQ(second, "");
}

// 2,000 rows of one letter under a 5,000-character header: 10 MB of text with every label; the
// first rows keep it (the slack), the rest are read without it.
TEST(RowLabels, EveryReaderBoundsTheLabelsOfALongHeader) {
  const std::string header(5'000, 'h');
  const int rows = 2'000;
  const size_t bound = 3 * (rows * 2 + header.size()) + RowLabels::kSlack;

  std::string csv = header + ",b\n";
  for (int i = 0; i < rows; ++i) csv += "x,y\n";
  ExtractedDocument from_csv = extract_csv(csv);
  EXPECT_EQ(from_csv.blocks.size(), static_cast<size_t>(rows));
  EXPECT_EQ(from_csv.blocks.front().text, header + ": x; b: y");
  EXPECT_LT(text_size(from_csv), bound);
  EXPECT_EQ(from_csv.blocks.back().text, "x; b: y");  // the long label stopped, the short goes on

  std::string md = "|" + header + "|b|\n|-|-|\n";
  for (int i = 0; i < rows; ++i) md += "|x|y|\n";
  EXPECT_LT(text_size(extract_markdown(md)), bound);

  std::string html = "<table><tr><th>" + header + "<th>b</tr>";
  for (int i = 0; i < rows; ++i) html += "<tr><td>x<td>y</tr>";
  ExtractedDocument from_html = extract_html(html + "</table>");
  EXPECT_EQ(from_html.blocks.size(), static_cast<size_t>(rows));
  EXPECT_LT(text_size(from_html), bound);

  std::string body =
      "<w:tbl><w:tr><w:trPr><w:tblHeader/></w:trPr><w:tc><w:p><w:r><w:t>" + header +
      "</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>b</w:t></w:r></w:p></w:tc></w:tr>";
  for (int i = 0; i < rows; ++i)
    body +=
        "<w:tr><w:tc><w:p><w:r><w:t>x</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>y</w:t></w:r></"
        "w:p></w:tc></w:tr>";
  ExtractLimits repetitive;  // the rows compress far past the zip bomb's ratio
  repetitive.max_ratio = 1e9;
  auto from_docx = extract_docx(testing::make_docx(body + "</w:tbl>"), repetitive);
  ASSERT_TRUE(from_docx.ok()) << from_docx.error().message;
  EXPECT_EQ(from_docx->blocks.size(), static_cast<size_t>(rows));
  EXPECT_LT(text_size(*from_docx), bound);
}

}  // namespace
}  // namespace parley
