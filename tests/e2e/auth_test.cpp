// Spec section 5: every 401 variant, scopes, plans, revocation and other accounts' data; the
// 20-key limit; rate-limit headers on every response that passed the key check.
#include <chrono>
#include <thread>

#include "harness.h"

namespace parley::e2e {
namespace {

class Auth : public ::testing::Test {
 protected:
  static Server* server_;

  // Each test has its own server, started from the suite's seed (made once for all of them).
  void SetUp() override {
    const Seed& seeded = account_seed("Auth", "starter", "", false);
    server_ = new Server(unlimited(), {}, &seeded);
    account_ = seeded.values["account"];
    agent_ = seeded.values["agent"];
  }
  void TearDown() override {
    delete server_;
    server_ = nullptr;
  }
  HttpResponse get_with(const std::vector<std::string>& headers) const {
    return server_->request({"GET", "/api/v1/agents/" + agent_, "", headers});
  }
  static void expect_unauthorized(const HttpResponse& r) {
    EXPECT_EQ(r.status, 401) << r.body;
    EXPECT_EQ(r.error_code(), "unauthorized");
    EXPECT_FALSE(r.error_message().empty());
    EXPECT_EQ(r.header("www-authenticate"), "Bearer");
    // A request that did not pass the key check carries no rate-limit headers.
    EXPECT_FALSE(r.has_header("x-ratelimit-limit"));
  }

  std::string account_;
  std::string agent_;
};
Server* Auth::server_ = nullptr;

TEST_F(Auth, MissingHeaderIsUnauthorized) { expect_unauthorized(get_with({})); }

TEST_F(Auth, WrongSchemeIsUnauthorized) {
  auto key = server_->create_key(account_);
  expect_unauthorized(get_with({"Authorization: Basic " + key}));
  expect_unauthorized(get_with({"Authorization: " + key}));
  expect_unauthorized(get_with({"Authorization: Bearer"}));
}

TEST_F(Auth, MalformedKeyIsUnauthorized) {
  expect_unauthorized(get_with({bearer("svc_live_short")}));
  expect_unauthorized(get_with({bearer("svc_test_" + std::string(32, 'a'))}));
  expect_unauthorized(get_with({bearer("svc_live_" + std::string(31, 'a') + "!")}));
  expect_unauthorized(get_with({bearer("svc_live_" + std::string(33, 'a'))}));
}

TEST_F(Auth, UnknownKeyIsUnauthorized) {
  expect_unauthorized(get_with({bearer("svc_live_" + std::string(32, 'Z'))}));
}

TEST_F(Auth, SchemeIsCaseInsensitive) {
  auto key = server_->create_key(account_);
  EXPECT_EQ(get_with({"Authorization: bearer " + key}).status, 200);
}

TEST_F(Auth, RevokedKeyStopsOnItsNextRequest) {
  auto key = server_->create_key(account_);
  ASSERT_EQ(server_->get("/api/v1/agents", key).status, 200);
  auto revoked = server_->admin({"key", "revoke", server_->key_id_of(account_, key)});
  EXPECT_FALSE(revoked["revokedAt"].is_null());
  expect_unauthorized(server_->get("/api/v1/agents", key));
  // Revocation cannot be undone.
  auto again = server_->admin({"key", "revoke", server_->key_id_of(account_, key)}, true);
  EXPECT_NE(again["stderr"].get<std::string>().find("already revoked"), std::string::npos);
  expect_unauthorized(server_->get("/api/v1/agents", key));
}

TEST_F(Auth, MissingScopeIsInsufficientScope) {
  auto key = server_->create_key(account_, "chat,leads:read");
  auto r = server_->get("/api/v1/agents", key);
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.error_code(), "insufficient_scope");
  EXPECT_NE(r.error_message().find("agents:read"), std::string::npos);
  EXPECT_EQ(r.header("x-ratelimit-limit"), "1000000");
  auto one = server_->get("/api/v1/agents/" + agent_, key);
  EXPECT_EQ(one.status, 403);
  EXPECT_EQ(one.error_code(), "insufficient_scope");
}

TEST_F(Auth, ScopedKeyReachesItsEndpoints) {
  auto key = server_->create_key(account_, "agents:read");
  EXPECT_EQ(server_->get("/api/v1/agents", key).status, 200);
  EXPECT_EQ(server_->get("/api/v1/agents/" + agent_, key).status, 200);
}

TEST_F(Auth, ScopeCheckComesBeforeNotFound) {
  auto key = server_->create_key(account_, "chat");
  auto r = server_->get("/api/v1/agents/agt_missing", key);
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.error_code(), "insufficient_scope");
}

