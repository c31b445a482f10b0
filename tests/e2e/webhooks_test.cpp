// POST /api/v1/agents/{agentId}/webhooks and DELETE /api/v1/webhooks/{webhookId}: every subscribe
// and unsubscribe rule, the caps, scopes, other accounts, and key revocation deleting webhooks.
#include "harness.h"

namespace parley::e2e {
namespace {

const std::string kPublicUrl = "https://93.184.216.34/hooks";

class WebhooksApi : public SeededServerTest {
 protected:

  HttpResponse subscribe(const Json& body, const std::string& key = "") const {
    return server_->post("/api/v1/agents/" + agent_ + "/webhooks", key.empty() ? key_ : key,
                         body.dump());
  }
  void expect_invalid(const Json& body, const std::string& field) const {
    auto r = subscribe(body);
    EXPECT_EQ(r.status, 400) << body.dump() << " -> " << r.body;
    EXPECT_EQ(r.error_code(), "invalid_request") << body.dump();
    EXPECT_NE(r.error_message().find("'" + field + "'"), std::string::npos) << r.error_message();
  }
  Json list_admin() const { return server_->admin({"webhook", "list", "--agent", agent_})["data"]; }
};

TEST_F(WebhooksApi, SubscribeReturns201WithTheSecretOnlyThere) {
  auto r = subscribe({{"url", kPublicUrl}, {"events", {"lead.created", "form.submitted"}}});
  ASSERT_EQ(r.status, 201) << r.body;
  auto w = r.json();
  EXPECT_EQ(w["id"].get<std::string>().rfind("whk_", 0), 0u);
  EXPECT_EQ(w["agentId"], agent_);
  EXPECT_EQ(w["url"], kPublicUrl);
  EXPECT_EQ(w["events"], (Json{"lead.created", "form.submitted"}));
  EXPECT_EQ(w["source"], "api");
  EXPECT_TRUE(
      std::regex_match(w["secret"].get<std::string>(), std::regex("whsec_[A-Za-z0-9+/]{32}")));
  EXPECT_TRUE(std::regex_match(w["createdAt"].get<std::string>(),
                               std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)")));
  EXPECT_EQ(w["status"], "active");
  EXPECT_TRUE(w["disabledReason"].is_null());
  EXPECT_TRUE(w["disabledAt"].is_null());
  EXPECT_EQ(w.size(), 10u);
  auto listed = list_admin();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0]["id"], w["id"]);
  EXPECT_EQ(listed[0]["origin"], "api");
  EXPECT_FALSE(listed[0].contains("secret"));
  EXPECT_EQ(listed[0]["keyId"], server_->key_id_of(account_, key_));
}

TEST_F(WebhooksApi, SourceIsOptionalAndChecked) {
  for (std::string source : {"tool_a", "tool_b", "api"}) {
    auto r = subscribe({{"url", kPublicUrl}, {"events", {"lead.created"}}, {"source", source}});
    ASSERT_EQ(r.status, 201) << r.body;
    EXPECT_EQ(r.json()["source"], source);
  }
  expect_invalid({{"url", kPublicUrl}, {"events", {"lead.created"}}, {"source", "zapier"}},
                 "source");
  expect_invalid({{"url", kPublicUrl}, {"events", {"lead.created"}}, {"source", 3}}, "source");
}

TEST_F(WebhooksApi, UrlIsRequiredHttpsAndPublic) {
  Json events = {"lead.created"};
  expect_invalid({{"events", events}}, "url");
  expect_invalid({{"url", nullptr}, {"events", events}}, "url");
  expect_invalid({{"url", 42}, {"events", events}}, "url");
  for (std::string url :
       {"http://93.184.216.34/h", "https://localhost/h", "https://127.0.0.1/h",
        "https://10.0.0.8/h", "https://169.254.169.254/latest", "https://[::1]/h",
        "https://0x7f000001/", "https://2130706433/", "https://user:pw@93.184.216.34/",
        "https://192.168.0.10:8443/x", "https://[::ffff:10.0.0.1]/"}) {
    expect_invalid({{"url", url}, {"events", events}}, "url");
  }
}

TEST_F(WebhooksApi, EventsAreRequiredNonEmptyAndSubscribable) {
  expect_invalid({{"url", kPublicUrl}}, "events");
  expect_invalid({{"url", kPublicUrl}, {"events", Json::array()}}, "events");
  expect_invalid({{"url", kPublicUrl}, {"events", "lead.created"}}, "events");
  expect_invalid({{"url", kPublicUrl}, {"events", {"lead.created", 5}}}, "events");
  expect_invalid({{"url", kPublicUrl}, {"events", {"lead.deleted"}}}, "events");
  expect_invalid({{"url", kPublicUrl}, {"events", {"conversation.created"}}}, "events");
  auto all = subscribe({{"url", kPublicUrl},
                        {"events",
                         {"lead.created", "handoff.requested", "form.submitted", "booking.created",
                          "live_chat.requested", "return.requested", "lead.created"}}});
  ASSERT_EQ(all.status, 201) << all.body;
  EXPECT_EQ(all.json()["events"].size(), 6u);
}

TEST_F(WebhooksApi, BodyMustBeJson) {
  auto r = server_->request(
      {"POST", "/api/v1/agents/" + agent_ + "/webhooks", "url=x", {bearer(key_)}, false});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.error_code(), "invalid_request");
}

