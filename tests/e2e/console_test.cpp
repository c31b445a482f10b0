// The console (/console/v1): login, logout and tokens; each role's rights on keys, agents and the
// plan; keys belonging to the account (a removed member's keys keep working); plan downgrade and
// upgrade seen through the public API; secrets kept out of the log.
#include "harness.h"

namespace parley::e2e {
namespace {

const char* kMemberPassword = "correct horse 42";

std::set<std::string> keys_of(const Json& object) {
  std::set<std::string> out;
  for (auto it = object.begin(); it != object.end(); ++it) out.insert(it.key());
  return out;
}

class ConsoleApi : public ::testing::Test {
 protected:
  // Each test has its own server, started from the suite's seed (made once for all of them).
  void SetUp() override { server_ = new Server(unlimited(), {}, &seed("ConsoleApi", {})); }
  void TearDown() override {
    delete server_;
    server_ = nullptr;
  }

  // A fresh account on `plan` with an owner; returns the owner's member token. The test's first
  // comes from a seed of its plan, made once (the server, still unused, starts again from it).
  std::string fresh_account(const std::string& plan = "starter") {
    if (first_account_) {
      first_account_ = false;
      const Seed& seeded = seed("ConsoleApi-" + plan, [&](const Admin& a) {
        std::string account = a.create_account(plan);
        return Json{{"account", account}, {"owner", create_member(a, account, "owner")["token"]}};
      });
      delete server_;
      server_ = new Server(unlimited(), {}, &seeded);
      account_ = seeded.values["account"];
      return seeded.values["owner"];
    }
    account_ = server_->create_account(plan);
    return create_member(*server_, account_, "owner")["token"];
  }
  std::string member(const std::string& role) { return create_member(*server_, account_, role)["token"]; }
  HttpResponse create_key(const std::string& token, const std::string& body) {
    return server_->post("/console/v1/keys", token, body);
  }