TEST_F(Auth, FreePlanGetsPlanRequiredUntilUpgraded) {
  auto key = server_->create_key(account_);
  ASSERT_EQ(server_->get("/api/v1/agents", key).status, 200);
  server_->admin({"account", "set-plan", account_, "free"});
  auto refused = server_->get("/api/v1/agents", key);
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(refused.error_code(), "plan_required");
  EXPECT_FALSE(refused.header("x-ratelimit-remaining").empty());
  // Keys stay listed on Free.
  auto listed = server_->admin({"key", "list", "--account", account_})["data"];
  EXPECT_EQ(listed.size(), 1u);
  // No new keys on Free.
  auto create = server_->admin({"key", "create", "--account", account_, "--name", "x"}, true);
  EXPECT_NE(create["stderr"].get<std::string>().find("plan_required"), std::string::npos);
  // Even an endpoint the key lacks a scope for answers plan_required first.
  server_->admin({"account", "set-plan", account_, "starter"});
  auto narrow = server_->create_key(account_, "chat");
  server_->admin({"account", "set-plan", account_, "free"});
  EXPECT_EQ(server_->get("/api/v1/agents", narrow).error_code(), "plan_required");
  server_->admin({"account", "set-plan", account_, "pro"});
  EXPECT_EQ(server_->get("/api/v1/agents", key).status, 200);
}

TEST_F(Auth, AnotherAccountsKeySeesNothingOfThisAccount) {
  auto other = server_->create_account();
  auto other_key = server_->create_key(other);
  auto r = server_->get("/api/v1/agents/" + agent_, other_key);
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.error_code(), "not_found");
  auto list = server_->get("/api/v1/agents", other_key).json()["data"];
  EXPECT_TRUE(list.empty());
}

TEST_F(Auth, TwentyFirstActiveKeyIsRefused) {
  std::vector<std::string> keys;
  for (int i = 0; i < 20; ++i) keys.push_back(server_->create_key(account_));
  auto refused = server_->admin({"key", "create", "--account", account_, "--name", "21st"}, true);
  EXPECT_NE(refused["stderr"].get<std::string>().find("key_limit_reached"), std::string::npos);
  // Revoking one frees a place.
  server_->admin({"key", "revoke", server_->key_id_of(account_, keys[0])});
  auto created = server_->admin({"key", "create", "--account", account_, "--name", "again"});
  EXPECT_EQ(created["key"].get<std::string>().rfind("svc_live_", 0), 0u);
}

TEST_F(Auth, KeyIsShownOnceAndStoredOnlyAsFingerprint) {
  auto created = server_->admin({"key", "create", "--account", account_, "--name", "shown once"});
  std::string key = created["key"];
  EXPECT_TRUE(std::regex_match(key, std::regex("svc_live_[A-Za-z0-9]{32}")));
  EXPECT_EQ(created["prefix"], key.substr(0, 12));
  auto listed = server_->admin({"key", "list", "--account", account_})["data"];
  for (auto& k : listed) EXPECT_FALSE(k.contains("key"));
  // The plaintext never reaches the database file or the server's log.
  server_->get("/api/v1/agents", key);
  std::string dump = server_->dump();
  EXPECT_NE(dump.find(created["prefix"].get<std::string>()), std::string::npos);  // the dump is whole
  EXPECT_EQ(dump.find(key), std::string::npos);
  EXPECT_EQ(server_->log().find(key), std::string::npos);
  EXPECT_EQ(server_->log().find(key.substr(9)), std::string::npos);
}

TEST_F(Auth, LastUsedIsRecorded) {
  auto key = server_->create_key(account_);
  auto before = server_->admin({"key", "list", "--account", account_})["data"][0];
  EXPECT_TRUE(before["lastUsedAt"].is_null());
  ASSERT_EQ(server_->get("/api/v1/agents", key).status, 200);
  Json after;
  for (int i = 0; i < 100; ++i) {  // written behind the request
    after = server_->admin({"key", "list", "--account", account_})["data"][0];
    if (!after["lastUsedAt"].is_null()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_FALSE(after["lastUsedAt"].is_null());
  // At most once a minute: a later request within the minute leaves the recorded time as it is.
  ASSERT_EQ(server_->get("/api/v1/agents", key).status, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto again = server_->admin({"key", "list", "--account", account_})["data"][0];
  EXPECT_EQ(again["lastUsedAt"], after["lastUsedAt"]);
}

}  // namespace
}  // namespace parley::e2e
