// Widget identity end to end: the console and the admin CLI make an agent's identity secret
// (shown once, sealed at rest, never in the agent's JSON), a widget message signed with it binds
// its conversation to the contact with that external id (created once, then reused), a forged
// signature, another agent's and a missing one keep the visitor anonymous and say so, rotation
// invalidates old signatures, Parley.identify's route binds a conversation already started, and
// the plan's contact allowance holds.
#include "chat_support.h"
#include "core/crypto.h"
#include "harness.h"

namespace parley::e2e {
namespace {

// The key every node of a PostgreSQL test shares (SQLite makes its own file beside the data).
const std::string kSecretKey = "aWRlbnRpdHktc2VjcmV0LWtleS1mb3ItdGVzdHMtMzI=";

std::string sign(const std::string& secret, const std::string& user_id) {
  Sha256Digest mac = hmac_sha256(secret, user_id);
  return to_hex(mac.data(), mac.size());
}

class WidgetIdentity : public ::testing::Test {
 protected:
  void SetUp() override {
    const Seed& seeded = account_seed("WidgetIdentity");
    Env env = unlimited();
    env["PARLEY_WIDGET_REQUESTS_PER_MINUTE_PER_ADDRESS"] = "1000000";
    env["PARLEY_WIDGET_MESSAGES_PER_MINUTE_PER_ADDRESS"] = "1000000";
    if (on_postgres()) env["PARLEY_SECRET_KEY"] = kSecretKey;
    server_ = std::make_unique<Server>(env, std::vector<std::string>{}, &seeded);
    account_ = seeded.values["account"];
    agent_ = seeded.values["agent"];
    key_ = seeded.values["key"];
    owner_ = create_member(*server_, account_, "owner")["token"];
  }

  HttpResponse make_secret(const std::string& agent, const std::string& member) {
    return server_->post("/console/v1/agents/" + agent + "/identity-secret", member, "{}");
  }
  std::string secret_of(const std::string& agent) {
    auto r = make_secret(agent, owner_);
    EXPECT_TRUE(r.status == 201 || r.status == 200) << r.body;
    return r.json()["data"]["secret"];
  }
  HttpResponse message(const std::string& agent, Json body) {
    body["message"] = "Hello there";
    if (!body.contains("visitorId")) body["visitorId"] = "v-" + std::to_string(++visitors_);
    return server_->request({"POST",
                             "/widget/v1/agents/" + agent + "/messages",
                             body.dump(),
                             {"Origin: https://shop.example.com"}});
  }
  // The conversation as the console shows it.
  Json details(const std::string& conversation) {
    auto r = server_->get("/console/v1/conversations/" + conversation, owner_);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json()["data"];
  }
  // The identity of the conversation a widget message started.
  Json identity_after(const std::string& agent, const Json& body) {
    auto r = message(agent, body);
    EXPECT_EQ(r.status, 200) << r.body;
    return details(r.json()["conversationId"])["identity"];
  }
  Json contacts(const std::string& agent) {
    auto r = server_->get("/api/v1/agents/" + agent + "/contacts", key_);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json()["data"];
  }

