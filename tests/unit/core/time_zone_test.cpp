#include "core/time_zone.h"

#include <gtest/gtest.h>

#include "core/time_format.h"

namespace parley {
namespace {

int64_t at(const char* iso) { return *parse_timestamp(iso); }

TEST(TimeZone, KnowsTheTzDatabaseNamesOnly) {
  for (const char* name :
       {"UTC", "Europe/Paris", "America/Argentina/Salta", "Asia/Kolkata", "Etc/GMT+2"}) {
    EXPECT_TRUE(is_time_zone(name)) << name;
  }
  for (const char* name :
       {"", "Mars/Olympus", "GMT+2", "+02:00", "europe/paris ", "Europe/Paris\n"}) {
    EXPECT_FALSE(is_time_zone(name)) << name;
  }
  EXPECT_FALSE(is_time_zone(std::string(100, 'A')));
}

TEST(TimeZone, LocalDayFollowsTheZoneAndItsSummerTime) {
  const int64_t nov26 = days_from_civil(2026, 11, 26);
  // 23:30 UTC on 25 November is already the 26th in Paris (UTC+1 in winter)...
  EXPECT_EQ(local_day(at("2026-11-25T23:30:00Z"), "Europe/Paris"), nov26);
  EXPECT_EQ(local_day(at("2026-11-25T23:30:00Z"), "UTC"), nov26 - 1);
  // ...and 22:30 UTC in July is the next day there too (UTC+2 in summer), not in winter.
  EXPECT_EQ(local_day(at("2026-07-01T22:30:00Z"), "Europe/Paris"), days_from_civil(2026, 7, 2));
  EXPECT_EQ(local_day(at("2026-11-25T22:30:00Z"), "Europe/Paris"), nov26 - 1);
  // West of Greenwich the day starts later.
  EXPECT_EQ(local_day(at("2026-11-26T03:00:00Z"), "America/New_York"), nov26 - 1);
  // An unknown zone counts as UTC.
  EXPECT_EQ(local_day(at("2026-11-25T23:30:00Z"), "Nowhere/Else"), nov26 - 1);
  // Before 1970.
  EXPECT_EQ(local_day(at("1969-12-31T23:00:00Z"), "UTC"), -1);
}

TEST(TimeZone, DaysAreWrittenAndReadAsDates) {
  int64_t day = 0;
  ASSERT_TRUE(parse_day("2024-02-29", day));
  EXPECT_EQ(format_day(day), "2024-02-29");
  EXPECT_EQ(format_day(0), "1970-01-01");
  for (const char* bad : {"2026-02-29", "2026-13-01", "2026-00-10", "2026-1-01", "2026-01-1",
                          "20260101", "2026-01-01T00:00", "abcd-ef-gh", ""}) {
    EXPECT_FALSE(parse_day(bad, day)) << bad;
  }
}

}  // namespace
}  // namespace parley
