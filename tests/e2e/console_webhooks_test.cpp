// Webhooks in the console: at most 5 added in the dashboard per agent (beside the API's 25), the
// API's 404 on them, API-subscribed ones listed with their source badge, pause, resume and
// removal by owners and admins, and the delivery list.
#include "harness.h"

namespace parley::e2e {
namespace {

const std::string kUrl = "https://93.184.216.34/hooks";

class ConsoleWebhooks : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new Server(unlimited()); }
  static void TearDownTestSuite() { delete server_; }
  static const Server& s() { return *server_; }

  void SetUp() override {
    account_ = s().create_account();
    agent_ = s().create_agent(account_);
    key_ = s().create_key(account_);
    owner_ = create_member(s(), account_, "owner")["token"];
  }
  HttpResponse add(const std::string& token, const Json& body) {
    return s().post("/console/v1/agents/" + agent_ + "/webhooks", token, body.dump());
  }
  Json hook() { return {{"url", kUrl}, {"events", {"lead.created"}}}; }

  static Server* server_;
  std::string account_, agent_, key_, owner_;
};
Server* ConsoleWebhooks::server_ = nullptr;

TEST_F(ConsoleWebhooks, AtMostFiveDashboardWebhooksAndTheApiCannotDeleteThem) {
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) {
    auto r = add(owner_, hook());
    ASSERT_EQ(r.status, 201) << r.body;
    auto w = r.json()["data"];
    EXPECT_EQ(w["addedIn"], "dashboard");
    EXPECT_EQ(w["paused"], false);
    EXPECT_TRUE(w["secret"].get<std::string>().rfind("whsec_", 0) == 0);
    ids.push_back(w["id"]);
  }
  auto sixth = add(owner_, hook());
  EXPECT_EQ(sixth.status, 400);
  EXPECT_EQ(sixth.error_code(), "webhook_limit_reached");
  // The API's own 25 are separate.
  auto api = s().post("/api/v1/agents/" + agent_ + "/webhooks", key_,
                      Json{{"url", kUrl}, {"events", {"form.submitted"}}, {"source", "tool_a"}}.dump());
  ASSERT_EQ(api.status, 201) << api.body;
  auto gone = s().del("/api/v1/webhooks/" + ids[0], key_);
  EXPECT_EQ(gone.status, 404);
  EXPECT_EQ(gone.error_code(), "not_found");

  auto list = s().get("/console/v1/agents/" + agent_ + "/webhooks", owner_);
  ASSERT_EQ(list.status, 200) << list.body;
  auto data = list.json()["data"];
  ASSERT_EQ(data.size(), 6u);
  EXPECT_EQ(data[0]["id"], api.json()["id"]);
  EXPECT_EQ(data[0]["source"], "tool_a");
  EXPECT_EQ(data[0]["addedIn"], "api");
  EXPECT_FALSE(data[0].contains("secret"));
}

TEST_F(ConsoleWebhooks, OwnerPausesResumesAndRemovesAnyWebhook) {
  auto api = s().post("/api/v1/agents/" + agent_ + "/webhooks", key_,
                      Json{{"url", kUrl}, {"events", {"lead.created"}}, {"source", "tool_b"}}.dump());
  ASSERT_EQ(api.status, 201) << api.body;
  std::string id = api.json()["id"];
  auto paused = s().patch("/console/v1/webhooks/" + id, owner_, R"({"paused": true})");
  ASSERT_EQ(paused.status, 200) << paused.body;
  EXPECT_EQ(paused.json()["data"]["paused"], true);
  auto listed = s().get("/console/v1/agents/" + agent_ + "/webhooks", owner_).json()["data"][0];
  EXPECT_EQ(listed["paused"], true);
  EXPECT_EQ(s().patch("/console/v1/webhooks/" + id, owner_, R"({"paused": false})").json()["data"]["paused"], false);
  EXPECT_EQ(s().patch("/console/v1/webhooks/" + id, owner_, R"({})").status, 400);

  auto deliveries = s().get("/console/v1/webhooks/" + id + "/deliveries", owner_);
  ASSERT_EQ(deliveries.status, 200) << deliveries.body;
  EXPECT_TRUE(deliveries.json()["data"].is_array());

  auto removed = s().del("/console/v1/webhooks/" + id, owner_);
  ASSERT_EQ(removed.status, 200) << removed.body;
  EXPECT_EQ(removed.json()["data"]["deleted"], true);
  EXPECT_EQ(s().del("/api/v1/webhooks/" + id, key_).status, 404);
  EXPECT_EQ(s().del("/console/v1/webhooks/" + id, owner_).status, 404);
}

TEST_F(ConsoleWebhooks, RolesInputAndAccountsAreChecked) {
  auto editor = create_member(s(), account_, "editor")["token"].get<std::string>();
  auto refused = add(editor, hook());
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(refused.error_code(), "forbidden");
  EXPECT_EQ(s().get("/console/v1/agents/" + agent_ + "/webhooks", editor).status, 200);
  auto admin = create_member(s(), account_, "admin")["token"].get<std::string>();
  EXPECT_EQ(add(admin, hook()).status, 201);

  EXPECT_EQ(add(owner_, {{"events", {"lead.created"}}}).error_code(), "invalid_request");
  EXPECT_EQ(add(owner_, {{"url", "http://93.184.216.34/x"}, {"events", {"lead.created"}}}).status, 400);
  EXPECT_EQ(add(owner_, {{"url", "https://127.0.0.1/x"}, {"events", {"lead.created"}}}).status, 400);
  EXPECT_EQ(add(owner_, {{"url", kUrl}, {"events", {"nope"}}}).status, 400);

  std::string id = add(owner_, hook()).json()["data"]["id"];
  auto other = s().create_account();
  auto outsider = create_member(s(), other, "owner")["token"].get<std::string>();
  EXPECT_EQ(s().get("/console/v1/agents/" + agent_ + "/webhooks", outsider).status, 404);
  EXPECT_EQ(add(outsider, hook()).status, 404);
  EXPECT_EQ(s().patch("/console/v1/webhooks/" + id, outsider, R"({"paused": true})").status, 404);
  EXPECT_EQ(s().del("/console/v1/webhooks/" + id, outsider).status, 404);
  EXPECT_EQ(s().get("/console/v1/webhooks/" + id + "/deliveries", outsider).status, 404);
}

}  // namespace
}  // namespace parley::e2e