  static Server* server_;
  std::string account_;
  bool first_account_ = true;
};
Server* ConsoleApi::server_ = nullptr;

TEST_F(ConsoleApi, LoginGivesSessionTokenAndMember) {
  fresh_account();
  auto m = create_member(*server_, account_, "editor", kMemberPassword);
  auto r = server_->request({"POST",
                             "/console/v1/login",
                             Json{{"email", m["email"]}, {"password", kMemberPassword}}.dump(),
                             {}});
  ASSERT_EQ(r.status, 200) << r.body;
  auto body = r.json();
  std::string token = body["token"];
  EXPECT_TRUE(std::regex_match(token, std::regex("cst_[0-9A-Za-z]{40}")));
  EXPECT_TRUE(body["expiresAt"].is_string());
  EXPECT_EQ(body["member"]["id"], m["id"]);
  EXPECT_EQ(body["member"]["email"], m["email"]);
  EXPECT_EQ(body["member"]["name"], "Sam");
  EXPECT_EQ(body["member"]["role"], "editor");
  EXPECT_EQ(keys_of(body["member"]), (std::set<std::string>{"id", "email", "name", "role", "createdAt"}));

  auto me = server_->get("/console/v1/me", token);
  ASSERT_EQ(me.status, 200) << me.body;
  EXPECT_EQ(me.json()["data"]["member"]["id"], m["id"]);
  EXPECT_EQ(me.json()["data"]["account"]["id"], account_);
  EXPECT_EQ(me.json()["data"]["session"]["kind"], "session");
  EXPECT_EQ(me.json()["data"]["session"]["expiresAt"], body["expiresAt"]);
}

TEST_F(ConsoleApi, EmailIsCaseInsensitiveAtLogin) {
  fresh_account();
  auto m = create_member(*server_, account_, "viewer", kMemberPassword);
  std::string email = m["email"];
  for (auto& c : email) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  auto r = server_->request({"POST",
                             "/console/v1/login",
                             Json{{"email", email}, {"password", kMemberPassword}}.dump(),
                             {}});
  EXPECT_EQ(r.status, 200) << r.body;
}

TEST_F(ConsoleApi, WrongPasswordUnknownEmailAndNoPasswordLookTheSame) {
  fresh_account();
  auto with_password = create_member(*server_, account_, "admin", kMemberPassword);
  auto without_password = create_member(*server_, account_, "admin");
  auto attempt = [&](const std::string& email, const std::string& password) {
    return server_->request({"POST", "/console/v1/login", Json{{"email", email}, {"password", password}}.dump(), {}});
  };
  auto wrong = attempt(with_password["email"], "not the password");
  auto unknown = attempt("nobody." + account_ + "@example.com", kMemberPassword);
  auto none = attempt(without_password["email"], kMemberPassword);
  for (const auto* r : {&wrong, &unknown, &none}) {
    EXPECT_EQ(r->status, 401) << r->body;
    EXPECT_EQ(r->error_code(), "unauthorized");
    EXPECT_EQ(r->error_message(), "Email or password is incorrect.");
  }
}

TEST_F(ConsoleApi, LoginInputIsValidated) {
  auto no_email = server_->request({"POST", "/console/v1/login", R"({"password":"x"})", {}});
  EXPECT_EQ(no_email.status, 400);
  EXPECT_EQ(no_email.error_code(), "invalid_request");
  EXPECT_EQ(no_email.error_message(), "'email' is required.");
  auto no_password = server_->request({"POST", "/console/v1/login", R"({"email":"a@b.example"})", {}});
  EXPECT_EQ(no_password.status, 400);
  EXPECT_EQ(no_password.error_message(), "'password' is required.");
  auto not_json = server_->request({"POST", "/console/v1/login", "email=a", {}, false});
  EXPECT_EQ(not_json.status, 400);
  EXPECT_EQ(not_json.error_code(), "invalid_request");
}

TEST_F(ConsoleApi, LogoutEndsTheSession) {
  fresh_account();
  auto m = create_member(*server_, account_, "viewer", kMemberPassword);
  auto login = server_->request({"POST",
                                 "/console/v1/login",
                                 Json{{"email", m["email"]}, {"password", kMemberPassword}}.dump(),
                                 {}});
  std::string token = login.json()["token"];
  auto out = server_->post("/console/v1/logout", token, "");
  ASSERT_EQ(out.status, 200) << out.body;
  EXPECT_EQ(out.json()["data"]["loggedOut"], true);
  auto after = server_->get("/console/v1/me", token);
  EXPECT_EQ(after.status, 401);
  EXPECT_EQ(after.error_code(), "unauthorized");
  // The member token made by the operator is unaffected.
  EXPECT_EQ(server_->get("/console/v1/me", m["token"]).status, 200);
}

TEST_F(ConsoleApi, EveryMissingOrBadTokenIs401) {
  std::string owner = fresh_account();
  auto none = server_->request({"GET", "/console/v1/me", "", {}});
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(none.error_code(), "unauthorized");
  EXPECT_EQ(none.header("www-authenticate"), "Bearer");
  auto basic = server_->request({"GET", "/console/v1/me", "", {"Authorization: Basic abc"}});
  EXPECT_EQ(basic.status, 401);
  EXPECT_EQ(server_->get("/console/v1/me", "cst_short").error_code(), "unauthorized");
  EXPECT_EQ(server_->get("/console/v1/me", "cmt_" + std::string(40, 'a')).status, 401);
  // An API key is not a console token.
  EXPECT_EQ(server_->get("/console/v1/me", server_->create_key(account_)).status, 401);
  EXPECT_EQ(server_->get("/console/v1/me", owner).json()["data"]["session"]["kind"], "member");
}

TEST_F(ConsoleApi, OnlyOwnersAndAdminsCreateAndRevokeKeys) {
  std::string owner = fresh_account();
  std::string admin = member("admin");
  std::string editor = member("editor");
  std::string viewer = member("viewer");
  EXPECT_EQ(create_key(owner, R"({"name":"by owner","allScopes":true})").status, 201);
  auto by_admin = create_key(admin, R"({"name":"by admin","allScopes":true})");
  ASSERT_EQ(by_admin.status, 201) << by_admin.body;
  for (const auto& t : {editor, viewer}) {
    auto r = create_key(t, R"({"name":"nope","allScopes":true})");
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_EQ(r.error_code(), "forbidden");
    std::string id = by_admin.json()["data"]["id"];
    auto revoke = server_->del("/console/v1/keys/" + id, t);
    EXPECT_EQ(revoke.status, 403);
    EXPECT_EQ(revoke.error_code(), "forbidden");
  }
  auto forbidden = create_key(viewer, R"({"name":"nope","allScopes":true})");
  EXPECT_EQ(forbidden.error_message(), "This needs the admin role or higher; you are a viewer.");
  std::string id = by_admin.json()["data"]["id"];
  auto revoked = server_->del("/console/v1/keys/" + id, admin);
  ASSERT_EQ(revoked.status, 200) << revoked.body;
  EXPECT_EQ(revoked.json()["data"]["id"], id);
  EXPECT_EQ(revoked.json()["data"]["revoked"], true);
}

TEST_F(ConsoleApi, EditorsAndViewersSeeOnlyNamePrefixScopesAndTimes) {
  std::string owner = fresh_account();
  auto created = create_key(owner, R"({"name":"backend","scopes":["agents:read","chat"]})");
  ASSERT_EQ(created.status, 201);
  std::string plaintext = created.json()["data"]["key"];
  server_->get("/api/v1/agents", plaintext);  // sets lastUsedAt
  for (const auto& role : {"editor", "viewer"}) {
    auto r = server_->get("/console/v1/keys", member(role));
    ASSERT_EQ(r.status, 200) << r.body;
    auto data = r.json()["data"];
    ASSERT_EQ(data.size(), 1u);
    EXPECT_EQ(keys_of(data[0]),
              (std::set<std::string>{"name", "prefix", "allScopes", "scopes", "createdAt", "lastUsedAt"}));
    EXPECT_EQ(data[0]["name"], "backend");
    EXPECT_EQ(data[0]["prefix"], plaintext.substr(0, 12));
    EXPECT_EQ(data[0]["scopes"], (Json{"agents:read", "chat"}));
    EXPECT_EQ(data[0]["allScopes"], false);
    EXPECT_TRUE(data[0]["lastUsedAt"].is_string());
  }
  auto as_owner = server_->get("/console/v1/keys", owner).json()["data"][0];
  EXPECT_EQ(keys_of(as_owner), (std::set<std::string>{"id", "name", "prefix", "allScopes", "scopes", "createdBy",
                                                      "createdAt", "lastUsedAt"}));
  EXPECT_FALSE(as_owner.contains("key"));  // shown once, at creation only
}

TEST_F(ConsoleApi, KeyWithEveryScopeOrAChosenSubset) {
  std::string owner = fresh_account();
  auto all = create_key(owner, R"({"name":"all","allScopes":true})");
  ASSERT_EQ(all.status, 201) << all.body;
  auto a = all.json()["data"];
  EXPECT_EQ(a["allScopes"], true);
  EXPECT_EQ(a["scopes"].size(), 8u);
  EXPECT_TRUE(std::regex_match(a["key"].get<std::string>(), std::regex("svc_live_[0-9A-Za-z]{32}")));
  EXPECT_EQ(a["prefix"], a["key"].get<std::string>().substr(0, 12));
  EXPECT_TRUE(a["lastUsedAt"].is_null());
  EXPECT_EQ(a["createdBy"], server_->get("/console/v1/me", owner).json()["data"]["member"]["id"]);
  EXPECT_EQ(all.header("cache-control"), "no-store");
  EXPECT_EQ(server_->get("/api/v1/agents", a["key"]).status, 200);

  auto chat_only = create_key(owner, R"({"name":"chat","scopes":["chat"]})");
  ASSERT_EQ(chat_only.status, 201);
  EXPECT_EQ(chat_only.json()["data"]["scopes"], Json{"chat"});
  auto refused = server_->get("/api/v1/agents", chat_only.json()["data"]["key"]);
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(refused.error_code(), "insufficient_scope");
}

TEST_F(ConsoleApi, KeyCreationInputIsValidated) {
  std::string owner = fresh_account();
  struct Case {
    const char* body;
    const char* message;
  };
  for (const auto& c : std::vector<Case>{
           {R"({"allScopes":true})", "'name' is required."},
           {R"({"name":"x"})", "'scopes' is required unless 'allScopes' is true."},
           {R"({"name":"x","allScopes":false})", "'scopes' is required unless 'allScopes' is true."},
           {R"({"name":"x","allScopes":true,"scopes":["chat"]})",
            "Send either 'allScopes': true or 'scopes', not both."},
           {R"({"name":"x","scopes":[]})", "'scopes' must name at least one scope."},
           {R"({"name":"x","scopes":"chat"})", "'scopes' must be an array of scope names."},
           {R"({"name":"","allScopes":true})", "'name' must be 1 to 100 characters."},
       }) {
    auto r = create_key(owner, c.body);
    EXPECT_EQ(r.status, 400) << c.body;
    EXPECT_EQ(r.error_code(), "invalid_request") << c.body;
    EXPECT_EQ(r.error_message(), c.message) << c.body;
  }
  auto unknown = create_key(owner, R"({"name":"x","scopes":["chat","agents:write"]})");
  EXPECT_EQ(unknown.status, 400);
  EXPECT_NE(unknown.error_message().find("'agents:write'"), std::string::npos);
  EXPECT_EQ(server_->get("/console/v1/keys", owner).json()["data"].size(), 0u);
}

TEST_F(ConsoleApi, AtMostTwentyActiveKeys) {
  std::string owner = fresh_account();
  std::string first_id;
  for (int i = 0; i < 20; ++i) {
    auto r = create_key(owner, R"({"name":"k","scopes":["chat"]})");
    ASSERT_EQ(r.status, 201) << i << r.body;
    if (i == 0) first_id = r.json()["data"]["id"];
  }
  auto over = create_key(owner, R"({"name":"k21","allScopes":true})");
  EXPECT_EQ(over.status, 400);
  EXPECT_EQ(over.error_code(), "key_limit_reached");
  ASSERT_EQ(server_->del("/console/v1/keys/" + first_id, owner).status, 200);
  EXPECT_EQ(create_key(owner, R"({"name":"k21","allScopes":true})").status, 201);
}

TEST_F(ConsoleApi, NoKeysOnFree) {
  std::string owner = fresh_account("free");
  auto r = create_key(owner, R"({"name":"k","allScopes":true})");
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.error_code(), "plan_required");
}

TEST_F(ConsoleApi, RevocationIsImmediateAndIrreversible) {
  std::string owner = fresh_account();
  auto created = create_key(owner, R"({"name":"k","allScopes":true})").json()["data"];
  std::string key = created["key"], id = created["id"];
  ASSERT_EQ(server_->get("/api/v1/agents", key).status, 200);
  ASSERT_EQ(server_->del("/console/v1/keys/" + id, owner).status, 200);
  auto after = server_->get("/api/v1/agents", key);
  EXPECT_EQ(after.status, 401);
  EXPECT_EQ(after.error_code(), "unauthorized");
  EXPECT_EQ(server_->get("/console/v1/keys", owner).json()["data"].size(), 0u);
  auto again = server_->del("/console/v1/keys/" + id, owner);
  EXPECT_EQ(again.status, 400);
  EXPECT_EQ(again.error_code(), "invalid_request");
  EXPECT_EQ(server_->get("/api/v1/agents", key).status, 401);
}

TEST_F(ConsoleApi, AnotherAccountsKeyIsNotFound) {
  std::string mine = fresh_account();
  std::string their_account = server_->create_account();
  std::string their_key = server_->create_key(their_account);
  std::string their_id = server_->key_id_of(their_account, their_key);
  auto r = server_->del("/console/v1/keys/" + their_id, mine);
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.error_code(), "not_found");
  EXPECT_EQ(server_->get("/api/v1/agents", their_key).status, 200);
  EXPECT_EQ(server_->del("/console/v1/keys/key_missing", mine).status, 404);
}

