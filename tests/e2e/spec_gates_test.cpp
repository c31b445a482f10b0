// Spec sections 5, 7 and 8 checked on every endpoint: a key lacking exactly the endpoint's scope
// gets 403 insufficient_scope, an account on Free gets 403 plan_required, other accounts' items
// of every resource type are 404 not_found, and every response after the key check (4xx too)
// carries the rate-limit headers. Also HTTP details a client relies on: HEAD and percent-encoded
// path ids.
#include "harness.h"

namespace parley::e2e {
namespace {

const std::vector<std::string> kScopes = {"agents:read",    "chat",          "conversations:read",
                                          "leads:read",     "contacts:write", "sources:read",
                                          "sources:write",  "webhooks:write"};

// Every scope but `missing`, comma-separated.
std::string all_scopes_but(const std::string& missing) {
  std::string out;
  for (const auto& s : kScopes) {
    if (s == missing) continue;
    if (!out.empty()) out += ',';
    out += s;
  }
  return out;
}

struct Endpoint {
  std::string method;
  std::string path;  // {agent} and {id} are filled in
  std::string scope;
  std::string body;
};

// Every endpoint of the API.
std::vector<Endpoint> endpoints() {
  return {
      {"GET", "/api/v1/agents", "agents:read", ""},
      {"GET", "/api/v1/agents/{agent}", "agents:read", ""},
      {"POST", "/api/v1/agents/{agent}/chat", "chat", R"({"message":"Hello"})"},
      {"POST", "/api/v1/agents/{agent}/chat", "chat", R"({"message":"Hello","stream":true})"},
      {"GET", "/api/v1/agents/{agent}/conversations", "conversations:read", ""},
      {"GET", "/api/v1/conversations/cnv_{id}", "conversations:read", ""},
      {"GET", "/api/v1/agents/{agent}/leads", "leads:read", ""},
      {"GET", "/api/v1/agents/{agent}/contacts", "leads:read", ""},
      {"POST", "/api/v1/agents/{agent}/contacts", "contacts:write", R"({"email":"a@example.com"})"},
      {"GET", "/api/v1/contacts/ctc_{id}", "leads:read", ""},
      {"PATCH", "/api/v1/contacts/ctc_{id}", "contacts:write", R"({"name":"A"})"},
      {"DELETE", "/api/v1/contacts/ctc_{id}", "contacts:write", ""},
      {"GET", "/api/v1/agents/{agent}/sources", "sources:read", ""},
      {"POST", "/api/v1/agents/{agent}/sources", "sources:write", R"({"type":"text","content":"x"})"},
      {"DELETE", "/api/v1/agents/{agent}/sources/src_{id}", "sources:write", ""},
      {"POST", "/api/v1/agents/{agent}/webhooks", "webhooks:write",
       R"({"url":"https://93.184.216.34/h","events":["lead.created"]})"},
      {"DELETE", "/api/v1/webhooks/whk_{id}", "webhooks:write", ""},
      {"GET", "/api/v1/agents/{agent}/events/lead.created", "agents:read", ""},
      {"GET", "/api/v1/agents/{agent}/events/lead.created/samples", "agents:read", ""},
  };
}

std::string fill(std::string path, const std::string& agent) {
  auto at = path.find("{agent}");
  if (at != std::string::npos) path.replace(at, 7, agent);
  at = path.find("{id}");
  if (at != std::string::npos) path.replace(at, 4, "doesnotexist000000000000");
  return path;
}

void expect_rate_headers(const HttpResponse& r, const std::string& what) {
  EXPECT_FALSE(r.header("x-ratelimit-limit").empty()) << what;
  EXPECT_FALSE(r.header("x-ratelimit-remaining").empty()) << what;
  EXPECT_FALSE(r.header("x-ratelimit-reset").empty()) << what;
}

class SpecGates : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new Server(unlimited()); }
  static void TearDownTestSuite() { delete server_; }
  static Server* server_;

