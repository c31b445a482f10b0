#include "core/time_format.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

TEST(TimeFormat, FormatsMillisecondsInUtc) {
  EXPECT_EQ(format_timestamp(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(format_timestamp(1795345572123), "2026-11-22T11:06:12.123Z");
  EXPECT_EQ(format_timestamp(951782400000), "2000-02-29T00:00:00.000Z");
}

TEST(TimeFormat, ParsesWhatItFormats) {
  for (int64_t ms : {int64_t{0}, int64_t{1795345572123}, int64_t{951782400999}}) {
    EXPECT_EQ(parse_timestamp(format_timestamp(ms)), ms);
  }
}

TEST(TimeFormat, ParsesOffsetsAndDates) {
  EXPECT_EQ(parse_timestamp("2026-11-22T12:26:12+02:00"), parse_timestamp("2026-11-22T10:26:12Z"));
  EXPECT_EQ(parse_timestamp("2026-11-22"), parse_timestamp("2026-11-22T00:00:00Z"));
  EXPECT_EQ(parse_timestamp("2026-11-22T10:26Z"), parse_timestamp("2026-11-22T10:26:00.000Z"));
}

TEST(TimeFormat, RefusesMalformed) {
  for (const char* bad : {"", "yesterday", "2026-13-01", "2026-02-30", "2026-11-22T10:26:12",
                          "2026-11-22T25:00:00Z", "2026-11-22T10:26:12Zjunk", "1732270000"}) {
    EXPECT_FALSE(parse_timestamp(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace parley
