// Contacts: create-or-update rules, every conflict case, input limits, attribute merge and
// removal, PATCH and DELETE rules, the plan's allowance, search, scopes and other accounts.
#include <chrono>
#include <thread>

#include "harness.h"

namespace parley::e2e {
namespace {

class DataContacts : public SeededServerTest {
 protected:
  HttpResponse post(const Json& body) const {
    return server_->post("/api/v1/agents/" + agent_ + "/contacts", key_, body.dump());
  }
  HttpResponse patch(const std::string& id, const Json& body) const {
    return server_->patch("/api/v1/contacts/" + id, key_, body.dump());
  }
  std::string create(const Json& body) const {
    auto r = post(body);
    EXPECT_EQ(r.status, 201) << r.body;
    return r.json()["data"]["id"];
  }
  static void expect_error(const HttpResponse& r, long status, const std::string& code,
                           const std::string& mention = "") {
    EXPECT_EQ(r.status, status) << r.body;
    EXPECT_EQ(r.error_code(), code) << r.body;
    if (!mention.empty()) {
      EXPECT_NE(r.error_message().find(mention), std::string::npos) << r.body;
    }
  }
};

TEST_F(DataContacts, CreateShowsEveryField) {
  auto r = post({{"external_id", "user-1"},
                 {"email", "Ann@Example.COM"},
                 {"phone", "+4915112345678"},
                 {"name", "Ann"},
                 {"attributes", {{"plan", "gold"}, {"seats", 5}, {"vip", true}}}});
  ASSERT_EQ(r.status, 201) << r.body;
  auto j = r.json();
  EXPECT_EQ(j["result"], "created");
  auto c = j["data"];
  EXPECT_TRUE(c["id"].get<std::string>().rfind("ctc_", 0) == 0);
  EXPECT_EQ(c["agentId"], agent_);
  EXPECT_EQ(c["externalId"], "user-1");
  EXPECT_EQ(c["email"], "ann@example.com");
  EXPECT_EQ(c["phone"], "+4915112345678");
  EXPECT_EQ(c["name"], "Ann");
  EXPECT_EQ(c["attributes"], (Json{{"plan", "gold"}, {"seats", 5}, {"vip", true}}));
  EXPECT_EQ(c["source"], "api");
  for (auto f : {"firstSeenAt", "lastSeenAt", "createdAt", "updatedAt"}) {
    EXPECT_TRUE(std::regex_match(c[f].get<std::string>(),
                                 std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)")));
  }
  EXPECT_EQ(c["createdAt"], c["updatedAt"]);
  auto got = server_->get("/api/v1/contacts/" + c["id"].get<std::string>(), key_);
  ASSERT_EQ(got.status, 200);
  EXPECT_EQ(got.json()["data"], c);
  EXPECT_FALSE(got.json().contains("result"));
}

TEST_F(DataContacts, EmailOnlyAndNullFieldsAreNull) {
  auto r = post({{"email", "solo@example.com"}});
  ASSERT_EQ(r.status, 201);
  auto c = r.json()["data"];
  EXPECT_TRUE(c["externalId"].is_null());
  EXPECT_TRUE(c["phone"].is_null());
  EXPECT_TRUE(c["name"].is_null());
  EXPECT_EQ(c["attributes"], Json::object());
}

TEST_F(DataContacts, SameExternalIdUpdatesReplacingSentFieldsOnly) {
  auto id = create({{"external_id", "u1"},
                    {"email", "a@example.com"},
                    {"phone", "1234567"},
                    {"name", "A"},
                    {"attributes", {{"keep", 1}, {"change", "old"}, {"drop", false}}}});
  auto r = post({{"external_id", "u1"},
                 {"name", "Alice"},
                 {"phone", nullptr},
                 {"attributes", {{"change", "new"}, {"drop", nullptr}, {"added", 2.5}}}});
  ASSERT_EQ(r.status, 200) << r.body;
  auto j = r.json();
  EXPECT_EQ(j["result"], "updated");
  auto c = j["data"];
  EXPECT_EQ(c["id"], id);
  EXPECT_EQ(c["name"], "Alice");
  EXPECT_EQ(c["email"], "a@example.com");
  EXPECT_TRUE(c["phone"].is_null());
  EXPECT_EQ(c["attributes"], (Json{{"keep", 1}, {"change", "new"}, {"added", 2.5}}));
  EXPECT_EQ(c["source"], "api");
}

TEST_F(DataContacts, EmailOnlyContactReceivesTheExternalId) {
  auto id = create({{"email", "b@example.com"}, {"name", "B"}});
  auto r = post({{"external_id", "u2"}, {"email", "B@example.com"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["result"], "updated");
  EXPECT_EQ(r.json()["data"]["id"], id);
  EXPECT_EQ(r.json()["data"]["externalId"], "u2");
  EXPECT_EQ(r.json()["data"]["name"], "B");
}

TEST_F(DataContacts, EmailOnlyRequestUpdatesTheContactWithThatEmail) {
  auto id = create({{"external_id", "u3"}, {"email", "c@example.com"}});
  auto r = post({{"email", "c@example.com"}, {"name", "C"}});
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.json()["data"]["id"], id);
  EXPECT_EQ(r.json()["data"]["externalId"], "u3");
  EXPECT_EQ(r.json()["data"]["name"], "C");
}

TEST_F(DataContacts, ConflictEmailOfContactWithDifferentExternalId) {
  create({{"external_id", "u1"}, {"email", "d@example.com"}});
  expect_error(post({{"external_id", "u2"}, {"email", "d@example.com"}}), 409, "conflict");
}

TEST_F(DataContacts, ConflictEmailHeldByAnotherContactWhenFoundByExternalId) {
  create({{"external_id", "u1"}, {"email", "e1@example.com"}});
  create({{"email", "e2@example.com"}});
  expect_error(post({{"external_id", "u1"}, {"email", "e2@example.com"}}), 409, "conflict");
}

TEST_F(DataContacts, ConflictOnPatchToHeldExternalIdOrEmail) {
  create({{"external_id", "u1"}, {"email", "f1@example.com"}});
  auto other = create({{"external_id", "u2"}, {"email", "f2@example.com"}});
  expect_error(patch(other, {{"external_id", "u1"}}), 409, "conflict");
  expect_error(patch(other, {{"email", "F1@example.com"}}), 409, "conflict");
  auto same = patch(other, {{"external_id", "u2"}, {"email", "f2@example.com"}});
  EXPECT_EQ(same.status, 200) << same.body;
}

TEST_F(DataContacts, ExternalIdOrEmailIsRequired) {
  expect_error(post(Json::object()), 400, "invalid_request", "'external_id' or 'email'");
  expect_error(post({{"phone", "1234567"}, {"name", "x"}}), 400, "invalid_request",
               "'external_id' or 'email'");
  expect_error(post({{"external_id", nullptr}, {"email", nullptr}}), 400, "invalid_request");
}

TEST_F(DataContacts, InputLimits) {
  expect_error(post({{"external_id", std::string(201, 'x')}}), 400, "invalid_request",
               "'external_id'");
  EXPECT_EQ(post({{"external_id", std::string(200, 'x')}}).status, 201);
  expect_error(post({{"external_id", ""}}), 400, "invalid_request", "'external_id'");
  expect_error(post({{"external_id", 42}}), 400, "invalid_request", "'external_id'");
  for (auto bad : {"plain", "a@b", "a@@b.com", "a b@c.com", "@c.com", "a@.com", "a@c..com"}) {
    expect_error(post({{"email", bad}}), 400, "invalid_request", "'email'");
  }
  for (auto bad : {"123456", "1234567890123456", "+12-3456789", "phone12", "++1234567"}) {
    expect_error(post({{"external_id", "p"}, {"phone", bad}}), 400, "invalid_request", "'phone'");
  }
  EXPECT_EQ(post({{"external_id", "p7"}, {"phone", "1234567"}}).status, 201);
  EXPECT_EQ(post({{"external_id", "p15"}, {"phone", "+123456789012345"}}).status, 201);
  expect_error(post({{"external_id", "n"}, {"name", std::string(101, 'n')}}), 400,
               "invalid_request", "'name'");
  EXPECT_EQ(post({{"external_id", "n100"}, {"name", std::string(100, 'n')}}).status, 201);
}

TEST_F(DataContacts, AttributeLimits) {
  for (std::string bad : {std::string("Plan"), std::string("1st"), std::string("_x"),
                          std::string("has-dash"), "x" + std::string(40, 'y')}) {
    expect_error(post({{"external_id", "a"}, {"attributes", {{bad, 1}}}}), 400, "invalid_request",
                 bad);
  }
  EXPECT_EQ(
      post({{"external_id", "a40"}, {"attributes", {{"a" + std::string(39, '_'), 1}}}}).status,
      201);
  expect_error(post({{"external_id", "a"}, {"attributes", {{"long", std::string(1001, 'v')}}}}),
               400, "invalid_request", "'attributes.long'");
  EXPECT_EQ(
      post({{"external_id", "a1000"}, {"attributes", {{"long", std::string(1000, 'v')}}}}).status,
      201);
  expect_error(post({{"external_id", "a"}, {"attributes", {{"obj", {{"x", 1}}}}}}), 400,
               "invalid_request", "'attributes.obj'");
  expect_error(post({{"external_id", "a"}, {"attributes", {{"arr", Json::array({1})}}}}), 400,
               "invalid_request", "'attributes.arr'");
  expect_error(post({{"external_id", "a"}, {"attributes", "text"}}), 400, "invalid_request",
               "'attributes'");
  Json fifty = Json::object(), fifty_one = Json::object();
  for (int i = 0; i < 51; ++i) {
    if (i < 50) fifty["k" + std::to_string(i)] = i;
    fifty_one["k" + std::to_string(i)] = i;
  }
  expect_error(post({{"external_id", "many"}, {"attributes", fifty_one}}), 400, "invalid_request",
               "'attributes'");
  auto id = create({{"external_id", "many"}, {"attributes", fifty}});
  expect_error(post({{"external_id", "many"}, {"attributes", {{"one_more", 1}}}}), 400,
               "invalid_request", "'attributes'");
  auto swap = post({{"external_id", "many"}, {"attributes", {{"k0", nullptr}, {"one_more", 1}}}});
  ASSERT_EQ(swap.status, 200) << swap.body;
  EXPECT_EQ(swap.json()["data"]["attributes"].size(), 50u);
  EXPECT_FALSE(swap.json()["data"]["attributes"].contains("k0"));
  EXPECT_EQ(swap.json()["data"]["id"], id);
}

TEST_F(DataContacts, ContactLimitReached) {
  server_->admin({"account", "set-limits", account_, R"({"contactsPerAgent": 2})"});
  create({{"external_id", "1"}});
  create({{"external_id", "2"}});
  expect_error(post({{"external_id", "3"}}), 403, "contact_limit_reached");
  EXPECT_EQ(post({{"external_id", "2"}, {"name", "still updatable"}}).status, 200);
  // At the allowance a lead is kept without a contact.
  server_->admin({"lead", "create", "--agent", agent_, "--email", "over@example.com"});
  EXPECT_EQ(server_->get("/api/v1/agents/" + agent_ + "/leads", key_).json()["data"].size(), 1u);
  auto contacts = server_->get("/api/v1/agents/" + agent_ + "/contacts", key_).json()["data"];
  ASSERT_EQ(contacts.size(), 2u);
  // A removal makes room for the next contact, and the allowance holds again after it.
  ASSERT_EQ(server_->del("/api/v1/contacts/" + contacts[0]["id"].get<std::string>(), key_).status,
            200);
  EXPECT_EQ(post({{"external_id", "4"}}).status, 201);
  expect_error(post({{"external_id", "5"}}), 403, "contact_limit_reached");
  auto other_agent = server_->create_agent(account_);
  EXPECT_EQ(
      server_->post("/api/v1/agents/" + other_agent + "/contacts", key_, R"({"external_id":"3"})")
          .status,
      201);
}

TEST_F(DataContacts, PatchRules) {
  auto id = create({{"external_id", "u1"},
                    {"email", "g@example.com"},
                    {"name", "G"},
                    {"attributes", {{"a", 1}, {"b", 2}}}});
  auto r = patch(id, {{"name", "Gina"},
                      {"email", "G2@Example.com"},
                      {"attributes", {{"a", nullptr}, {"c", "x"}}},
                      {"unknown_field", 1}});
  ASSERT_EQ(r.status, 200) << r.body;
  auto c = r.json()["data"];
  EXPECT_EQ(c["name"], "Gina");
  EXPECT_EQ(c["email"], "g2@example.com");
  EXPECT_EQ(c["externalId"], "u1");
  EXPECT_EQ(c["attributes"], (Json{{"b", 2}, {"c", "x"}}));
  EXPECT_FALSE(r.json().contains("result"));

  auto unchanged = patch(id, Json::object());
  ASSERT_EQ(unchanged.status, 200);
  EXPECT_EQ(unchanged.json()["data"], c);

  ASSERT_EQ(patch(id, {{"email", nullptr}, {"phone", "1234567"}}).status, 200);
  expect_error(patch(id, {{"external_id", nullptr}, {"phone", nullptr}}), 400, "invalid_request",
               "'phone'");
  auto kept = server_->get("/api/v1/contacts/" + id, key_).json()["data"];
  EXPECT_EQ(kept["externalId"], "u1");
  EXPECT_EQ(kept["phone"], "1234567");
  auto phone_only = patch(id, {{"external_id", nullptr}});
  ASSERT_EQ(phone_only.status, 200);
  EXPECT_TRUE(phone_only.json()["data"]["externalId"].is_null());
  expect_error(patch(id, {{"phone", nullptr}}), 400, "invalid_request");
  expect_error(patch(id, {{"phone", "12"}}), 400, "invalid_request", "'phone'");
  expect_error(patch("ctc_missing", {{"name", "x"}}), 404, "not_found");
  auto bad_json =
      server_->request({"PATCH", "/api/v1/contacts/" + id, "{not json", {bearer(key_)}});
  expect_error(bad_json, 400, "invalid_request");
}

TEST_F(DataContacts, DeleteKeepsLeadsAndConversations) {
  auto conv =
      server_->admin({"conversation", "create", "--agent", agent_})["id"].get<std::string>();
  server_->admin(
      {"lead", "create", "--agent", agent_, "--email", "lead@example.com", "--conversation", conv});
  auto listed = server_->get("/api/v1/agents/" + agent_ + "/contacts?email=lead@example.com", key_)
                    .json()["data"];
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0]["source"], "lead");
  std::string id = listed[0]["id"];
  auto r = server_->del("/api/v1/contacts/" + id, key_);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json(), (Json{{"data", {{"id", id}, {"deleted", true}}}}));
  expect_error(server_->get("/api/v1/contacts/" + id, key_), 404, "not_found");
  expect_error(server_->del("/api/v1/contacts/" + id, key_), 404, "not_found");
  auto leads = server_->get("/api/v1/agents/" + agent_ + "/leads", key_).json()["data"];
  ASSERT_EQ(leads.size(), 1u);
  EXPECT_EQ(leads[0]["conversationId"], conv);
  EXPECT_EQ(server_->get("/api/v1/conversations/" + conv, key_).status, 200);
}

TEST_F(DataContacts, ImportUsesSourceImportAndTheSameRules) {
  auto out = server_->admin(
      {"contact", "import", "--agent", agent_, "--json",
       R"([{"external_id":"i1","email":"I1@example.com"},{"email":"i2@example.com","attributes":{"x":1}},{"external_id":"i1","name":"One"}])"});
  EXPECT_EQ(out["created"], 2);
  EXPECT_EQ(out["updated"], 1);
  auto one =
      server_->get("/api/v1/agents/" + agent_ + "/contacts?external_id=i1", key_).json()["data"];
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0]["source"], "import");
  EXPECT_EQ(one[0]["email"], "i1@example.com");
  EXPECT_EQ(one[0]["name"], "One");
  auto failed =
      server_->admin({"contact", "import", "--agent", agent_, "--json",
                      R"([{"external_id":"i9"},{"external_id":"i8","email":"i1@example.com"}])"},
                     true);
  EXPECT_NE(failed["stderr"].get<std::string>().find("conflict"), std::string::npos);
  EXPECT_EQ(server_->get("/api/v1/agents/" + agent_ + "/contacts?external_id=i9", key_)
                .json()["data"]
                .size(),
            0u);
  // An API update keeps where the contact first came from.
  EXPECT_EQ(post({{"external_id", "i1"}, {"name", "Uno"}}).json()["data"]["source"], "import");
}

