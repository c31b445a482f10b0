// The structured agent settings' items are checked, not stored to be skipped later: each wrong
// item is refused with 400 naming it, and the shapes the readers take pass.
#include "domain/setting_shapes.h"

#include <gtest/gtest.h>

#include "domain/agent_settings.h"

namespace parley {
namespace {

std::string refusal(const std::string& update) {
  auto merged = merge_agent_settings("{}", update);
  if (merged.ok()) return "accepted";
  EXPECT_EQ(merged.error().code, ErrorCode::kInvalidRequest);
  return merged.error().message;
}

TEST(SettingShapes, WellFormedItemsPass) {
  EXPECT_EQ(refusal(R"({"booking":{"provider":"calendar","eventTitle":"Fitting","eventLength":45,
      "timeZone":"Europe/Paris","daysAhead":14,"keywords":["book"],
      "availability":{"mon":[["09:00","12:00"],["13:00","17:30"]],"sat":[["10:00","24:00"]]}}})"),
            "accepted");
  EXPECT_EQ(refusal(R"({"apiActions":[{"name":"order_status","description":"Looks an order up",
      "method":"get","url":"https://api.example.com/orders/{orderId}",
      "parameters":[{"name":"orderId","description":"Order number","required":true}],
      "headers":{"X-Api-Key":"k"}}]})"),
            "accepted");
  EXPECT_EQ(
      refusal(
          R"({"forms":[{"id":"returns","name":"Returns","submitLabel":"Send","keywords":["return"],
      "fields":[{"id":"order","label":"Order"}]}],
      "leadForm":{"message":"Leave your details","fields":["email",{"id":"phone","label":"Phone"}],"formId":"returns"},
      "products":[{"name":"Bike","url":"https://shop.example/bike","price":499.5,"compareAtPrice":599,
                   "currency":"EUR","available":true}],
      "blockedCountries":["de","FR"],
      "llm":{"baseUrl":"https://api.example.com/v1","model":"m","apiKey":"k","embeddingModel":"e"}})"),
      "accepted");
}

TEST(SettingShapes, EachWrongItemIsRefusedNamingIt) {
  EXPECT_EQ(refusal(R"({"booking":{"eventLength":-5}})"),
            "Setting 'booking.eventLength' must be a whole number from 5 to 1440.");
  EXPECT_EQ(refusal(R"({"booking":{"eventLength":4}})"),
            "Setting 'booking.eventLength' must be a whole number from 5 to 1440.");
  EXPECT_EQ(refusal(R"({"booking":{"daysAhead":32}})"),
            "Setting 'booking.daysAhead' must be a whole number from 1 to 31.");
  EXPECT_EQ(refusal(R"({"booking":{"timeZone":"Mars/Base"}})"),
            "Setting 'booking.timeZone' must be an IANA time zone such as Europe/Paris.");
  EXPECT_EQ(refusal(R"({"booking":{"availability":"x"}})"),
            "Setting 'booking.availability' must be an object of days (mon … sun).");
  EXPECT_EQ(refusal(R"({"booking":{"availability":{"monday":[]}}})"),
            "Setting 'booking.availability.monday' must be one of the days mon, tue, wed, thu, "
            "fri, sat and sun.");
  EXPECT_EQ(refusal(R"({"booking":{"availability":{"mon":[["12:00","09:00"]]}}})"),
            "Setting 'booking.availability.mon[0]' must be a window [\"HH:MM\", \"HH:MM\"] that "
            "ends after it starts.");
  // Each window's slots are made on every booking question: a day holds at most 24.
  std::string windows;
  for (int i = 0; i < 25; ++i) windows += std::string(i ? "," : "") + R"(["09:00","10:00"])";
  EXPECT_EQ(refusal(R"({"booking":{"availability":{"tue":[)" + windows + "]}}}"),
            "Setting 'booking.availability.tue' must be an array of at most 24 [\"HH:MM\", "
            "\"HH:MM\"] windows.");
  EXPECT_EQ(refusal(R"({"booking":{"provider":7}})"),
            "Setting 'booking.provider' must be a string.");
  EXPECT_EQ(refusal(R"({"apiActions":[{"name":"a"}]})"),
            "Setting 'apiActions[0].url' must be an http or https URL.");
  EXPECT_EQ(refusal(R"({"apiActions":[{"name":"a b","url":"https://x.example"}]})"),
            "Setting 'apiActions[0].name' must be 1 to 50 letters, digits, _ or -.");
  EXPECT_EQ(refusal(R"({"apiActions":[{"name":"a","url":"https://x.example","method":"TRACE"}]})"),
            "Setting 'apiActions[0].method' must be GET, POST, PUT, PATCH or DELETE.");
  EXPECT_EQ(
      refusal(
          R"({"apiActions":[{"name":"a","url":"https://x.example","headers":{"Z":"v\r\nInjected: 1"}}]})"),
      "Setting 'apiActions[0].headers.Z' must be a string on one line.");
  EXPECT_NE(
      refusal(R"({"apiActions":[{"name":"a","url":"https://x.example","headers":{"X\r\nY":"v"}}]})")
          .find("'apiActions[0].headers' must be keyed by header names"),
      std::string::npos);
  EXPECT_EQ(
      refusal(
          R"({"apiActions":[{"name":"a","url":"https://x.example","parameters":[{"name":""}]}]})"),
      "Setting 'apiActions[0].parameters[0].name' must be 1 to 50 letters, digits, _ or -.");
  EXPECT_EQ(refusal(R"({"forms":[null]})"), "Setting 'forms[0]' must be an object.");
  EXPECT_EQ(refusal(R"({"forms":[{"name":"f"}]})"),
            "Setting 'forms[0].id' must be a non-empty string.");
  EXPECT_EQ(refusal(R"({"forms":[{"id":"f","fields":[1]}]})"),
            "Setting 'forms[0].fields[0]' must be an object.");
  EXPECT_EQ(refusal(R"({"leadForm":{"fields":[1,null]}})"),
            "Setting 'leadForm.fields[0]' must be a field name or a field object.");
  EXPECT_EQ(refusal(R"({"products":[{"name":"p","url":"https://a.example","price":"x"}]})"),
            "Setting 'products[0].price' must be a number, 0 or more.");
  EXPECT_EQ(refusal(R"({"blockedCountries":["u"]})"),
            "Setting 'blockedCountries[0]' must be an ISO 3166 country code such as DE.");
  EXPECT_EQ(refusal(R"({"blockedCountries":[1]})"),
            "Setting 'blockedCountries[0]' must be an ISO 3166 country code such as DE.");
  EXPECT_EQ(refusal(R"({"llm":{"x":1}})"),
            "Setting 'llm' has no member 'x'; it takes baseUrl, model, apiKey and embeddingModel.");
  EXPECT_EQ(refusal(R"({"llm":{"embeddingModel":5}})"),
            "Setting 'llm.embeddingModel' must be a string.");
}

}  // namespace
}  // namespace parley