TEST_F(ConsoleApi, RemovingAMemberLeavesItsKeysWorking) {
  fresh_account();
  auto admin = create_member(*server_, account_, "admin");
  auto created = create_key(admin["token"], R"({"name":"k","allScopes":true})");
  ASSERT_EQ(created.status, 201);
  std::string key = created.json()["data"]["key"];
  auto removed = server_->admin({"member", "remove", admin["id"]});
  EXPECT_EQ(removed["removed"], true);
  EXPECT_EQ(server_->get("/console/v1/me", admin["token"]).status, 401);
  EXPECT_EQ(server_->get("/api/v1/agents", key).status, 200);
}

TEST_F(ConsoleApi, PlanDowngradeKeepsKeysListedButRefusedUntilUpgrade) {
  std::string owner = fresh_account("pro");
  std::string key = create_key(owner, R"({"name":"k","allScopes":true})").json()["data"]["key"];
  ASSERT_EQ(server_->get("/api/v1/agents", key).status, 200);

  auto down = send(*server_, "PUT", "/console/v1/account", owner, R"({"plan":"free"})");
  ASSERT_EQ(down.status, 200) << down.body;
  EXPECT_EQ(down.json()["data"]["plan"], "free");
  EXPECT_EQ(down.json()["data"]["limits"]["apiAccess"], false);
  EXPECT_EQ(server_->get("/console/v1/keys", owner).json()["data"].size(), 1u);
  auto refused = server_->get("/api/v1/agents", key);
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(refused.error_code(), "plan_required");

  auto up = server_->patch("/console/v1/account", owner, R"({"plan":"starter"})");
  ASSERT_EQ(up.status, 200) << up.body;
  EXPECT_EQ(up.json()["data"]["plan"], "starter");
  EXPECT_EQ(server_->get("/api/v1/agents", key).status, 200);
  EXPECT_EQ(server_->get("/console/v1/account", owner).json()["data"]["plan"], "starter");
}