TEST_F(DataContacts, IdentifiedVisitorHasSourceIdentity) {
  auto out = server_->admin({"contact", "identify", "--agent", agent_, "--json",
                             R"({"external_id":"visitor-1","name":"Vera"})"});
  EXPECT_EQ(out["result"], "created");
  auto c =
      server_->get("/api/v1/contacts/" + out["data"]["id"].get<std::string>(), key_).json()["data"];
  EXPECT_EQ(c["source"], "identity");
  EXPECT_EQ(c["externalId"], "visitor-1");
}

TEST_F(DataContacts, SearchByEmailOrExternalIdAndSince) {
  auto a = create({{"external_id", "s1"}, {"email", "s1@example.com"}});
  create({{"external_id", "s2"}, {"email", "s2@example.com"}});
  auto by_email =
      server_->get("/api/v1/agents/" + agent_ + "/contacts?email=S1%40Example.com", key_);
  ASSERT_EQ(by_email.status, 200);
  ASSERT_EQ(by_email.json()["data"].size(), 1u);
  EXPECT_EQ(by_email.json()["data"][0]["id"], a);
  EXPECT_EQ(by_email.json()["hasMore"], false);
  EXPECT_TRUE(by_email.json()["nextCursor"].is_null());
  auto by_ext =
      server_->get("/api/v1/agents/" + agent_ + "/contacts?external_id=s1", key_).json()["data"];
  ASSERT_EQ(by_ext.size(), 1u);
  EXPECT_EQ(by_ext[0]["id"], a);
  EXPECT_EQ(server_->get("/api/v1/agents/" + agent_ + "/contacts?external_id=nobody", key_)
                .json()["data"]
                .size(),
            0u);
  expect_error(server_->get("/api/v1/agents/" + agent_ + "/contacts?email=", key_), 400,
               "invalid_request", "'email'");

  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // distinct milliseconds for `since`
  auto changed = patch(a, {{"name", "changed"}}).json()["data"];
  auto since = changed["updatedAt"].get<std::string>();
  auto page =
      server_->get("/api/v1/agents/" + agent_ + "/contacts?since=" + since, key_).json()["data"];
  ASSERT_EQ(page.size(), 1u);
  EXPECT_EQ(page[0]["id"], a);
}