TEST_F(WebhooksApi, TwentyFiveApiWebhooksBesidesFiveFromTheDashboard) {
  for (int i = 0; i < 5; ++i) {
    server_->admin(
        {"webhook", "add", "--agent", agent_, "--url", kPublicUrl, "--events", "lead.created"});
  }
  auto sixth = server_->admin(
      {"webhook", "add", "--agent", agent_, "--url", kPublicUrl, "--events", "lead.created"}, true);
  EXPECT_NE(sixth["stderr"].get<std::string>().find("webhook_limit_reached"), std::string::npos);
  for (int i = 0; i < 25; ++i) {
    auto r =
        subscribe({{"url", kPublicUrl + "/" + std::to_string(i)}, {"events", {"lead.created"}}});
    ASSERT_EQ(r.status, 201) << i << ": " << r.body;
  }
  auto over = subscribe({{"url", kPublicUrl}, {"events", {"lead.created"}}});
  EXPECT_EQ(over.status, 400);
  EXPECT_EQ(over.error_code(), "webhook_limit_reached");
  EXPECT_EQ(list_admin().size(), 30u);
  // Another agent of the account has its own allowance.
  auto other_agent = server_->create_agent(account_);
  auto r = server_->post("/api/v1/agents/" + other_agent + "/webhooks", key_,
                         Json{{"url", kPublicUrl}, {"events", {"lead.created"}}}.dump());
  EXPECT_EQ(r.status, 201);
}

TEST_F(WebhooksApi, DuplicateUrlIsASecondSubscription) {
  auto a = subscribe({{"url", kPublicUrl}, {"events", {"lead.created"}}});
  auto b = subscribe({{"url", kPublicUrl}, {"events", {"form.submitted"}}});
  ASSERT_EQ(a.status, 201);
  ASSERT_EQ(b.status, 201);
  EXPECT_NE(a.json()["id"], b.json()["id"]);
  EXPECT_NE(a.json()["secret"], b.json()["secret"]);
}

TEST_F(WebhooksApi, AnotherAccountsOrMissingAgentIsNotFound) {
  auto other = server_->create_account();
  auto their_agent = server_->create_agent(other);
  auto r = server_->post("/api/v1/agents/" + their_agent + "/webhooks", key_,
                         Json{{"url", kPublicUrl}, {"events", {"lead.created"}}}.dump());
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.error_code(), "not_found");
  auto missing = server_->post("/api/v1/agents/agt_missing/webhooks", key_,
                               Json{{"url", kPublicUrl}, {"events", {"lead.created"}}}.dump());
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.error_code(), "not_found");
}

TEST_F(WebhooksApi, NeedsTheWebhooksWriteScope) {
  auto reader = server_->create_key(account_, "agents:read,leads:read,conversations:read");
  auto r = subscribe({{"url", kPublicUrl}, {"events", {"lead.created"}}}, reader);
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.error_code(), "insufficient_scope");
  auto created = subscribe({{"url", kPublicUrl}, {"events", {"lead.created"}}});
  auto del = server_->del("/api/v1/webhooks/" + created.json()["id"].get<std::string>(), reader);
  EXPECT_EQ(del.status, 403);
  EXPECT_EQ(del.error_code(), "insufficient_scope");
  auto writer = server_->create_key(account_, "webhooks:write,leads:read");
  EXPECT_EQ(subscribe({{"url", kPublicUrl}, {"events", {"lead.created"}}}, writer).status, 201);
}