TEST_F(ConsoleApi, OnlyTheOwnerChangesThePlan) {
  fresh_account();
  for (const auto& role : {"admin", "editor", "viewer"}) {
    std::string token = member(role);
    auto r = send(*server_, "PUT", "/console/v1/account", token, R"({"plan":"pro"})");
    EXPECT_EQ(r.status, 403) << role;
    EXPECT_EQ(r.error_code(), "forbidden");
    EXPECT_EQ(server_->get("/console/v1/account", token).status, 200);
  }
  std::string owner = member("owner");
  auto bad = send(*server_, "PUT", "/console/v1/account", owner, R"({"plan":"gold"})");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.error_message(), "'plan' must be one of free, starter, pro, enterprise.");
  auto missing = send(*server_, "PUT", "/console/v1/account", owner, R"({})");
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(missing.error_message(), "'plan' is required.");
}

TEST_F(ConsoleApi, EditorsCreateAndChangeAgentsViewersOnlyRead) {
  std::string owner = fresh_account();
  std::string editor = member("editor");
  std::string viewer = member("viewer");
  auto created =
      server_->post("/console/v1/agents", editor,
                    R"({"name":"Support","private":true,"settings":{"showSources":true,"fallbackMessage":"Sorry"}})");
  ASSERT_EQ(created.status, 201) << created.body;
  auto a = created.json()["data"];
  std::string id = a["id"];
  EXPECT_EQ(a["name"], "Support");
  EXPECT_EQ(a["private"], true);
  EXPECT_EQ(a["status"], "untrained");
  EXPECT_EQ(a["settings"], (Json{{"showSources", true}, {"fallbackMessage", "Sorry"}}));

  auto changed =
      server_->patch("/console/v1/agents/" + id, editor,
                     R"({"name":"Help","private":false,"settings":{"fallbackMessage":null,"followUps":true}})");
  ASSERT_EQ(changed.status, 200) << changed.body;
  EXPECT_EQ(changed.json()["data"]["name"], "Help");
  EXPECT_EQ(changed.json()["data"]["private"], false);
  EXPECT_EQ(changed.json()["data"]["settings"], (Json{{"showSources", true}, {"followUps", true}}));

  std::string key = server_->create_key(account_);
  auto api = server_->get("/api/v1/agents/" + id, key);
  ASSERT_EQ(api.status, 200);
  EXPECT_EQ(api.json()["data"]["name"], "Help");
  EXPECT_FALSE(api.json()["data"].contains("settings"));

  auto list = server_->get("/console/v1/agents", viewer);
  ASSERT_EQ(list.status, 200);
  ASSERT_EQ(list.json()["data"].size(), 1u);
  EXPECT_EQ(server_->get("/console/v1/agents/" + id, viewer).json()["data"]["settings"]["followUps"], true);
  auto no_create = server_->post("/console/v1/agents", viewer, R"({"name":"X"})");
  EXPECT_EQ(no_create.status, 403);
  EXPECT_EQ(no_create.error_code(), "forbidden");
  auto no_change = server_->patch("/console/v1/agents/" + id, viewer, R"({"name":"X"})");
  EXPECT_EQ(no_change.status, 403);
  EXPECT_EQ(no_change.error_code(), "forbidden");
}

