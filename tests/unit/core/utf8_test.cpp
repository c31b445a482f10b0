#include "core/utf8.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

TEST(Utf8, AcceptsWellFormedText) {
  EXPECT_TRUE(valid_utf8(""));
  EXPECT_TRUE(valid_utf8("plain ASCII text, longer than eight bytes"));
  EXPECT_TRUE(valid_utf8("Z\xC3\xBCrich \xE2\x82\xAC \xF0\x9F\x98\x80 \xE6\x97\xA5\xE6\x9C\xAC"));
  EXPECT_TRUE(valid_utf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF
}

TEST(Utf8, RefusesWhatIsNot) {
  EXPECT_FALSE(valid_utf8("Z\xFCrich"));         // Latin-1
  EXPECT_FALSE(valid_utf8("\xC0\xAF"));          // overlong '/'
  EXPECT_FALSE(valid_utf8("\xE0\x80\xAF"));      // overlong
  EXPECT_FALSE(valid_utf8("\xED\xA0\x80"));      // a surrogate
  EXPECT_FALSE(valid_utf8("\xF4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_FALSE(valid_utf8("abc\xE2\x82"));       // cut short
  EXPECT_FALSE(
      valid_utf8("\xFF\xFE"
                 "a\0b\0"));                 // UTF-16
  EXPECT_FALSE(valid_utf8("12345678\x80"));  // a lone continuation byte after a run
}

}  // namespace
}  // namespace parley
