#include "domain/leads.h"
#include "views/lead_json.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

TEST(FormLabels, LabelsComeFromTheFormAsItIsNow) {
  FormLabels labels(parse_agent_settings(R"({"forms":[{"id":"form_1","fields":[{"id":"f1","label":"Company"}]},
                                {"id":"form_2","fields":[{"id":"f1","label":"Firm"},{"id":"f9","label":"Budget"}]}]})"));
  EXPECT_EQ(labels.label(std::string("form_2"), "f1"), "Firm");
  EXPECT_EQ(labels.label(std::string("form_1"), "f1"), "Company");
  EXPECT_FALSE(labels.label(std::string("form_1"), "f9").has_value());
  EXPECT_FALSE(labels.label(std::string("form_gone"), "f1").has_value());
  EXPECT_EQ(labels.label(std::nullopt, "f9"), "Budget");  // no form: first form with the field
}

TEST(FormLabels, MalformedSettingsGiveNoLabels) {
  EXPECT_FALSE(FormLabels(parse_agent_settings("{}")).label(std::nullopt, "f1").has_value());
  EXPECT_FALSE(FormLabels(parse_agent_settings(R"({"forms": "nope"})")).label(std::nullopt, "f1").has_value());
  EXPECT_FALSE(FormLabels(parse_agent_settings("not json")).label(std::nullopt, "f1").has_value());
}

TEST(LeadJson, EveryFieldWithNulls) {
  LeadRecord l;
  l.id = "lead_1";
  l.custom_fields = R"([{"id":"f1","value":"ACME"}])";
  l.form_id = "form_1";
  l.collected_at = l.last_seen_at = 0;
  JsonWriter w;
  write_lead_json(
      w, l, FormLabels(parse_agent_settings(R"({"forms":[{"id":"form_1","fields":[{"id":"f1","label":"Company"}]}]})")));
  EXPECT_EQ(w.str(),
            R"({"id":"lead_1","email":null,"phone":null,"name":null,)"
            R"("customFields":[{"id":"f1","label":"Company","value":"ACME"}],"source":"chat",)"
            R"("conversationId":null,"collectedAt":"1970-01-01T00:00:00.000Z",)"
            R"("lastSeenAt":"1970-01-01T00:00:00.000Z","submissionCount":1})");
}

}  // namespace
}  // namespace parley
