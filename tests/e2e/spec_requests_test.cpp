// Spec sections 4 and 7: request bodies on every endpoint that takes one. Non-object JSON, a
// missing or foreign content type, duplicate member names and bodies nested too deeply are 400
// invalid_request; a charset parameter on application/json is accepted; text limits count Unicode
// code points (limit accepted, limit + 1 refused naming the field).
#include "harness.h"

namespace parley::e2e {
namespace {

class SpecRequests : public ::testing::Test {
 protected:
  static Server* server_;

  // Each test has its own server, started from the suite's seed (made once for all of them).
  void SetUp() override {
    const Seed& seeded = account_seed("SpecRequests");
    server_ = new Server(unlimited(), {}, &seeded);
    account_ = seeded.values["account"];
    agent_ = seeded.values["agent"];
    key_ = seeded.values["key"];
    contact_ = server_->post("/api/v1/agents/" + agent_ + "/contacts", key_,
                             R"({"email":"first@example.com"})")
                   .json()["data"]["id"];
  }
  void TearDown() override {
    delete server_;
    server_ = nullptr;
  }
  // Every endpoint with a body, with a valid body for it.
  std::vector<std::pair<HttpRequest, std::string>> body_endpoints() const {
    return {
        {{"POST", "/api/v1/agents/" + agent_ + "/chat"}, R"({"message":"Hello"})"},
        {{"POST", "/api/v1/agents/" + agent_ + "/chat"}, R"({"message":"Hello","stream":true})"},
        {{"POST", "/api/v1/agents/" + agent_ + "/sources"}, R"({"type":"text","content":"x"})"},
        {{"POST", "/api/v1/agents/" + agent_ + "/contacts"}, R"({"email":"b@example.com"})"},
        {{"PATCH", "/api/v1/contacts/" + contact_}, R"({"name":"B"})"},
        {{"POST", "/api/v1/agents/" + agent_ + "/webhooks"},
         R"({"url":"https://93.184.216.34/h","events":["lead.created"]})"},
    };
  }
  HttpResponse send_raw(HttpRequest req, const std::string& body,
                        const std::string& content_type) const {
    req.body = body;
    req.json_body = false;
    req.headers = {bearer(key_)};
    // "Content-Type:" with no value makes libcurl send no Content-Type at all.
    req.headers.push_back("Content-Type:" + (content_type.empty() ? "" : " " + content_type));
    return server_->request(req);
  }
  static void expect_invalid(const HttpResponse& r, const std::string& what,
                             const std::string& named = "") {
    EXPECT_EQ(r.status, 400) << what << " -> " << r.body;
    EXPECT_EQ(r.error_code(), "invalid_request") << what;
    if (!named.empty())
      EXPECT_NE(r.error_message().find("'" + named + "'"), std::string::npos)
          << what << ": " << r.error_message();
  }

  std::string account_, agent_, key_, contact_;
};
Server* SpecRequests::server_ = nullptr;

TEST_F(SpecRequests, NonObjectBodiesAreInvalidOnEveryEndpoint) {
  for (const auto& [req, valid] : body_endpoints()) {
    for (std::string body : {"[]", "[1]", "\"text\"", "1", "null", "true", "", "{", "{\"a\":}"}) {
      std::string what = req.method + " " + req.path + " " + body;
      expect_invalid(send_raw(req, body, "application/json"), what);
    }
  }
}

TEST_F(SpecRequests, ContentTypeMustBeJsonAndMayCarryACharset) {
  for (const auto& [req, valid] : body_endpoints()) {
    std::string what = req.method + " " + req.path;
    expect_invalid(send_raw(req, valid, ""), what + " without content type");
    expect_invalid(send_raw(req, valid, "text/plain"), what + " text/plain");
    expect_invalid(send_raw(req, valid, "application/x-www-form-urlencoded"), what + " form");
    auto ok = send_raw(req, valid, "application/json; charset=utf-8");
    EXPECT_GE(ok.status, 200) << what << " -> " << ok.body;
    EXPECT_LT(ok.status, 300) << what << " -> " << ok.body;
  }
}

TEST_F(SpecRequests, DuplicateMemberNamesAreRefusedNamingTheMember) {
  auto r = server_->post("/api/v1/agents/" + agent_ + "/sources", key_,
                         R"({"type":"text","content":"a","type":"qa"})");
  expect_invalid(r, "duplicate type", "type");
  auto nested = server_->post("/api/v1/agents/" + agent_ + "/contacts", key_,
                              R"({"email":"d@example.com","attributes":{"plan":"a","plan":"b"}})");
  expect_invalid(nested, "duplicate attribute", "plan");
  EXPECT_EQ(server_->get("/api/v1/agents/" + agent_ + "/sources", key_).json()["data"].size(), 0u);
}

TEST_F(SpecRequests, DeeplyNestedBodyIsRefusedAndTheServerStaysUp) {
  for (size_t depth : {65u, 400'000u}) {
    std::string body = std::string(depth, '[') + std::string(depth, ']');
    expect_invalid(server_->post("/api/v1/agents/" + agent_ + "/sources", key_, body),
                   "depth " + std::to_string(depth));
  }
  std::string deep_attr = R"({"email":"e@example.com","attributes":{"a":)" +
                          std::string(100'000, '{') + std::string(100'000, '}') + "}}";
  expect_invalid(server_->post("/api/v1/agents/" + agent_ + "/contacts", key_, deep_attr),
                 "deep attribute");
  EXPECT_EQ(server_->get("/api/v1/agents/" + agent_, key_).status, 200);
  // Ordinary nesting within the limit is still read.
  auto ok = server_->post("/api/v1/agents/" + agent_ + "/sources", key_,
                          R"({"type":"text","content":"x","extra":[[[{"a":[1]}]]]})");
  EXPECT_EQ(ok.status, 201) << ok.body;
}

TEST_F(SpecRequests, SourceTitleAndQuestionLimitsCountCodePoints) {
  const std::string path = "/api/v1/agents/" + agent_ + "/sources";
  auto title_ok = server_->post(path, key_, Json{{"type", "text"}, {"title", emoji(200)}, {"content", "c"}}.dump());
  EXPECT_EQ(title_ok.status, 201) << title_ok.body;
  EXPECT_EQ(title_ok.json()["data"]["title"], emoji(200));
  expect_invalid(server_->post(path, key_, Json{{"type", "text"}, {"title", emoji(201)}, {"content", "c"}}.dump()),
                 "title 201", "title");
  auto q_ok = server_->post(path, key_, Json{{"type", "qa"}, {"question", emoji(200)}, {"answer", "a"}}.dump());
  EXPECT_EQ(q_ok.status, 201) << q_ok.body;
  EXPECT_EQ(q_ok.json()["data"]["question"], emoji(200));
  expect_invalid(server_->post(path, key_, Json{{"type", "qa"}, {"question", emoji(201)}, {"answer", "a"}}.dump()),
                 "question 201", "question");
}

TEST_F(SpecRequests, SourceFieldsOfTheWrongTypeOrNullAreNamed) {
  const std::string path = "/api/v1/agents/" + agent_ + "/sources";
  expect_invalid(server_->post(path, key_, R"({"type":null,"content":"x"})"), "type null", "type");
  expect_invalid(server_->post(path, key_, R"({"type":["text"],"content":"x"})"), "type array", "type");
  expect_invalid(server_->post(path, key_, R"({"type":"text","content":null})"), "content null", "content");
  expect_invalid(server_->post(path, key_, R"({"type":"text","content":7})"), "content number", "content");
  expect_invalid(server_->post(path, key_, R"({"type":"text","content":""})"), "content empty", "content");
  expect_invalid(server_->post(path, key_, R"({"type":"text","content":"x","title":false})"), "title bool", "title");
  expect_invalid(server_->post(path, key_, R"({"type":"qa","question":"q","answer":null})"), "answer null", "answer");
  expect_invalid(server_->post(path, key_, R"({"type":"qa","question":{},"answer":"a"})"), "question object", "question");
  expect_invalid(server_->post(path, key_, R"({"type":"website","url":"https://example.com"})"), "website", "type");
}

TEST_F(SpecRequests, ContactLimitsCountCodePoints) {
  const std::string path = "/api/v1/agents/" + agent_ + "/contacts";
  auto ext = server_->post(path, key_, Json{{"external_id", emoji(200)}}.dump());
  EXPECT_EQ(ext.status, 201) << ext.body;
  expect_invalid(server_->post(path, key_, Json{{"external_id", emoji(201)}}.dump()), "external_id 201", "external_id");
  auto name = server_->post(path, key_, Json{{"email", "n@example.com"}, {"name", emoji(100)}}.dump());
  EXPECT_EQ(name.status, 201) << name.body;
  expect_invalid(server_->post(path, key_, Json{{"email", "n@example.com"}, {"name", emoji(101)}}.dump()), "name 101", "name");
  auto value = server_->post(path, key_, Json{{"email", "v@example.com"}, {"attributes", {{"note", emoji(1000)}}}}.dump());
  EXPECT_EQ(value.status, 201) << value.body;
  expect_invalid(server_->post(path, key_, Json{{"email", "v@example.com"}, {"attributes", {{"note", emoji(1001)}}}}.dump()),
                 "attribute 1001", "attributes.note");
  std::string forty = "a" + std::string(39, 'b');
  auto attr = server_->post(path, key_, Json{{"email", "w@example.com"}, {"attributes", {{forty, 1}}}}.dump());
  EXPECT_EQ(attr.status, 201) << attr.body;
  expect_invalid(server_->post(path, key_, Json{{"email", "w@example.com"}, {"attributes", {{forty + "c", 1}}}}.dump()),
                 "attribute name 41", "attributes." + forty + "c");
}

TEST_F(SpecRequests, ContactFieldsOfTheWrongTypeAreNamed) {
  const std::string path = "/api/v1/agents/" + agent_ + "/contacts";
  expect_invalid(server_->post(path, key_, R"({"email":5})"), "email number", "email");
  expect_invalid(server_->post(path, key_, R"({"external_id":true})"), "external_id bool", "external_id");
  expect_invalid(server_->post(path, key_, R"({"email":"x@example.com","phone":1234567})"), "phone number", "phone");
  expect_invalid(server_->post(path, key_, R"({"email":"x@example.com","name":[]})"), "name array", "name");
  expect_invalid(server_->post(path, key_, R"({"email":"x@example.com","attributes":"a"})"), "attributes string", "attributes");
  expect_invalid(server_->post(path, key_, R"({"email":"x@example.com","attributes":{"a":[1]}})"), "attribute array", "attributes.a");
  expect_invalid(server_->post(path, key_, R"({"email":""})"), "email empty", "email");
  expect_invalid(server_->post(path, key_, R"({"external_id":null,"email":null})"), "both null", "external_id");
  expect_invalid(server_->patch("/api/v1/contacts/" + contact_, key_, R"({"email":"not-an-address"})"), "patch email", "email");
}

TEST_F(SpecRequests, WebhookFieldsOfTheWrongTypeOrNullAreNamed) {
  const std::string path = "/api/v1/agents/" + agent_ + "/webhooks";
  expect_invalid(server_->post(path, key_, R"({"url":null,"events":["lead.created"]})"), "url null", "url");
  expect_invalid(server_->post(path, key_, R"({"url":["https://93.184.216.34/h"],"events":["lead.created"]})"), "url array", "url");
  expect_invalid(server_->post(path, key_, R"({"url":"https://93.184.216.34/h","events":null})"), "events null", "events");
  expect_invalid(server_->post(path, key_, R"({"url":"https://93.184.216.34/h","events":[1]})"), "events number", "events");
  expect_invalid(server_->post(path, key_, R"({"url":"https://93.184.216.34/h","events":["lead.created"],"source":3})"), "source number", "source");
}

}  // namespace
}  // namespace parley::e2e