TEST_F(DataContacts, OtherAccountsContactsAreNotFound) {
  auto id = create({{"external_id", "mine"}});
  auto other_account = server_->create_account();
  auto other_key = server_->create_key(other_account);
  expect_error(server_->get("/api/v1/contacts/" + id, other_key), 404, "not_found");
  expect_error(server_->patch("/api/v1/contacts/" + id, other_key, R"({"name":"x"})"), 404,
               "not_found");
  expect_error(server_->del("/api/v1/contacts/" + id, other_key), 404, "not_found");
  expect_error(server_->get("/api/v1/agents/" + agent_ + "/contacts", other_key), 404, "not_found");
  expect_error(
      server_->post("/api/v1/agents/" + agent_ + "/contacts", other_key, R"({"external_id":"x"})"),
      404, "not_found");
  EXPECT_EQ(server_->get("/api/v1/contacts/" + id, key_).status, 200);
}

TEST_F(DataContacts, ScopesAreEnforced) {
  auto id = create({{"external_id", "scoped"}});
  auto reader = server_->create_key(account_, "leads:read");
  auto writer = server_->create_key(account_, "contacts:write");
  auto list = "/api/v1/agents/" + agent_ + "/contacts";
  EXPECT_EQ(server_->get(list, reader).status, 200);
  EXPECT_EQ(server_->get("/api/v1/contacts/" + id, reader).status, 200);
  expect_error(server_->post(list, reader, R"({"external_id":"r"})"), 403, "insufficient_scope",
               "contacts:write");
  expect_error(server_->patch("/api/v1/contacts/" + id, reader, R"({"name":"r"})"), 403,
               "insufficient_scope");
  expect_error(server_->del("/api/v1/contacts/" + id, reader), 403, "insufficient_scope");
  expect_error(server_->get(list, writer), 403, "insufficient_scope", "leads:read");
  expect_error(server_->get("/api/v1/contacts/" + id, writer), 403, "insufficient_scope");
  EXPECT_EQ(server_->post(list, writer, R"({"external_id":"w"})").status, 201);
  EXPECT_EQ(server_->patch("/api/v1/contacts/" + id, writer, R"({"name":"w"})").status, 200);
  EXPECT_EQ(server_->del("/api/v1/contacts/" + id, writer).status, 200);
}

}  // namespace
}  // namespace parley::e2e
