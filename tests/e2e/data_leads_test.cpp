// Leads: every field, custom-field labels as the form has them now, repeat submissions, `since`,
// scopes and other accounts.
#include "harness.h"

namespace parley::e2e {
namespace {

const char* kForms =
    R"({"forms":[{"id":"form_1","name":"Contact us","fields":[{"id":"f1","label":"Company"},{"id":"f2","label":"Size"}]}]})";

class DataLeads : public SeededServerTest {
 protected:
  // Each test has its own server, started from the suite's seed (made once for all of them).
  const Seed& suite_seed() override {
    return account_seed("DataLeads", "starter", kForms);
  }
  Json list(const std::string& query = "") const {
    auto r = server_->get("/api/v1/agents/" + agent_ + "/leads" + query, key_);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json();
  }
};

TEST_F(DataLeads, FormLeadShowsEveryFieldWithCurrentLabels) {
  auto saved = server_->admin({"lead", "create", "--agent", agent_, "--source", "form", "--email",
                               "Ann@Example.com", "--phone", "+441234567890", "--name", "Ann",
                               "--form-id", "form_1", "--custom-fields",
                               R"([{"id":"f1","value":"ACME"},{"id":"f2","value":12}])", "--at",
                               "2026-04-01T08:00:00.000Z"});
  EXPECT_EQ(saved["created"], true);
  auto page = list();
  EXPECT_EQ(page["hasMore"], false);
  EXPECT_TRUE(page["nextCursor"].is_null());
  ASSERT_EQ(page["data"].size(), 1u);
  auto l = page["data"][0];
  EXPECT_TRUE(l["id"].get<std::string>().rfind("lead_", 0) == 0);
  EXPECT_EQ(l["email"], "Ann@Example.com");
  EXPECT_EQ(l["phone"], "+441234567890");
  EXPECT_EQ(l["name"], "Ann");
  EXPECT_EQ(
      l["customFields"],
      Json::parse(
          R"([{"id":"f1","label":"Company","value":"ACME"},{"id":"f2","label":"Size","value":12}])"));
  EXPECT_EQ(l["source"], "form");
  EXPECT_TRUE(l["conversationId"].is_null());
  EXPECT_EQ(l["collectedAt"], "2026-04-01T08:00:00.000Z");
  EXPECT_EQ(l["lastSeenAt"], "2026-04-01T08:00:00.000Z");
  EXPECT_EQ(l["submissionCount"], 1);

  // The form changes: labels follow it; a removed field has no label.
  server_->admin(
      {"agent", "update", agent_, "--settings",
       R"({"forms":[{"id":"form_1","name":"Contact us","fields":[{"id":"f1","label":"Company name"}]}]})"});
  auto relabelled = list()["data"][0]["customFields"];
  EXPECT_EQ(relabelled[0]["label"], "Company name");
  EXPECT_TRUE(relabelled[1]["label"].is_null());
  EXPECT_EQ(relabelled[1]["value"], 12);
}

TEST_F(DataLeads, ChatLeadWithNullsAndRepeatSubmission) {
  server_->admin({"lead", "create", "--agent", agent_, "--source", "chat", "--phone", "5551234567",
                  "--at", "2026-04-01T08:00:00.000Z"});
  auto again = server_->admin({"lead", "create", "--agent", agent_, "--source", "chat", "--phone",
                               "5551234567", "--name", "Bob", "--at", "2026-04-02T09:00:00.000Z"});
  EXPECT_EQ(again["created"], false);
  auto data = list()["data"];
  ASSERT_EQ(data.size(), 1u);
  auto l = data[0];
  EXPECT_TRUE(l["email"].is_null());
  EXPECT_EQ(l["name"], "Bob");
  EXPECT_EQ(l["customFields"], Json::array());
  EXPECT_EQ(l["source"], "chat");
  EXPECT_EQ(l["collectedAt"], "2026-04-01T08:00:00.000Z");
  EXPECT_EQ(l["lastSeenAt"], "2026-04-02T09:00:00.000Z");
  EXPECT_EQ(l["submissionCount"], 2);
}

TEST_F(DataLeads, SinceMeansSavedOrSubmittedAgain) {
  server_->admin({"lead", "create", "--agent", agent_, "--email", "old@example.com", "--at",
                  "2026-01-01T00:00:00Z"});
  server_->admin({"lead", "create", "--agent", agent_, "--email", "mid@example.com", "--at",
                  "2026-02-01T00:00:00Z"});
  server_->admin({"lead", "create", "--agent", agent_, "--email", "old@example.com", "--at",
                  "2026-03-01T00:00:00Z"});
  auto data = list("?since=2026-02-15T00:00:00Z")["data"];
  ASSERT_EQ(data.size(), 1u);
  EXPECT_EQ(data[0]["email"], "old@example.com");
  auto all = list("?since=2026-02-01T00:00:00Z")["data"];
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0]["email"], "mid@example.com");  // newest collected first
}

TEST_F(DataLeads, ScopeAndOtherAccounts) {
  auto conversations_only = server_->create_key(account_, "conversations:read");
  auto r = server_->get("/api/v1/agents/" + agent_ + "/leads", conversations_only);
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.error_code(), "insufficient_scope");
  EXPECT_EQ(
      server_
          ->get("/api/v1/agents/" + agent_ + "/leads", server_->create_key(account_, "leads:read"))
          .status,
      200);
  auto other_key = server_->create_key(server_->create_account());
  auto hidden = server_->get("/api/v1/agents/" + agent_ + "/leads", other_key);
  EXPECT_EQ(hidden.status, 404);
  EXPECT_EQ(hidden.error_code(), "not_found");
}

}  // namespace
}  // namespace parley::e2e