TEST_F(ConsoleApi, AnEditorCannotSendTheOwnersRedactedProviderKeyToAnotherHost) {
  std::string owner = fresh_account();
  std::string editor = member("editor");
  auto created = server_->post(
      "/console/v1/agents", owner,
      R"({"name":"Support","settings":{"engine":"openai","llm":{"baseUrl":"https://api.provider.example/v1","model":"m","apiKey":"sk-owner-secret"}}})");
  ASSERT_EQ(created.status, 201) << created.body;
  std::string id = created.json()["data"]["id"];
  auto shown = server_->get("/console/v1/agents/" + id, editor);
  ASSERT_EQ(shown.status, 200);
  EXPECT_EQ(shown.json()["data"]["settings"]["llm"]["apiKey"], "********");
  EXPECT_EQ(shown.body.find("sk-owner-secret"), std::string::npos);

  auto moved = server_->patch("/console/v1/agents/" + id, editor,
                              R"({"settings":{"llm":{"baseUrl":"https://collector.example/v1","model":"m","apiKey":"********"}}})");
  EXPECT_EQ(moved.status, 400) << moved.body;
  EXPECT_EQ(moved.error_code(), "invalid_request");
  EXPECT_EQ(moved.error_message(),
            "'llm.apiKey' must be given again when 'llm.baseUrl' changes: a stored secret is only "
            "kept for the "
            "address it was set for.");
  // Another path of the same host is refused too.
  auto other_path = server_->patch(
      "/console/v1/agents/" + id, editor,
      R"({"settings":{"llm":{"baseUrl":"https://api.provider.example/v2","model":"m","apiKey":"********"}}})");
  EXPECT_EQ(other_path.status, 400) << other_path.body;
  // Nothing changed; the same address keeps the key (shown redacted as before).
  auto same = server_->patch(
      "/console/v1/agents/" + id, editor,
      R"({"settings":{"llm":{"baseUrl":"https://API.provider.example:443/v1","model":"m2","apiKey":"********"}}})");
  ASSERT_EQ(same.status, 200) << same.body;
  EXPECT_EQ(same.json()["data"]["settings"]["llm"]["apiKey"], "********");
  EXPECT_EQ(same.json()["data"]["settings"]["llm"]["baseUrl"],
            "https://API.provider.example:443/v1");
}

TEST_F(ConsoleApi, AgentInputIsValidated) {
  std::string owner = fresh_account();
  auto unknown = server_->post("/console/v1/agents", owner, R"({"name":"A","settings":{"colour":"red"}})");
  EXPECT_EQ(unknown.status, 400);
  EXPECT_EQ(unknown.error_code(), "invalid_request");
  EXPECT_NE(unknown.error_message().find("'colour'"), std::string::npos);
  auto wrong_type = server_->post("/console/v1/agents", owner, R"({"name":"A","settings":{"showSources":"yes"}})");
  EXPECT_EQ(wrong_type.error_message(), "Setting 'showSources' must be a boolean.");
  EXPECT_EQ(server_->post("/console/v1/agents", owner, R"({"settings":{}})").error_message(), "'name' is required.");
  EXPECT_EQ(server_->post("/console/v1/agents", owner, R"({"name":"A","settings":[]})").error_message(),
            "'settings' must be an object.");
  EXPECT_EQ(server_->post("/console/v1/agents", owner, R"({"name":"A","private":"no"})").error_message(),
            "'private' must be a boolean.");
  EXPECT_EQ(server_->get("/console/v1/agents", owner).json()["data"].size(), 0u);
}

TEST_F(ConsoleApi, AnotherAccountsAgentIsNotFound) {
  std::string owner = fresh_account();
  std::string theirs = server_->create_agent(server_->create_account());
  auto get = server_->get("/console/v1/agents/" + theirs, owner);
  EXPECT_EQ(get.status, 404);
  EXPECT_EQ(get.error_code(), "not_found");
  auto patch = server_->patch("/console/v1/agents/" + theirs, owner, R"({"name":"Mine now"})");
  EXPECT_EQ(patch.status, 404);
  EXPECT_EQ(patch.error_code(), "not_found");
}

TEST_F(ConsoleApi, MembersListAndRemoval) {
  std::string owner = fresh_account();
  auto admin = create_member(*server_, account_, "admin");
  auto editor = create_member(*server_, account_, "editor");
  auto list = server_->get("/console/v1/members", editor["token"]);
  ASSERT_EQ(list.status, 200);
  EXPECT_EQ(list.json()["data"].size(), 3u);
  EXPECT_EQ(list.json()["data"][0]["id"], editor["id"]);

  std::string owner_id = server_->get("/console/v1/me", owner).json()["data"]["member"]["id"];
  auto admin_removes_owner = server_->del("/console/v1/members/" + owner_id, admin["token"]);
  EXPECT_EQ(admin_removes_owner.status, 403);
  EXPECT_EQ(admin_removes_owner.error_code(), "forbidden");
  auto last_owner = server_->del("/console/v1/members/" + owner_id, owner);
  EXPECT_EQ(last_owner.status, 409);
  EXPECT_EQ(last_owner.error_code(), "conflict");
  auto editor_removes = server_->del("/console/v1/members/" + admin["id"].get<std::string>(), editor["token"]);
  EXPECT_EQ(editor_removes.status, 403);
  auto removed = server_->del("/console/v1/members/" + editor["id"].get<std::string>(), admin["token"]);
  ASSERT_EQ(removed.status, 200) << removed.body;
  EXPECT_EQ(removed.json()["data"]["deleted"], true);
  EXPECT_EQ(server_->get("/console/v1/me", editor["token"]).status, 401);
  std::string stranger = create_member(*server_, server_->create_account(), "viewer")["id"];
  EXPECT_EQ(server_->del("/console/v1/members/" + stranger, owner).status, 404);
}

TEST_F(ConsoleApi, AdminCliRefusesBadMembers) {
  fresh_account();
  auto m = create_member(*server_, account_, "viewer");
  auto dup =
      server_->admin({"member", "create", "--account", account_, "--email", m["email"], "--role", "viewer"}, true);
  EXPECT_NE(dup["stderr"].get<std::string>().find("conflict"), std::string::npos);
  auto role =
      server_->admin({"member", "create", "--account", account_, "--email", "x@y.example", "--role", "boss"}, true);
  EXPECT_NE(role["stderr"].get<std::string>().find("'role'"), std::string::npos);
  auto email = server_->admin({"member", "create", "--account", account_, "--email", "nope", "--role", "viewer"}, true);
  EXPECT_NE(email["stderr"].get<std::string>().find("'email'"), std::string::npos);
  auto password = server_->admin(
      {"member", "create", "--account", account_, "--email", "p@y.example", "--role", "viewer", "--password", "short"},
      true);
  EXPECT_NE(password["stderr"].get<std::string>().find("'password'"), std::string::npos);
  auto list = server_->admin({"member", "list", "--account", account_});
  EXPECT_EQ(list["data"].size(), 2u);
  EXPECT_FALSE(list["data"][0].contains("token"));
}

TEST_F(ConsoleApi, SecretsNeverReachTheLog) {
  fresh_account();
  auto m = create_member(*server_, account_, "owner", kMemberPassword);
  auto login = server_->request({"POST",
                                 "/console/v1/login",
                                 Json{{"email", m["email"]}, {"password", kMemberPassword}}.dump(),
                                 {}});
  std::string session = login.json()["token"];
  std::string key =
      server_->post("/console/v1/keys", session, R"({"name":"k","allScopes":true})").json()["data"]["key"];
  server_->request(
      {"POST", "/console/v1/login", Json{{"email", m["email"]}, {"password", "wrong password 1"}}.dump(), {}});
  std::string log = server_->log();
  EXPECT_EQ(log.find(kMemberPassword), std::string::npos);
  EXPECT_EQ(log.find("wrong password 1"), std::string::npos);
  EXPECT_EQ(log.find(session), std::string::npos);
  EXPECT_EQ(log.find(m["token"].get<std::string>()), std::string::npos);
  EXPECT_EQ(log.find(key), std::string::npos);
}

}  // namespace
}  // namespace parley::e2e
