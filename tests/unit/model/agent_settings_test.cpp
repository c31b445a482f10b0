// The typed settings read what every former JSON reader read: members of the wrong type are
// absent, entries of the wrong type skipped, values kept as written.
#include "model/agent_settings.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

TEST(AgentSettings, DefaultsWhenNotAnObject) {
  for (const char* text : {"", "not json", "[]", "{}"}) {
    AgentSettings s = parse_agent_settings(text);
    EXPECT_EQ(s.reply.fallback_message, kDefaultFallbackMessage);
    EXPECT_EQ(s.reply.engine, "retrieval");
    EXPECT_FALSE(s.reply.monthly_message_cap.has_value());
    EXPECT_FALSE(s.handoff.available());
    EXPECT_TRUE(s.forms.empty());
    EXPECT_FALSE(s.lead_form.has_value());
    EXPECT_FALSE(s.booking.has_value());
  }
}

TEST(AgentSettings, ReplyAndLlm) {
  AgentSettings s = parse_agent_settings(
      R"({"showSources":true,"followUps":"yes","fallbackMessage":"","monthlyMessageCap":-1,
          "engine":"openai","instructions":"Be brief.","topicAnalysis":true,
          "llm":{"baseUrl":"https://llm.example.com","model":7,"apiKey":"k"}})");
  EXPECT_TRUE(s.reply.show_sources);
  EXPECT_FALSE(s.reply.follow_ups);
  EXPECT_EQ(s.reply.fallback_message, kDefaultFallbackMessage);
  EXPECT_FALSE(s.reply.monthly_message_cap.has_value());
  EXPECT_EQ(s.reply.engine, "openai");
  EXPECT_EQ(s.instructions, "Be brief.");
  EXPECT_TRUE(s.topic_analysis);
  EXPECT_EQ(s.llm.base_url, "https://llm.example.com");
  EXPECT_EQ(s.llm.model, "");
  EXPECT_EQ(s.llm.api_key, "k");
}

TEST(AgentSettings, FormsKeepTheirFieldsAsWritten) {
  AgentSettings s = parse_agent_settings(
      R"({"forms":[{"id":"f","name":"","fields":[{"id":"a","label":"A","x":[1,2.5]},"skip",{"id":3}]},
                   "skip", {"id":"g"}]})");
  ASSERT_EQ(s.forms.size(), 2u);
  EXPECT_EQ(s.forms[0].id, "f");
  EXPECT_EQ(s.forms[0].name, "");
  EXPECT_EQ(s.forms[0].fields_json, R"([{"id":"a","label":"A","x":[1,2.5]},"skip",{"id":3}])");
  ASSERT_EQ(s.forms[0].fields.size(), 3u);
  EXPECT_EQ(s.forms[0].fields[0].label, "A");
  EXPECT_FALSE(s.forms[0].fields[1].id.has_value());
  EXPECT_FALSE(s.forms[0].fields[2].id.has_value());
  EXPECT_EQ(s.forms[1].fields_json, "[]");
}

TEST(AgentSettings, KeywordsReplaceTheDefaultsOnlyWhenGiven) {
  AgentSettings s = parse_agent_settings(
      R"({"leadForm":{"keywords":[]},"booking":{"keywords":[1],"eventLength":"30",
          "availability":{"mon":[["09:00","10:00"],["11:00","10:00"],["25:00","26:00"]],"tue":"x"}}})");
  ASSERT_TRUE(s.lead_form.has_value());
  EXPECT_FALSE(s.lead_form->keywords.has_value());
  ASSERT_TRUE(s.booking.has_value());
  ASSERT_TRUE(s.booking->keywords.has_value());
  EXPECT_TRUE(s.booking->keywords->empty());
  EXPECT_FALSE(s.booking->event_length.has_value());
  ASSERT_EQ(s.booking->availability[1].size(), 1u);
  EXPECT_EQ(s.booking->availability[1][0].from, 9 * 60);
  EXPECT_EQ(s.booking->availability[1][0].to, 10 * 60);
  EXPECT_TRUE(s.booking->availability[2].empty());
}

TEST(AgentSettings, AStoredDayOfMoreWindowsThanAllowedIsReadUpToTheCap) {
  // Stored before the cap was checked: each window's slots are made on every booking question.
  std::string windows;
  for (int i = 0; i < 5000; ++i) windows += std::string(i ? "," : "") + R"(["09:00","10:00"])";
  AgentSettings s =
      parse_agent_settings(R"({"booking":{"availability":{"wed":[)" + windows + "]}}}");
  ASSERT_TRUE(s.booking.has_value());
  EXPECT_EQ(s.booking->availability[3].size(), kMaxBookingWindowsADay);
}

}  // namespace
}  // namespace parley
