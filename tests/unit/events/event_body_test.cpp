// Event bodies: the exact top-level shape, conversation event ids, current form labels, and the
// documented samples.
#include "events/event_body.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

namespace parley {
namespace {

rapidjson::Document parse(const JsonWriter& w) {
  rapidjson::Document d;
  d.Parse(w.str().c_str());
  return d;
}

TEST(EventBody, ConversationEventIdsRoundTrip) {
  EXPECT_EQ(conversation_event_id("cnv_abc", 1795000000123), "cnv_abc:1795000000123");
  std::string conv;
  int64_t at = 0;
  ASSERT_TRUE(split_conversation_event_id("cnv_abc:1795000000123", conv, at));
  EXPECT_EQ(conv, "cnv_abc");
  EXPECT_EQ(at, 1795000000123);
  EXPECT_FALSE(split_conversation_event_id("cnv_abc", conv, at));
  EXPECT_FALSE(split_conversation_event_id("cnv_abc:12x", conv, at));
  EXPECT_FALSE(split_conversation_event_id(":12", conv, at));
}

TEST(EventBody, LeadUsesTheFormsCurrentLabels) {
  EventAgent agent{"agt_1", "Helper",
                   parse_agent_settings(R"({"leadForm":{"fields":[{"id":"co","label":"Company"}]}})")};
  LeadRecord lead;
  lead.id = "lead_1";
  lead.custom_fields = R"([{"id":"co","value":"Acme"},{"id":"gone","value":7}])";
  lead.collected_at = 1795000000000;
  JsonWriter w;
  write_lead_event(w, agent, lead);
  auto d = parse(w);
  ASSERT_TRUE(d.IsObject());
  EXPECT_EQ(d.MemberCount(), 5u);
  const auto& fields = d["data"]["customFields"];
  ASSERT_EQ(fields.Size(), 2u);
  EXPECT_STREQ(fields[0]["label"].GetString(), "Company");
  EXPECT_STREQ(fields[1]["label"].GetString(), "gone");
  EXPECT_EQ(fields[1]["value"].GetInt(), 7);
  EXPECT_STREQ(d["created_at"].GetString(), "2026-11-18T11:06:40.000Z");
}

TEST(EventBody, EverySampleHasTheEventShapeAndASampleId) {
  EventAgent agent{"agt_1", "Helper", parse_agent_settings("{}")};
  for (auto kind :
       {EventKind::kLeadCreated, EventKind::kHandoffRequested, EventKind::kFormSubmitted,
        EventKind::kBookingCreated, EventKind::kLiveChatRequested, EventKind::kReturnRequested,
        EventKind::kConversationCreated}) {
    JsonWriter w;
    write_sample_event(w, agent, kind, 1795000000000);
    auto d = parse(w);
    ASSERT_TRUE(d.IsObject()) << event_name(kind);
    EXPECT_EQ(d.MemberCount(), 5u);
    EXPECT_EQ(std::string(d["id"].GetString()).rfind("sample_", 0), 0u);
    EXPECT_EQ(std::string(d["event"].GetString()), event_name(kind));
    EXPECT_STREQ(d["agent"]["id"].GetString(), "agt_1");
    EXPECT_TRUE(d["data"].IsObject());
  }
}

TEST(EventCatalog, OnlyConversationCreatedIsNotSubscribable) {
  EXPECT_FALSE(is_subscribable(EventKind::kConversationCreated));
  EXPECT_TRUE(is_subscribable(EventKind::kLeadCreated));
  EXPECT_EQ(event_data_scope(EventKind::kHandoffRequested), Scope::kConversationsRead);
  EXPECT_EQ(event_data_scope(EventKind::kBookingCreated), Scope::kLeadsRead);
  EXPECT_FALSE(parse_event_kind("lead.updated").has_value());
}

}  // namespace
}  // namespace parley
