#include "engine/booking.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/time_format.h"
#include "intent_test_helpers.h"

#include "views/chat_json.h"

namespace parley {
namespace {

// The tests write settings as an agent stores them, and read the offer as the reply shows it.
AgentSettings read(std::string_view json) { return parse_agent_settings(json); }

std::optional<std::string> json_of(const std::optional<BookingBlock>& booking) {
  if (!booking) return std::nullopt;
  JsonWriter w;
  write_booking_json(w, *booking);
  return w.str();
}

constexpr const char* kBookingSettings =
    R"({"booking": {"provider": "calendar", "eventTitle": "Intro call",
  "eventLength": 60, "timeZone": "Europe/Paris", "daysAhead": 2,
  "availability": {"mon": [["09:00", "11:00"]], "tue": [["23:00", "24:00"]]}}})";

int64_t at(const char* iso) { return *parse_timestamp(iso); }

TEST(Booking, SlotsFromTheAgentsHoursGroupedByTheCallersDates) {
  // Sunday 2026-11-22 12:00 UTC; Monday 09:00 and 10:00 Paris are 08:00 and 09:00 UTC.
  auto utc = nlohmann::json::parse(
      *json_of(booking_offer(read(kBookingSettings), "UTC", at("2026-11-22T12:00:00.000Z"))));
  EXPECT_EQ(utc["provider"], "calendar");
  EXPECT_EQ(utc["eventTitle"], "Intro call");
  EXPECT_EQ(utc["eventLength"], 60);
  EXPECT_EQ(utc["timeZone"], "UTC");
  EXPECT_EQ(utc["days"], nlohmann::json::parse(R"([
    {"date": "2026-11-23", "slots": ["2026-11-23T08:00:00.000Z", "2026-11-23T09:00:00.000Z"]},
    {"date": "2026-11-24", "slots": ["2026-11-24T22:00:00.000Z"]}])"));
  // In Tokyo (UTC+9) the same slots fall on other dates.
  auto tokyo = nlohmann::json::parse(*json_of(
      booking_offer(read(kBookingSettings), "Asia/Tokyo", at("2026-11-22T12:00:00.000Z"))));
  EXPECT_EQ(tokyo["timeZone"], "Asia/Tokyo");
  EXPECT_EQ(tokyo["days"], nlohmann::json::parse(R"([
    {"date": "2026-11-23", "slots": ["2026-11-23T08:00:00.000Z", "2026-11-23T09:00:00.000Z"]},
    {"date": "2026-11-25", "slots": ["2026-11-24T22:00:00.000Z"]}])"));
}

TEST(Booking, PastSlotsAreLeftOut) {
  auto j = nlohmann::json::parse(
      *json_of(booking_offer(read(kBookingSettings), "UTC", at("2026-11-23T08:30:00.000Z"))));
  EXPECT_EQ(j["days"][0]["slots"], nlohmann::json::parse(R"(["2026-11-23T09:00:00.000Z"])"));
}

TEST(Booking, NoSettingNoOffer) {
  EXPECT_FALSE(booking_offer(read("{}"), "UTC", 0).has_value());
  EXPECT_FALSE(booking_offer(read(R"({"booking": {"eventLength": 0}})"), "UTC", 0).has_value());
}

TEST(Booking, KeywordsDecideWhenItIsOffered) {
  EXPECT_TRUE(asks_for_booking(read(kBookingSettings), "Can I book a meeting?"));
  EXPECT_TRUE(asks_for_booking(read(kBookingSettings), "Schedule a demo please"));
  EXPECT_FALSE(asks_for_booking(read(kBookingSettings), "What is a facebook page?"));
  EXPECT_FALSE(asks_for_booking(read("{}"), "Can I book a meeting?"));
  EXPECT_TRUE(
      asks_for_booking(read(R"({"booking": {"keywords": ["consultation"]}})"), "A consultation?"));
  EXPECT_FALSE(asks_for_booking(read(R"({"booking": {"keywords": ["consultation"]}})"), "Book it"));
}

TEST(Booking, KeywordsAreMatchedAsNormalisedWords) {
  EXPECT_TRUE(asks_for_booking(read(kBookingSettings), "BOOKINGS?"));
  EXPECT_TRUE(asks_for_booking(read(kBookingSettings), "two calls"));
  EXPECT_FALSE(asks_for_booking(read(kBookingSettings), "a bookstore"));
  EXPECT_FALSE(asks_for_booking(read(kBookingSettings), "recall"));
  const char* phrase = R"({"booking": {"keywords": ["free consultation"]}})";
  EXPECT_TRUE(asks_for_booking(read(phrase), "Is the FREE consultations offer on?"));
  EXPECT_FALSE(asks_for_booking(read(phrase), "a consultation, free"));
}

}  // namespace
}  // namespace parley
