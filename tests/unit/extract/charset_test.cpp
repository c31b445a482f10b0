// Charsets to UTF-8: the declaration's order (BOM, Content-Type, <meta>), detection, WHATWG's
// labels, and invalid bytes replaced.
#include "extract/charset.h"

#include <gtest/gtest.h>
#include <unicode/unistr.h>

namespace parley {
namespace {

TEST(Charset, ReadsTheContentTypeParameter) {
  EXPECT_EQ(charset_parameter("text/html; charset=ISO-8859-1"), "ISO-8859-1");
  EXPECT_EQ(charset_parameter("text/html;CHARSET=\"utf-8\""), "utf-8");
  EXPECT_EQ(charset_parameter("text/html; q=1; charset=shift_jis"), "shift_jis");
  EXPECT_EQ(charset_parameter("text/html"), std::nullopt);
  EXPECT_EQ(charset_parameter("text/html; charset="), std::nullopt);
}

TEST(Charset, PrescansMetaTags) {
  EXPECT_EQ(prescan_meta_charset("<html><head><meta charset=\"windows-1252\">"), "windows-1252");
  EXPECT_EQ(prescan_meta_charset("<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; "
                                 "charset=Shift_JIS\">"),
            "Shift_JIS");
  EXPECT_EQ(prescan_meta_charset("<meta charset='utf-16le'>"), "UTF-8");
  EXPECT_EQ(prescan_meta_charset("<meta name=viewport content=width>"), std::nullopt);
  // Only the first 1024 bytes are looked at.
  EXPECT_EQ(prescan_meta_charset(std::string(1100, ' ') + "<meta charset=latin1>"), std::nullopt);
}

TEST(Charset, DecodesLatin1AsWindows1252) {
  // "Café – 5 €" in Windows-1252: 0x80 is the euro sign, 0x96 the en dash.
  DecodedText d = decode_text("Caf\xE9 \x96 5 \x80", "text/plain; charset=iso-8859-1", false);
  EXPECT_EQ(d.text, "Café – 5 €");
  EXPECT_EQ(d.charset, "windows-1252");
}

TEST(Charset, Windows1252TableMatchesIcu) {
  // Every byte ICU's windows-1252 assigns converts alike; 0x81, 0x8D, 0x8F, 0x90 and 0x9D are
  // unassigned and map to the C1 control of the same value, as WHATWG's index says.
  for (int b = 1; b < 256; ++b) {
    std::string byte(1, static_cast<char>(b));
    std::string ours = *convert_to_utf8(byte, "windows-1252");
    if (b == 0x81 || b == 0x8D || b == 0x8F || b == 0x90 || b == 0x9D) {
      EXPECT_EQ(ours, std::string("\xC2") + static_cast<char>(b)) << b;
      continue;
    }
    std::string icu;
    icu::UnicodeString(byte.data(), 1, "windows-1252").toUTF8String(icu);
    EXPECT_EQ(ours, icu) << b;
  }
}

TEST(Charset, DecodesShiftJis) {
  // 日本語 in Shift_JIS.
  DecodedText d = decode_text("\x93\xFA\x96\x7B\x8C\xEA", "text/plain; charset=Shift_JIS", false);
  EXPECT_EQ(d.text, "日本語");
}

TEST(Charset, MetaDeclarationForHtmlOnly) {
  std::string page =
      "<meta charset=\"iso-8859-1\"><p>Gr\xFC\xDF"
      "e</p>";
  EXPECT_EQ(decode_text(page, "text/html", true).text, "<meta charset=\"iso-8859-1\"><p>Grüße</p>");
  // The Content-Type wins over the <meta>.
  EXPECT_EQ(decode_text("<meta charset=\"utf-8\">\xE9", "text/html; charset=latin1", true).text,
            "<meta charset=\"utf-8\">é");
}

TEST(Charset, ByteOrderMarksWinAndAreRemoved) {
  EXPECT_EQ(decode_text("\xEF\xBB\xBFhi", "text/plain; charset=latin1", false).text, "hi");
  EXPECT_EQ(decode_text(std::string("\xFF\xFEh\0\xE9\0", 6), "", false).text, "hé");
  DecodedText be = decode_text(std::string("\xFE\xFF\0h\0i", 6), "", false);
  EXPECT_EQ(be.text, "hi");
  EXPECT_EQ(be.charset, "UTF-16BE");
}

TEST(Charset, DetectsWithoutADeclaration) {
  EXPECT_EQ(detect_charset("plain ascii"), "UTF-8");
  EXPECT_EQ(detect_charset("caf\xC3\xA9"), "UTF-8");
  std::string latin =
      "Les mus\xE9"
      "es de la ville sont ouverts tous les jours. L'entr\xE9"
      "e co\xFB"
      "te 12 euros pour les adultes et elle est gratuite pour les \xE9l\xE8ves.";
  DecodedText d = decode_text(latin, "", false);
  EXPECT_NE(d.charset, "UTF-8");
  EXPECT_NE(d.text.find("musées"), std::string::npos) << d.charset;
  EXPECT_NE(d.text.find("élèves"), std::string::npos);
}

TEST(Charset, UnknownDeclarationFallsBackToDetection) {
  EXPECT_EQ(decode_text("caf\xC3\xA9", "text/plain; charset=no-such-charset", false).text, "café");
}

TEST(Charset, InvalidUtf8IsReplaced) {
  EXPECT_TRUE(is_valid_utf8("h\xC3\xA9llo"));
  EXPECT_FALSE(is_valid_utf8("\xC3"));
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));  // a surrogate
  EXPECT_FALSE(is_valid_utf8("\xC0\xAF"));      // overlong
  EXPECT_EQ(repair_utf8("a\xFF"
                        "b\xC3"),
            "a\uFFFDb\uFFFD");
  EXPECT_EQ(decode_text("ok \xFF", "text/plain; charset=utf-8", false).text, "ok \uFFFD");
}

}  // namespace
}  // namespace parley
