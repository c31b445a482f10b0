// Media-type sniffing: content first, then the declared type, then the file name.
#include "extract/media_type.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

MediaType type_of(std::string_view bytes, std::string_view content_type = "",
                  std::string_view filename = "") {
  return sniff_media_type(bytes, content_type, filename).type;
}

TEST(SniffMediaType, MagicBytesWinOverDeclaredTypeAndName) {
  EXPECT_EQ(type_of("%PDF-1.7\n...", "text/html", "page.html"), MediaType::kPdf);
  EXPECT_EQ(sniff_media_type("%PDF-1.4", "", "").name, "application/pdf");
  std::string docx = std::string("PK\x03\x04", 4) + "....word/document.xml....";
  SniffedType t = sniff_media_type(docx, "application/octet-stream", "x.bin");
  EXPECT_EQ(t.type, MediaType::kDocx);
  EXPECT_EQ(t.name, kDocxMediaType);
  EXPECT_EQ(type_of("  \n<!DOCTYPE HTML><p>x", "text/plain", "notes.txt"), MediaType::kHtml);
  EXPECT_EQ(type_of("<html lang=en>", "", "readme.md"), MediaType::kHtml);
}

TEST(SniffMediaType, NamesWhatItCannotRead) {
  SniffedType png = sniff_media_type("\x89PNG\r\n\x1A\n\0\0\0\rIHDR", "text/plain", "a.txt");
  EXPECT_EQ(png.type, MediaType::kUnsupported);
  EXPECT_EQ(png.name, "image/png");
  EXPECT_EQ(sniff_media_type("\xFF\xD8\xFF\xE0", "", "").name, "image/jpeg");
  EXPECT_EQ(sniff_media_type("GIF89a....", "", "").name, "image/gif");
  SniffedType zip = sniff_media_type(std::string("PK\x03\x04", 4) + "other.txt", "", "a.zip");
  EXPECT_EQ(zip.type, MediaType::kUnsupported);
  EXPECT_EQ(zip.name, "application/zip");
  SniffedType binary = sniff_media_type(std::string("\x01\x02\x03\x00\x10", 5), "", "data.bin");
  EXPECT_EQ(binary.type, MediaType::kUnsupported);
  EXPECT_EQ(binary.name, "application/octet-stream");
  EXPECT_EQ(sniff_media_type(std::string("\x01\x02\x00", 3), "application/x-thing", "").name,
            "application/x-thing");
  // A declared type of something else, with text content: still not something we read.
  SniffedType json = sniff_media_type("{\"a\": 1}", "application/json", "a.json");
  EXPECT_EQ(json.type, MediaType::kUnsupported);
  EXPECT_EQ(json.name, "application/json");
}

TEST(SniffMediaType, DeclaredTypeBeforeFileName) {
  EXPECT_EQ(type_of("# Title", "text/markdown; charset=utf-8", "x.txt"), MediaType::kMarkdown);
  EXPECT_EQ(type_of("a,b\n1,2", "text/csv", "x.md"), MediaType::kCsv);
  EXPECT_EQ(type_of("<p>hi</p>", "TEXT/HTML; charset=UTF-8", "x.txt"), MediaType::kHtml);
  // A declared PDF without the signature goes to the PDF reader, which calls it damaged.
  EXPECT_EQ(type_of("garbage", "application/pdf", ""), MediaType::kPdf);
}

TEST(SniffMediaType, FileNameWhenTheDeclaredTypeSaysLittle) {
  EXPECT_EQ(type_of("# Title", "", "README.md"), MediaType::kMarkdown);
  EXPECT_EQ(type_of("# Title", "text/plain", "notes.markdown"), MediaType::kMarkdown);
  EXPECT_EQ(type_of("a,b\n1,2", "application/octet-stream", "products.CSV"), MediaType::kCsv);
  EXPECT_EQ(type_of("hello", "", "a.txt"), MediaType::kPlainText);
  EXPECT_EQ(type_of("<p>hello</p>", "", "page.htm"), MediaType::kHtml);
  EXPECT_EQ(type_of("hello", "", "dir.md/file"), MediaType::kPlainText);
  EXPECT_EQ(sniff_media_type("hello", "", "").name, "text/plain");
}

TEST(SniffMediaType, WeakHtmlOnlyWithoutABetterHint) {
  EXPECT_EQ(type_of("<div>Hello</div>"), MediaType::kHtml);
  EXPECT_EQ(type_of("<!-- comment -->\n# Title", "", "README.md"), MediaType::kMarkdown);
  EXPECT_EQ(type_of("<p>x</p>", "text/plain", ""), MediaType::kPlainText);
  EXPECT_EQ(type_of("<beep> is not a tag we know"), MediaType::kPlainText);
}

TEST(SniffMediaType, ByteOrderMarksAreText) {
  EXPECT_EQ(type_of("\xFF\xFEh\0i\0", "", ""), MediaType::kPlainText);
  EXPECT_EQ(type_of("\xFE\xFF\0h\0i", "", "a.csv"), MediaType::kCsv);
  EXPECT_EQ(type_of("\xEF\xBB\xBF<!doctype html><p>x", "", ""), MediaType::kHtml);
}

TEST(MimeEssence, LowerCaseWithoutParameters) {
  EXPECT_EQ(mime_essence(" Text/HTML ; charset=utf-8"), "text/html");
  EXPECT_EQ(mime_essence(""), "");
}

}  // namespace
}  // namespace parley
