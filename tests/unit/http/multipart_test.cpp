#include "http/multipart.h"

#include <gtest/gtest.h>

#include <string>

namespace parley {
namespace {

// A body as a browser writes it: each part's headers, a blank line, its bytes.
std::string form(const std::string& boundary,
                 const std::vector<std::pair<std::string, std::string>>& parts) {
  std::string out;
  for (const auto& [headers, bytes] : parts)
    out += "--" + boundary + "\r\n" + headers + "\r\n\r\n" + bytes + "\r\n";
  return out + "--" + boundary + "--\r\n";
}

std::string error_of(std::string_view body, std::string_view boundary = "XyZ",
                     const MultipartLimits& limits = {}) {
  auto parts = parse_multipart(body, boundary, limits);
  EXPECT_FALSE(parts.ok());
  if (parts.ok()) return "";
  EXPECT_EQ(parts.error().code, ErrorCode::kInvalidRequest);
  return parts.error().message;
}

TEST(MultipartBoundary, ReadsATokenOrAQuotedBoundary) {
  EXPECT_EQ(*multipart_boundary("multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxk"),
            "----WebKitFormBoundary7MA4YWxk");
  EXPECT_EQ(*multipart_boundary("Multipart/Form-Data;BOUNDARY=\"a b:c\""), "a b:c");
  EXPECT_EQ(*multipart_boundary("multipart/form-data; charset=utf-8; boundary=x"), "x");
}

TEST(MultipartBoundary, RefusesOtherTypesAndBadBoundaries) {
  for (std::string_view ct :
       {"application/json", "multipart/mixed; boundary=x", "multipart/form-data",
        "multipart/form-data; boundary=", "multipart/form-data; boundary=\"x \"",
        "multipart/form-data; boundary=\"a\x01\"", "multipart/form-data; boundary=\"open", ""}) {
    auto b = multipart_boundary(ct);
    ASSERT_FALSE(b.ok()) << ct;
    EXPECT_NE(b.error().message.find("multipart/form-data"), std::string::npos) << ct;
  }
  EXPECT_FALSE(multipart_boundary("multipart/form-data; boundary=" + std::string(71, 'a')).ok());
  EXPECT_TRUE(multipart_boundary("multipart/form-data; boundary=" + std::string(70, 'a')).ok());
}

TEST(Multipart, ReadsNamesFilenamesTypesAndBytes) {
  // A NUL, and the delimiter's first bytes without the rest, belong to the file.
  std::string pdf =
      std::string("%PDF-1.4\r\n", 10) + std::string(1, '\0') + "binary\r\n--Xyz\r\n--XyZ";
  pdf.pop_back();
  std::string body =
      form("XyZ", {{"Content-Disposition: form-data; name=\"file\"; filename=\"report.pdf\"\r\n"
                    "Content-Type: application/pdf",
                    pdf},
                   {"content-disposition: form-data; name=mapping", "{\"E-mail\":\"email\"}"}});
  auto parts = parse_multipart(body, "XyZ");
  ASSERT_TRUE(parts.ok()) << parts.error().message;
  ASSERT_EQ(parts->size(), 2u);
  EXPECT_EQ((*parts)[0].name, "file");
  EXPECT_EQ((*parts)[0].filename, "report.pdf");
  EXPECT_EQ((*parts)[0].content_type, "application/pdf");
  EXPECT_EQ((*parts)[0].body, pdf);
  EXPECT_EQ((*parts)[1].name, "mapping");
  EXPECT_FALSE((*parts)[1].filename.has_value());
  EXPECT_EQ((*parts)[1].content_type, "");
  EXPECT_EQ((*parts)[1].body, "{\"E-mail\":\"email\"}");
}

TEST(Multipart, IgnoresPreambleEpilogueAndTransportPadding) {
  std::string body =
      "This is the preamble.\r\n--XyZ  \t\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n"
      "one\r\n--XyZ--\r\nthe epilogue --XyZ";
  auto parts = parse_multipart(body, "XyZ");
  ASSERT_TRUE(parts.ok()) << parts.error().message;
  ASSERT_EQ(parts->size(), 1u);
  EXPECT_EQ((*parts)[0].body, "one");
}

TEST(Multipart, KeepsAnEmptyPartAndAnEmptyFile) {
  auto parts = parse_multipart(
      form("b", {{"Content-Disposition: form-data; name=\"file\"; filename=\"\"", ""}}), "b");
  ASSERT_TRUE(parts.ok());
  EXPECT_EQ((*parts)[0].body, "");
  EXPECT_EQ((*parts)[0].filename, "");
}

TEST(Multipart, DecodesEscapesAndTheExtendedFilename) {
  auto parts = parse_multipart(
      form("b",
           {{"Content-Disposition: form-data; name=\"f\"; filename=\"a \\\"quoted\\\" name.txt\"",
             "x"},
            {"Content-Disposition: form-data; name=\"g\"; filename=\"rates.pdf\"; "
             "filename*=UTF-8''%E2%82%AC%20rates.pdf",
             "y"},
            {"Content-Disposition: form-data; name=\"h\"; filename=\"C:\\Users\\ann\\say "
             "%22hi%22.txt\"",
             "z"}}),
      "b");
  ASSERT_TRUE(parts.ok()) << parts.error().message;
  EXPECT_EQ((*parts)[0].filename, "a \"quoted\" name.txt");
  EXPECT_EQ((*parts)[1].filename, "\xE2\x82\xAC rates.pdf");
  // A browser's name: backslashes as they are, a quote written %22.
  EXPECT_EQ((*parts)[2].filename, "C:\\Users\\ann\\say \"hi\".txt");
}

TEST(Multipart, RefusesWhatIsNotStrictlyWellFormed) {
  EXPECT_NE(error_of("no boundary here").find("does not occur"), std::string::npos);
  EXPECT_NE(error_of("--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nabc")
                .find("closing boundary"),
            std::string::npos);
  EXPECT_NE(
      error_of("--XyZ\r\nContent-Disposition: form-data; name=\"a\"").find("inside the headers"),
      std::string::npos);
  EXPECT_NE(
      error_of("--XyZ\nContent-Disposition: form-data; name=\"a\"\n\nabc\n--XyZ--").find("CRLF"),
      std::string::npos);
  EXPECT_NE(error_of(form("XyZ", {{"Content-Type: text/plain", "x"}})).find("Content-Disposition"),
            std::string::npos);
  EXPECT_NE(error_of(form("XyZ", {{"Content-Disposition: attachment; name=\"a\"", "x"}}))
                .find("form-data"),
            std::string::npos);
  EXPECT_NE(error_of(form("XyZ", {{"Content-Disposition: form-data; filename=\"a\"", "x"}}))
                .find("name="),
            std::string::npos);
  EXPECT_NE(
      error_of(form("XyZ", {{"Content-Disposition: form-data; name=\"a", "x"}})).find("part 1"),
      std::string::npos);
  EXPECT_NE(error_of(form("XyZ", {{"Content-Disposition: form-data; name=\"a\"\r\n folded", "x"}}))
                .find("folded"),
            std::string::npos);
  EXPECT_NE(
      error_of(form("XyZ", {{"Content-Disposition: form-data; name=\"a\"\r\nX-A\x01: b", "x"}}))
          .find("control character"),
      std::string::npos);
  EXPECT_NE(error_of(form("XyZ", {{"Content-Disposition: form-data; name=\"a\"\r\n"
                                   "Content-Transfer-Encoding: base64",
                                   "eA=="}}))
                .find("Content-Transfer-Encoding"),
            std::string::npos);
  EXPECT_NE(error_of(form("XyZ", {{"Content-Disposition: form-data; name=\"a\"\r\n"
                                   "Content-Disposition: form-data; name=\"b\"",
                                   "x"}}))
                .find("two Content-Disposition"),
            std::string::npos);
}

TEST(Multipart, HoldsItsLimits) {
  MultipartLimits limits;
  limits.max_parts = 2;
  limits.max_header_bytes = 64;
  limits.max_headers = 2;
  std::string disposition = "Content-Disposition: form-data; name=\"a\"";
  EXPECT_NE(error_of(form("XyZ", {{disposition, "1"}, {disposition, "2"}, {disposition, "3"}}),
                     "XyZ", limits)
                .find("more than 2 parts"),
            std::string::npos);
  EXPECT_NE(error_of(form("XyZ", {{disposition + "\r\nX-Long: " + std::string(100, 'x'), "1"}}),
                     "XyZ", limits)
                .find("exceed 64 bytes"),
            std::string::npos);
  EXPECT_NE(error_of(form("XyZ", {{disposition + "\r\nA: 1\r\nB: 2", "1"}}), "XyZ", limits)
                .find("more than 2 headers"),
            std::string::npos);
  EXPECT_TRUE(
      parse_multipart(form("XyZ", {{disposition, "1"}, {disposition, "2"}}), "XyZ", limits).ok());
}

TEST(MultipartParts, FindsTheOnePartOfAName) {
  // The parts are views into the body, so the body outlives them.
  const std::string body = form("b", {{"Content-Disposition: form-data; name=\"file\"", "x"},
                                      {"Content-Disposition: form-data; name=\"twice\"", "1"},
                                      {"Content-Disposition: form-data; name=\"twice\"", "2"}});
  auto parts = parse_multipart(body, "b");
  ASSERT_TRUE(parts.ok());
  EXPECT_EQ((*single_part(*parts, "file"))->body, "x");
  auto missing = single_part(*parts, "mapping");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("'mapping'"), std::string::npos);
  EXPECT_EQ(*optional_part(*parts, "mapping"), nullptr);
  auto twice = optional_part(*parts, "twice");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().message.find("'twice'"), std::string::npos);
}

}  // namespace
}  // namespace parley