  HttpResponse call(const Endpoint& e, const std::string& path, const std::string& key) const {
    HttpRequest req{e.method, path, e.body, {bearer(key)}};
    return server_->request(req);
  }
};
Server* SpecGates::server_ = nullptr;

TEST_F(SpecGates, EveryEndpointRefusesAKeyLackingExactlyItsScope) {
  auto account = server_->create_account();
  auto agent = server_->create_agent(account);
  std::map<std::string, std::string> keys;
  for (const auto& s : kScopes) keys[s] = server_->create_key(account, all_scopes_but(s));
  for (const auto& e : endpoints()) {
    std::string what = e.method + " " + e.path;
    auto r = call(e, fill(e.path, agent), keys[e.scope]);
    EXPECT_EQ(r.status, 403) << what << " -> " << r.body;
    EXPECT_EQ(r.error_code(), "insufficient_scope") << what;
    EXPECT_NE(r.error_message().find(e.scope), std::string::npos) << what << ": " << r.error_message();
    expect_rate_headers(r, what);
  }
}

TEST_F(SpecGates, EveryEndpointAnswersPlanRequiredOnFree) {
  auto account = server_->create_account();
  auto agent = server_->create_agent(account);
  auto key = server_->create_key(account);
  server_->admin({"account", "set-plan", account, "free"});
  for (const auto& e : endpoints()) {
    std::string what = e.method + " " + e.path;
    auto r = call(e, fill(e.path, agent), key);
    EXPECT_EQ(r.status, 403) << what << " -> " << r.body;
    EXPECT_EQ(r.error_code(), "plan_required") << what;
    expect_rate_headers(r, what);
  }
}

TEST_F(SpecGates, EveryEndpointAnswersUnauthorizedWithoutRateHeaders) {
  for (const auto& e : endpoints()) {
    std::string what = e.method + " " + e.path;
    HttpRequest req{e.method, fill(e.path, "agt_doesnotexist000000000000"), e.body, {}};
    auto r = server_->request(req);
    EXPECT_EQ(r.status, 401) << what;
    EXPECT_EQ(r.error_code(), "unauthorized") << what;
    EXPECT_FALSE(r.has_header("x-ratelimit-limit")) << what;
  }
}

TEST_F(SpecGates, ErrorsAfterTheKeyCheckCarryRateHeaders) {
  auto account = server_->create_account();
  auto agent = server_->create_agent(account);
  auto key = server_->create_key(account);
  auto bad = server_->post("/api/v1/agents/" + agent + "/sources", key, R"({"type":"video"})");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.error_code(), "invalid_request");
  expect_rate_headers(bad, "400");
  auto missing = server_->get("/api/v1/contacts/ctc_doesnotexist000000000000", key);
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.error_code(), "not_found");
  expect_rate_headers(missing, "404");
  auto before = std::stoll(bad.header("x-ratelimit-remaining"));
  EXPECT_EQ(std::stoll(missing.header("x-ratelimit-remaining")), before - 1);
}