  std::unique_ptr<Server> server_;
  std::string account_, agent_, key_, owner_;
  int visitors_ = 0;
};

TEST_F(WidgetIdentity, ASecretIsShownOnceAndTheAgentSaysOnlyThatItIsSet) {
  auto before = server_->get("/console/v1/agents/" + agent_, owner_);
  ASSERT_EQ(before.status, 200) << before.body;
  EXPECT_EQ(before.json()["data"]["identitySecret"]["set"], false);
  EXPECT_TRUE(before.json()["data"]["identitySecret"]["createdAt"].is_null());

  auto made = make_secret(agent_, owner_);
  ASSERT_EQ(made.status, 201) << made.body;
  EXPECT_EQ(made.header("cache-control"), "no-store");
  std::string secret = made.json()["data"]["secret"];
  EXPECT_EQ(secret.size(), 64u);
  EXPECT_EQ(secret.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(made.json()["data"]["rotated"], false);

  auto after = server_->get("/console/v1/agents/" + agent_, owner_);
  EXPECT_EQ(after.json()["data"]["identitySecret"]["set"], true);
  EXPECT_FALSE(after.json()["data"]["identitySecret"]["createdAt"].is_null());
  EXPECT_EQ(after.body.find(secret), std::string::npos);
  EXPECT_EQ(server_->get("/api/v1/agents/" + agent_, key_).body.find("identitySecret"),
            std::string::npos);
  EXPECT_EQ(server_->admin({"agent", "get", agent_}).dump().find(secret), std::string::npos);
  // Sealed at rest: the database holds no copy of it in clear.
  EXPECT_EQ(server_->dump().find(secret), std::string::npos);

  auto again = make_secret(agent_, owner_);
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(again.json()["data"]["rotated"], true);
  EXPECT_NE(again.json()["data"]["secret"], secret);
}

TEST_F(WidgetIdentity, OnlyAdminsMakeSecretsAndAnotherAccountsAgentIsMissing) {
  std::string editor = create_member(*server_, account_, "editor")["token"];
  auto refused = make_secret(agent_, editor);
  EXPECT_EQ(refused.status, 403) << refused.body;
  EXPECT_EQ(refused.error_code(), "forbidden");
  std::string admin = create_member(*server_, account_, "admin")["token"];
  EXPECT_EQ(make_secret(agent_, admin).status, 201);

  std::string other_account = server_->create_account();
  std::string other_agent = server_->create_agent(other_account);
  auto foreign = make_secret(other_agent, owner_);
  EXPECT_EQ(foreign.status, 404) << foreign.body;
  EXPECT_EQ(foreign.error_code(), "not_found");
  EXPECT_EQ(make_secret("agt_missing", owner_).status, 404);
  EXPECT_EQ(server_->admin({"agent", "get", other_agent})["identitySecret"]["set"], false);
  EXPECT_EQ(server_->post("/console/v1/agents/" + agent_ + "/identity-secret", "", "{}").status,
            401);
}

TEST_F(WidgetIdentity, AValidSignatureBindsTheContactCreatedOnceThenReused) {
  std::string secret = secret_of(agent_);
  auto first =
      identity_after(agent_, {{"userId", "user-42"}, {"userHash", sign(secret, "user-42")}});
  EXPECT_EQ(first["status"], "verified");
  EXPECT_EQ(first["externalId"], "user-42");
  ASSERT_TRUE(first["contactId"].is_string()) << first.dump();

  auto list = contacts(agent_);
  ASSERT_EQ(list.size(), 1u) << list.dump();
  EXPECT_EQ(list[0]["id"], first["contactId"]);
  EXPECT_EQ(list[0]["externalId"], "user-42");
  EXPECT_EQ(list[0]["source"], "identity");

  // Another browser of the same user: the same contact, none made.
  auto second =
      identity_after(agent_, {{"userId", "user-42"}, {"userHash", sign(secret, "user-42")}});
  EXPECT_EQ(second["status"], "verified");
  EXPECT_EQ(second["contactId"], first["contactId"]);
  EXPECT_EQ(contacts(agent_).size(), 1u);

  // A contact the API made with that external id is the one bound.
  auto made = server_->post("/api/v1/agents/" + agent_ + "/contacts", key_,
                            R"({"external_id": "user-7", "name": "Ada"})");
  ASSERT_EQ(made.status, 201) << made.body;
  auto third = identity_after(agent_, {{"userId", "user-7"}, {"userHash", sign(secret, "user-7")}});
  EXPECT_EQ(third["contactId"], made.json()["data"]["id"]);

  // The binding is the conversation's: the API reads it too, and a later message keeps it.
  auto r = message(
      agent_,
      {{"userId", "user-42"}, {"userHash", sign(secret, "user-42")}, {"visitorId", "v-keep"}});
  std::string conv = r.json()["conversationId"];
  auto next = message(agent_, {{"visitorId", "v-keep"}, {"conversationId", conv}});
  ASSERT_EQ(next.status, 200) << next.body;
  auto api = server_->get("/api/v1/conversations/" + conv, key_);
  EXPECT_EQ(api.json()["data"]["identity"]["status"], "verified");
  EXPECT_EQ(api.json()["data"]["identity"]["contactId"], first["contactId"]);
}

TEST_F(WidgetIdentity, ForgedMissingAndOtherAgentsSignaturesStayAnonymousAndSaySo) {
  std::string secret = secret_of(agent_);
  std::string other_agent = server_->create_agent(account_);
  std::string other_secret = secret_of(other_agent);

  auto forged = identity_after(agent_, {{"userId", "user-42"}, {"userHash", std::string(64, 'f')}});
  EXPECT_EQ(forged["status"], "invalid_signature");
  EXPECT_EQ(forged["externalId"], "user-42");
  EXPECT_TRUE(forged["contactId"].is_null());

  auto others =
      identity_after(agent_, {{"userId", "user-42"}, {"userHash", sign(other_secret, "user-42")}});
  EXPECT_EQ(others["status"], "invalid_signature");
  EXPECT_TRUE(others["contactId"].is_null());

  auto someone_else =
      identity_after(agent_, {{"userId", "user-43"}, {"userHash", sign(secret, "user-42")}});
  EXPECT_EQ(someone_else["status"], "invalid_signature");

  auto missing = identity_after(agent_, {{"userId", "user-42"}});
  EXPECT_EQ(missing["status"], "missing_signature");
  EXPECT_TRUE(missing["contactId"].is_null());

  auto anonymous = identity_after(agent_, Json::object());
  EXPECT_EQ(anonymous["status"], "anonymous");
  EXPECT_TRUE(anonymous["externalId"].is_null());

  EXPECT_EQ(contacts(agent_).size(), 0u);
  EXPECT_EQ(contacts(other_agent).size(), 0u);

  // An agent with no secret verifies nobody.
  std::string bare = server_->create_agent(account_);
  auto no_secret =
      identity_after(bare, {{"userId", "user-42"}, {"userHash", sign(secret, "user-42")}});
  EXPECT_EQ(no_secret["status"], "no_secret");

  // Malformed input is refused, naming the field; the chat goes on without it.
  auto too_long = message(agent_, {{"userId", std::string(201, 'u')}, {"userHash", "ab"}});
  EXPECT_EQ(too_long.status, 400);
  EXPECT_NE(too_long.error_message().find("'userId'"), std::string::npos) << too_long.body;
  auto hash_alone = message(agent_, {{"userHash", sign(secret, "user-42")}});
  EXPECT_EQ(hash_alone.status, 400);
  EXPECT_NE(hash_alone.error_message().find("'userHash'"), std::string::npos) << hash_alone.body;
}

TEST_F(WidgetIdentity, RotationInvalidatesSignaturesMadeWithTheOldSecret) {
  std::string old_secret = secret_of(agent_);
  EXPECT_EQ(
      identity_after(agent_, {{"userId", "u1"}, {"userHash", sign(old_secret, "u1")}})["status"],
      "verified");
  std::string new_secret = secret_of(agent_);
  EXPECT_EQ(
      identity_after(agent_, {{"userId", "u1"}, {"userHash", sign(old_secret, "u1")}})["status"],
      "invalid_signature");
  EXPECT_EQ(
      identity_after(agent_, {{"userId", "u1"}, {"userHash", sign(new_secret, "u1")}})["status"],
      "verified");
}

TEST_F(WidgetIdentity, IdentifyAfterTheConversationStartedBindsItOnce) {
  std::string secret = secret_of(agent_);
  auto r = message(agent_, {{"visitorId", "v-spa"}});
  ASSERT_EQ(r.status, 200) << r.body;
  std::string conv = r.json()["conversationId"];
  EXPECT_EQ(details(conv)["identity"]["status"], "anonymous");

  auto identify = [&](const std::string& visitor, const std::string& user,
                      const std::string& hash) {
    return server_->request(
        {"POST",
         "/widget/v1/conversations/" + conv + "/identify",
         Json{{"visitorId", visitor}, {"userId", user}, {"userHash", hash}}.dump(),
         {"Origin: https://shop.example.com"}});
  };
  auto bad = identify("v-spa", "user-9", std::string(64, '0'));
  ASSERT_EQ(bad.status, 200) << bad.body;
  EXPECT_EQ(bad.json()["data"]["identity"]["status"], "invalid_signature");

  auto good = identify("v-spa", "user-9", sign(secret, "user-9"));
  ASSERT_EQ(good.status, 200) << good.body;
  EXPECT_EQ(good.json()["data"]["conversationId"], conv);
  EXPECT_EQ(good.json()["data"]["identity"]["status"], "verified");
  std::string contact = good.json()["data"]["identity"]["contactId"];
  EXPECT_EQ(details(conv)["identity"]["contactId"], contact);

  // Once verified, the conversation keeps its contact whatever is claimed later.
  auto later = identify("v-spa", "user-10", sign(secret, "user-10"));
  EXPECT_EQ(later.json()["data"]["identity"]["externalId"], "user-9");
  EXPECT_EQ(later.json()["data"]["identity"]["contactId"], contact);
  auto worse = identify("v-spa", "user-9", "00");
  EXPECT_EQ(worse.json()["data"]["identity"]["status"], "verified");

  // Another visitor cannot identify this conversation.
  EXPECT_EQ(identify("v-other", "user-9", sign(secret, "user-9")).status, 404);
  auto no_user = server_->request({"POST",
                                   "/widget/v1/conversations/" + conv + "/identify",
                                   Json{{"visitorId", "v-spa"}}.dump(),
                                   {"Origin: https://shop.example.com"}});
  EXPECT_EQ(no_user.status, 400);
  EXPECT_NE(no_user.error_message().find("'userId'"), std::string::npos);
}

TEST_F(WidgetIdentity, AValidSignaturePastTheContactAllowanceStaysAnonymousAndSaysSo) {
  server_->admin({"account", "set-limits", account_, R"({"contactsPerAgent": 1})"});
  std::string secret = secret_of(agent_);
  auto first = identity_after(agent_, {{"userId", "u1"}, {"userHash", sign(secret, "u1")}});
  EXPECT_EQ(first["status"], "verified");
  auto second = identity_after(agent_, {{"userId", "u2"}, {"userHash", sign(secret, "u2")}});
  EXPECT_EQ(second["status"], "contact_limit_reached");
  EXPECT_EQ(second["externalId"], "u2");
  EXPECT_TRUE(second["contactId"].is_null());
  EXPECT_EQ(contacts(agent_).size(), 1u);
  // The contact already known is still bound at the limit.
  EXPECT_EQ(
      identity_after(agent_, {{"userId", "u1"}, {"userHash", sign(secret, "u1")}})["contactId"],
      first["contactId"]);
}

TEST_F(WidgetIdentity, TheAdminCommandPrintsTheSecretOnceAndRotatesOnlyWhenAsked) {
  Json made = server_->admin({"agent", "identity-secret", agent_});
  std::string secret = made["secret"];
  EXPECT_EQ(secret.size(), 64u);
  EXPECT_EQ(made["agentId"], agent_);
  EXPECT_EQ(made["rotated"], false);
  EXPECT_EQ(identity_after(agent_, {{"userId", "u1"}, {"userHash", sign(secret, "u1")}})["status"],
            "verified");

  Json refused = server_->admin({"agent", "identity-secret", agent_}, true);
  std::string error = refused["stderr"];
  EXPECT_NE(error.find("conflict"), std::string::npos) << error;
  EXPECT_NE(error.find("--rotate"), std::string::npos) << error;
  EXPECT_EQ(error.find(secret), std::string::npos);

  Json rotated = server_->admin({"agent", "identity-secret", agent_, "--rotate"});
  EXPECT_EQ(rotated["rotated"], true);
  EXPECT_EQ(identity_after(agent_, {{"userId", "u2"}, {"userHash", sign(secret, "u2")}})["status"],
            "invalid_signature");
  EXPECT_EQ(identity_after(
                agent_, {{"userId", "u2"}, {"userHash", sign(rotated["secret"], "u2")}})["status"],
            "verified");
  Json missing = server_->admin({"agent", "identity-secret", "agt_missing"}, true);
  EXPECT_NE(missing["stderr"].get<std::string>().find("not_found"), std::string::npos);
}

TEST_F(WidgetIdentity, ANodeWhoseKeyCannotOpenTheSecretsRefusesToStart) {
  std::string secret = secret_of(agent_);
  server_->stop();
  const std::string other_key = "b3RoZXIta2V5LW90aGVyLWtleS1vdGhlci1rZXktMTI=";
  Env env = server_->database_env();
  env["PARLEY_SECRET_KEY"] = other_key;
  auto refused = run_process(
      {"/usr/bin/timeout", "30", PARLEY_BINARY, "serve", "--listen", "127.0.0.1:0"}, env);
  EXPECT_EQ(refused.exit_code, 1) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("identity secrets were sealed with another secret key"),
            std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find(agent_), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("--rotate"), std::string::npos) << refused.err;
  EXPECT_EQ(refused.err.find(secret), std::string::npos);
  // The operator's way out without the server: a new secret sealed with the node's key.
  auto rotated =
      run_process({PARLEY_BINARY, "admin", "agent", "identity-secret", agent_, "--rotate"}, env);
  EXPECT_EQ(rotated.exit_code, 0) << rotated.err;
  // Started again with that key, the node gets past the check (stopped by the time limit, not
  // refused: a refusal exits 1 at once).
  auto started = run_process({"/usr/bin/timeout", "--preserve-status", "-s", "TERM", "10",
                              PARLEY_BINARY, "serve", "--listen", "127.0.0.1:0"},
                             env);
  EXPECT_EQ(started.err.find("sealed with another secret key"), std::string::npos) << started.err;
  EXPECT_NE(started.exit_code, 1) << started.err;
}

}  // namespace
}  // namespace parley::e2e