// A webhook hands over the event's data, so subscribing needs the scope that lists it too.
TEST_F(WebhooksApi, SubscribingToAnEventNeedsTheScopeThatListsItsData) {
  auto write_only = server_->create_key(account_, "webhooks:write");
  auto leads = subscribe({{"url", kPublicUrl}, {"events", {"lead.created"}}}, write_only);
  EXPECT_EQ(leads.status, 403) << leads.body;
  EXPECT_EQ(leads.error_code(), "insufficient_scope");
  EXPECT_EQ(leads.error_message(),
            "This API key lacks the 'leads:read' scope needed to subscribe to 'lead.created'.");
  auto with_leads = server_->create_key(account_, "webhooks:write,leads:read");
  auto handoff = subscribe(
      {{"url", kPublicUrl}, {"events", {"form.submitted", "handoff.requested"}}}, with_leads);
  EXPECT_EQ(handoff.status, 403) << handoff.body;
  EXPECT_NE(handoff.error_message().find("'conversations:read'"), std::string::npos);
  EXPECT_NE(handoff.error_message().find("'handoff.requested'"), std::string::npos);
  EXPECT_EQ(list_admin().size(), 0u);
  EXPECT_EQ(subscribe({{"url", kPublicUrl}, {"events", {"form.submitted"}}}, with_leads).status,
            201);
}

TEST_F(WebhooksApi, AnyKeyOfTheAccountDeletesOnce) {
  auto id = subscribe({{"url", kPublicUrl}, {"events", {"lead.created"}}})
                .json()["id"]
                .get<std::string>();
  auto second_key = server_->create_key(account_, "webhooks:write");
  auto r = server_->del("/api/v1/webhooks/" + id, second_key);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json(), (Json{{"id", id}, {"deleted", true}}));
  EXPECT_EQ(list_admin().size(), 0u);
  auto again = server_->del("/api/v1/webhooks/" + id, key_);
  EXPECT_EQ(again.status, 404);
  EXPECT_EQ(again.error_code(), "not_found");
}

TEST_F(WebhooksApi, DashboardAndOtherAccountsWebhooksAreNotFound) {
  auto dashboard =
      server_->admin({"webhook", "add", "--agent", agent_, "--url", kPublicUrl, "--events",
                      "lead.created,form.submitted", "--source", "tool_a"});
  EXPECT_EQ(dashboard["secret"].get<std::string>().rfind("whsec_", 0), 0u);
  auto r = server_->del("/api/v1/webhooks/" + dashboard["id"].get<std::string>(), key_);
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.error_code(), "not_found");
  auto other = server_->create_account();
  auto other_agent = server_->create_agent(other);
  auto other_key = server_->create_key(other);
  auto theirs = server_->post("/api/v1/agents/" + other_agent + "/webhooks", other_key,
                              Json{{"url", kPublicUrl}, {"events", {"lead.created"}}}.dump());
  auto cross = server_->del("/api/v1/webhooks/" + theirs.json()["id"].get<std::string>(), key_);
  EXPECT_EQ(cross.status, 404);
  EXPECT_EQ(cross.error_code(), "not_found");
  EXPECT_EQ(server_->del("/api/v1/webhooks/whk_doesnotexist", key_).status, 404);
  EXPECT_EQ(list_admin().size(), 1u);
  // The owner removes it in the dashboard (here the operator CLI).
  auto removed = server_->admin({"webhook", "remove", dashboard["id"].get<std::string>()});
  EXPECT_EQ(removed["deleted"], true);
  EXPECT_EQ(list_admin().size(), 0u);
}

TEST_F(WebhooksApi, RevokingTheKeyDeletesItsWebhooksOnly) {
  auto other_key = server_->create_key(account_);
  auto mine = subscribe({{"url", kPublicUrl}, {"events", {"lead.created"}}}).json()["id"];
  auto kept =
      subscribe({{"url", kPublicUrl}, {"events", {"lead.created"}}}, other_key).json()["id"];
  auto dashboard = server_->admin(
      {"webhook", "add", "--agent", agent_, "--url", kPublicUrl, "--events", "lead.created"})["id"];
  server_->admin({"record", "lead", "--agent", agent_, "--email", "someone@example.com"});
  server_->admin({"key", "revoke", server_->key_id_of(account_, key_)});
  auto listed = list_admin();
  std::vector<std::string> ids;
  for (auto& w : listed) ids.push_back(w["id"]);
  EXPECT_EQ(ids, (std::vector<std::string>{kept, dashboard}));
  auto history = server_->admin({"webhook", "deliveries", mine.get<std::string>()}, true);
  EXPECT_NE(history["stderr"].get<std::string>().find("not_found"), std::string::npos);
  EXPECT_EQ(server_->get("/api/v1/agents/" + agent_, key_).status, 401);
}

}  // namespace
}  // namespace parley::e2e