// One item of every resource type in account B; account A's key sees none of them.
TEST_F(SpecGates, EveryResourceTypeOfAnotherAccountIsNotFound) {
  auto theirs = server_->create_account();
  auto their_agent = server_->create_agent(theirs);
  auto their_key = server_->create_key(theirs);
  auto conv = server_->admin({"conversation", "create", "--agent", their_agent})["id"].get<std::string>();
  auto contact = server_->post("/api/v1/agents/" + their_agent + "/contacts", their_key,
                               R"({"email":"b@example.com"})").json()["data"]["id"].get<std::string>();
  auto source = server_->post("/api/v1/agents/" + their_agent + "/sources", their_key,
                              R"({"type":"text","content":"Their text."})").json()["data"]["id"].get<std::string>();
  auto hook = server_->post("/api/v1/agents/" + their_agent + "/webhooks", their_key,
                            R"({"url":"https://93.184.216.34/h","events":["lead.created"]})")
                  .json()["id"].get<std::string>();

  auto mine = server_->create_account();
  auto my_agent = server_->create_agent(mine);
  auto key = server_->create_key(mine);
  const std::string a = "/api/v1/agents/" + their_agent;
  std::vector<std::pair<std::string, std::pair<std::string, std::string>>> calls = {
      {"GET", {a, ""}},
      {"POST", {a + "/chat", R"({"message":"Hello"})"}},
      {"POST", {a + "/chat", R"({"message":"Hello","stream":true})"}},
      {"POST", {"/api/v1/agents/" + my_agent + "/chat", R"({"message":"Hi","conversationId":")" + conv + "\"}"}},
      {"POST", {"/api/v1/agents/" + my_agent + "/chat",
                R"({"message":"Hi","stream":true,"conversationId":")" + conv + "\"}"}},
      {"GET", {a + "/conversations", ""}},
      {"GET", {a + "/leads", ""}},
      {"GET", {a + "/contacts", ""}},
      {"POST", {a + "/contacts", R"({"email":"c@example.com"})"}},
      {"GET", {a + "/sources", ""}},
      {"POST", {a + "/sources", R"({"type":"text","content":"x"})"}},
      {"DELETE", {a + "/sources/" + source, ""}},
      {"DELETE", {"/api/v1/agents/" + my_agent + "/sources/" + source, ""}},
      {"POST", {a + "/webhooks", R"({"url":"https://93.184.216.34/h","events":["lead.created"]})"}},
      {"GET", {a + "/events/lead.created", ""}},
      {"GET", {a + "/events/conversation.created/samples", ""}},
      {"GET", {"/api/v1/conversations/" + conv, ""}},
      {"GET", {"/api/v1/contacts/" + contact, ""}},
      {"PATCH", {"/api/v1/contacts/" + contact, R"({"name":"Mallory"})"}},
      {"DELETE", {"/api/v1/contacts/" + contact, ""}},
      {"DELETE", {"/api/v1/webhooks/" + hook, ""}},
  };
  for (const auto& [method, target] : calls) {
    std::string what = method + " " + target.first;
    auto r = server_->request({method, target.first, target.second, {bearer(key)}});
    EXPECT_EQ(r.status, 404) << what << " -> " << r.body;
    EXPECT_EQ(r.error_code(), "not_found") << what;
    expect_rate_headers(r, what);
  }
  // Nothing of theirs changed.
  EXPECT_EQ(server_->get("/api/v1/contacts/" + contact, their_key).json()["data"]["name"], nullptr);
  EXPECT_EQ(server_->get(a + "/sources", their_key).json()["data"].size(), 1u);
  EXPECT_EQ(server_->del("/api/v1/webhooks/" + hook, their_key).status, 200);
}

TEST_F(SpecGates, HeadIsGetWithoutABody) {
  auto account = server_->create_account();
  auto agent = server_->create_agent(account);
  auto key = server_->create_key(account);
  auto get = server_->get("/api/v1/agents/" + agent, key);
  ASSERT_EQ(get.status, 200);
  auto head = server_->request({"HEAD", "/api/v1/agents/" + agent, "", {bearer(key)}});
  EXPECT_EQ(head.status, 200);
  EXPECT_TRUE(head.body.empty());
  EXPECT_EQ(head.header("content-length"), std::to_string(get.body.size()));
  expect_rate_headers(head, "HEAD");
}

TEST_F(SpecGates, PercentEncodedPathIdNamesTheSameItem) {
  auto account = server_->create_account();
  auto agent = server_->create_agent(account);
  auto key = server_->create_key(account);
  std::string encoded = agent;
  encoded.replace(encoded.find('_'), 1, "%5F");
  auto r = server_->get("/api/v1/agents/" + encoded, key);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["data"]["id"], agent);
  auto sources = server_->get("/api/v1/agents/" + encoded + "/sources", key);
  EXPECT_EQ(sources.status, 200) << sources.body;
}

}  // namespace
}  // namespace parley::e2e
