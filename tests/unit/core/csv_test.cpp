#include "core/csv.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

std::vector<std::vector<std::string>> read_all(std::string_view text, char delimiter = 0) {
  CsvReader reader(text, delimiter);
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> fields;
  while (true) {
    auto more = reader.next(fields);
    EXPECT_TRUE(more.ok()) << more.error().message;
    if (!more.ok() || !*more) break;
    rows.push_back(fields);
  }
  return rows;
}

using Rows = std::vector<std::vector<std::string>>;

TEST(CsvReader, ReadsPlainAndQuotedFields) {
  EXPECT_EQ(read_all("email,name\r\nana@example.com,Ana\r\n\"b@x.io\",\"Bo, Jr.\"\r\n"),
            (Rows{{"email", "name"}, {"ana@example.com", "Ana"}, {"b@x.io", "Bo, Jr."}}));
}

TEST(CsvReader, QuotedFieldsHoldQuotesAndLineBreaks) {
  EXPECT_EQ(read_all("a,b\n\"say \"\"hi\"\"\",\"two\nlines\"\n"),
            (Rows{{"a", "b"}, {"say \"hi\"", "two\nlines"}}));
}

TEST(CsvReader, SkipsTheByteOrderMarkAndTakesAnyLineEnd) {
  EXPECT_EQ(read_all("\xEF\xBB\xBFid\rx\ny\r\nz"), (Rows{{"id"}, {"x"}, {"y"}, {"z"}}));
}

TEST(CsvReader, KeepsEmptyFieldsAndEmptyLines) {
  EXPECT_EQ(read_all("a,b,c\n,,\n\nx,,\n"),
            (Rows{{"a", "b", "c"}, {"", "", ""}, {""}, {"x", "", ""}}));
}

TEST(CsvReader, GuessesSemicolonAndTabFromTheFirstLine) {
  CsvReader semi("email;name;\"a,b\"\nx;y;z\n");
  EXPECT_EQ(semi.delimiter(), ';');
  EXPECT_EQ(read_all("email;name\nana@example.com;Ana, Ltd\n"),
            (Rows{{"email", "name"}, {"ana@example.com", "Ana, Ltd"}}));
  EXPECT_EQ(read_all("email\tname\nx\ty\n"), (Rows{{"email", "name"}, {"x", "y"}}));
  EXPECT_EQ(CsvReader("single").delimiter(), ',');
}

TEST(CsvReader, CountsRecordsNotLines) {
  CsvReader reader("h\n\"multi\nline\"\nlast\n");
  std::vector<std::string> fields;
  ASSERT_TRUE(*reader.next(fields));
  ASSERT_TRUE(*reader.next(fields));
  ASSERT_TRUE(*reader.next(fields));
  EXPECT_EQ(fields[0], "last");
  EXPECT_EQ(reader.record(), 3u);
  EXPECT_FALSE(*reader.next(fields));
}

TEST(CsvReader, RefusesAnUnclosedOrTrailedQuoteNamingTheRow) {
  CsvReader open("a\n\"never closed\n");
  std::vector<std::string> fields;
  ASSERT_TRUE(*open.next(fields));
  auto bad = open.next(fields);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("Row 2"), std::string::npos);
  EXPECT_NE(bad.error().message.find("never closed"), std::string::npos);
  CsvReader trailed("\"a\"b,c\n");
  auto after = trailed.next(fields);
  ASSERT_FALSE(after.ok());
  EXPECT_NE(after.error().message.find("Row 1"), std::string::npos);
}

}  // namespace
}  // namespace parley
