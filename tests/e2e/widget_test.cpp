// The widget channel (/widget/v1): a visitor's conversation stored with channel `widget`, page and
// country and listed by the public API; allowed domains (Origin, CORS only for allowed origins),
// blocked countries, messages per visitor and private agents each refusing with their own code;
// the visitor's form, booking, return request, contact details and CSAT.
#include "chat_support.h"
#include "harness.h"

namespace parley::e2e {
namespace {

const char* kCountryHeader = "X-Visitor-Country";

class WidgetApi : public ::testing::Test {
 protected:
  static Env env() {
    Env env = unlimited();
    env["PARLEY_COUNTRY_HEADER"] = kCountryHeader;
    // The suite's requests all come from loopback; widget_limits_test.cpp tests the limits.
    env["PARLEY_WIDGET_REQUESTS_PER_MINUTE_PER_ADDRESS"] = "1000000";
    env["PARLEY_WIDGET_MESSAGES_PER_MINUTE_PER_ADDRESS"] = "1000000";
    return env;
  }
  // Each test has its own server, started by its first line, start(), from a seed of the
  // account, agent (with `settings`) and key it begins with (made once per suite and settings).
  ChatSetup start(const std::string& settings = "") {
    const Seed& seeded = chat_seed("WidgetApi", settings);
    server_ = new Server(env(), {}, &seeded);
    return chat_setup_of(seeded);
  }
  void TearDown() override {
    delete server_;
    server_ = nullptr;
  }
  static const Server& s() { return *server_; }

  HttpResponse message(const std::string& agent, const Json& body,
                       std::vector<std::string> headers = {"Origin: https://shop.example.com"}) {
    return s().request({"POST", "/widget/v1/agents/" + agent + "/messages", body.dump(), headers});
  }
  HttpResponse action(const std::string& conv, const std::string& what, const Json& body,
                      std::vector<std::string> headers = {"Origin: https://shop.example.com"}) {
    return s().request({"POST", "/widget/v1/conversations/" + conv + "/" + what, body.dump(), headers});
  }
  static Server* server_;
};
Server* WidgetApi::server_ = nullptr;

TEST_F(WidgetApi, ConversationIsListedByThePublicApiWithChannelCountryAndPage) {
  auto c = start();
  auto r = message(c.agent, {{"message", "Hello there"}, {"visitorId", "v-1"}, {"page", "https://shop.example.com/pricing"}},
                   {"Origin: https://shop.example.com", std::string(kCountryHeader) + ": de"});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.header("access-control-allow-origin"), "https://shop.example.com");
  EXPECT_EQ(r.header("vary"), "Origin");
  auto reply = r.json();
  EXPECT_EQ(reply["reply"], kDefaultFallback);
  EXPECT_TRUE(reply["liveChat"].is_null());
  std::string conv = reply["conversationId"];

  auto list = s().get("/api/v1/agents/" + c.agent + "/conversations", c.key);
  ASSERT_EQ(list.status, 200) << list.body;
  ASSERT_EQ(list.json()["data"].size(), 1u);
  auto item = list.json()["data"][0];
  EXPECT_EQ(item["id"], conv);
  EXPECT_EQ(item["channel"], "widget");
  EXPECT_EQ(item["country"], "DE");
  EXPECT_EQ(item["page"], "https://shop.example.com/pricing");
  EXPECT_EQ(item["messageCount"], 2);

  auto one = s().get("/api/v1/conversations/" + conv, c.key);
  ASSERT_EQ(one.status, 200) << one.body;
  EXPECT_EQ(one.json()["data"]["channel"], "widget");
  EXPECT_EQ(one.json()["data"]["messages"][0]["content"], "Hello there");
  // The public API never sends CORS headers, even for an Origin the widget allows.
  auto api = s().request({"GET", "/api/v1/conversations/" + conv, "", {bearer(c.key), "Origin: https://shop.example.com"}});
  EXPECT_FALSE(api.has_header("access-control-allow-origin"));
}

TEST_F(WidgetApi, CountryIsNullWithoutTheTrustedHeaderAndAVisitorContinuesOnlyItsOwnConversation) {
  auto c = start();
  auto first = message(c.agent, {{"message", "Hi"}, {"visitorId", "v-1"}});
  ASSERT_EQ(first.status, 200) << first.body;
  std::string conv = first.json()["conversationId"];
  auto again = message(c.agent, {{"message", "Again"}, {"visitorId", "v-1"}, {"conversationId", conv}});
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(again.json()["conversationId"], conv);
  auto other = message(c.agent, {{"message", "Mine?"}, {"visitorId", "v-2"}, {"conversationId", conv}});
  EXPECT_EQ(other.status, 404);
  EXPECT_EQ(other.error_code(), "not_found");
  auto api_conv = chat(s(), c, {{"message", "From the API"}}).json()["conversationId"].get<std::string>();
  auto cross = message(c.agent, {{"message", "Hi"}, {"visitorId", "v-1"}, {"conversationId", api_conv}});
  EXPECT_EQ(cross.status, 404);
  // The API cannot continue the widget's conversation either.
  auto api = chat(s(), c, {{"message", "Hi"}, {"conversationId", conv}});
  EXPECT_EQ(api.status, 400);

  auto got = s().get("/api/v1/conversations/" + conv, c.key).json()["data"];
  EXPECT_TRUE(got["country"].is_null());
  EXPECT_TRUE(got["page"].is_null());
  EXPECT_EQ(got["messages"].size(), 4u);
}

TEST_F(WidgetApi, RequestsAreValidated) {
  auto c = start();
  auto no_visitor = message(c.agent, {{"message", "Hi"}});
  EXPECT_EQ(no_visitor.status, 400);
  EXPECT_EQ(no_visitor.error_code(), "invalid_request");
  EXPECT_NE(no_visitor.error_message().find("visitorId"), std::string::npos);
  auto no_message = message(c.agent, {{"visitorId", "v"}});
  EXPECT_EQ(no_message.status, 400);
  EXPECT_NE(no_message.error_message().find("message"), std::string::npos);
  auto long_visitor = message(c.agent, {{"message", "Hi"}, {"visitorId", std::string(101, 'v')}});
  EXPECT_EQ(long_visitor.status, 400);
  auto missing = message("agt_missing", {{"message", "Hi"}, {"visitorId", "v"}});
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.error_code(), "not_found");
}

TEST_F(WidgetApi, AllowedDomainsCheckTheOriginAndCorsAnswersOnlyAllowedOrigins) {
  auto c = start(R"({"allowedDomains": ["example.com"]})");
  Json body = {{"message", "Hi"}, {"visitorId", "v"}};
  auto sub = message(c.agent, body, {"Origin: https://shop.example.com"});
  EXPECT_EQ(sub.status, 200) << sub.body;
  EXPECT_EQ(sub.header("access-control-allow-origin"), "https://shop.example.com");
  auto exact = message(c.agent, body, {"Origin: https://example.com:8443"});
  EXPECT_EQ(exact.status, 200) << exact.body;
  // The refused page may read its refusal (to say so); an opaque origin is never echoed.
  for (std::string origin : {"https://example.com.evil.net", "https://notexample.com"}) {
    auto r = message(c.agent, body, {"Origin: " + origin});
    EXPECT_EQ(r.status, 403) << origin;
    EXPECT_EQ(r.error_code(), "origin_not_allowed") << origin;
    EXPECT_EQ(r.header("access-control-allow-origin"), origin);
    EXPECT_EQ(r.header("vary"), "Origin");
  }
  auto opaque = message(c.agent, body, {"Origin: null"});
  EXPECT_EQ(opaque.status, 403);
  EXPECT_EQ(opaque.error_code(), "origin_not_allowed");
  EXPECT_FALSE(opaque.has_header("access-control-allow-origin"));
  auto none = message(c.agent, body, {});
  EXPECT_EQ(none.status, 403);
  EXPECT_EQ(none.error_code(), "origin_not_allowed");

  std::string path = "/widget/v1/agents/" + c.agent + "/messages";
  auto pre = s().request({"OPTIONS", path, "", {"Origin: https://www.example.com", "Access-Control-Request-Method: POST"}});
  EXPECT_EQ(pre.status, 204);
  EXPECT_EQ(pre.header("access-control-allow-origin"), "https://www.example.com");
  EXPECT_NE(pre.header("access-control-allow-methods").find("POST"), std::string::npos);
  EXPECT_NE(pre.header("access-control-allow-headers").find("Content-Type"), std::string::npos);
  auto bad = s().request({"OPTIONS", path, "", {"Origin: https://evil.example", "Access-Control-Request-Method: POST"}});
  EXPECT_EQ(bad.status, 403);
  EXPECT_EQ(bad.error_code(), "origin_not_allowed");
  EXPECT_FALSE(bad.has_header("access-control-allow-origin"));

  // Without allowed domains every site may embed the widget.
  auto open = chat_setup(s());
  auto any = message(open.agent, body, {"Origin: https://anything.test"});
  EXPECT_EQ(any.status, 200);
  EXPECT_EQ(any.header("access-control-allow-origin"), "https://anything.test");
}

TEST_F(WidgetApi, ConsoleAndApiSendNoCorsHeaders) {
  auto c = start();
  auto owner = create_member(s(), c.account, "owner")["token"].get<std::string>();
  auto console = s().request({"GET", "/console/v1/me", "", {bearer(owner), "Origin: https://shop.example.com"}});
  EXPECT_EQ(console.status, 200);
  EXPECT_FALSE(console.has_header("access-control-allow-origin"));
  auto pre = s().request({"OPTIONS", "/console/v1/me", "", {"Origin: https://shop.example.com", "Access-Control-Request-Method: GET"}});
  EXPECT_FALSE(pre.has_header("access-control-allow-origin"));
  auto api = s().request({"OPTIONS", "/api/v1/agents/" + c.agent + "/chat", "", {"Origin: https://shop.example.com", "Access-Control-Request-Method: POST"}});
  EXPECT_FALSE(api.has_header("access-control-allow-origin"));
}

TEST_F(WidgetApi, BlockedCountriesAreRefused) {
  auto c = start(R"({"blockedCountries": ["FR", "it"]})");
  Json body = {{"message", "Bonjour"}, {"visitorId", "v"}};
  for (std::string country : {"fr", "IT"}) {
    auto r = message(c.agent, body, {"Origin: https://shop.example.com", std::string(kCountryHeader) + ": " + country});
    EXPECT_EQ(r.status, 403) << country;
    EXPECT_EQ(r.error_code(), "country_blocked") << country;
    // The widget may read its error: the origin is allowed.
    EXPECT_EQ(r.header("access-control-allow-origin"), "https://shop.example.com");
  }
  auto de = message(c.agent, body, {"Origin: https://shop.example.com", std::string(kCountryHeader) + ": DE"});
  EXPECT_EQ(de.status, 200) << de.body;
  auto unknown = message(c.agent, body, {"Origin: https://shop.example.com"});
  EXPECT_EQ(unknown.status, 200) << unknown.body;
  // The API ignores blocked countries.
  auto api = s().request({"POST", "/api/v1/agents/" + c.agent + "/chat", Json{{"message", "Hi"}}.dump(),
                          {bearer(c.key), std::string(kCountryHeader) + ": FR"}});
  EXPECT_EQ(api.status, 200) << api.body;
}

TEST_F(WidgetApi, MessagesPerVisitorAreLimited) {
  auto c = start(R"({"messagesPerVisitor": 2})");
  auto first = message(c.agent, {{"message", "One"}, {"visitorId", "v-1"}});
  ASSERT_EQ(first.status, 200) << first.body;
  std::string conv = first.json()["conversationId"];
  EXPECT_EQ(message(c.agent, {{"message", "Two"}, {"visitorId", "v-1"}}).status, 200);
  auto third = message(c.agent, {{"message", "Three"}, {"visitorId", "v-1"}, {"conversationId", conv}});
  EXPECT_EQ(third.status, 429);
  EXPECT_EQ(third.error_code(), "visitor_message_limit_reached");
  EXPECT_EQ(third.header("access-control-allow-origin"), "https://shop.example.com");
  EXPECT_EQ(s().get("/api/v1/conversations/" + conv, c.key).json()["data"]["messages"].size(), 2u);
  EXPECT_EQ(message(c.agent, {{"message", "One"}, {"visitorId", "v-2"}}).status, 200);
  // The API's messages are not a visitor's.
  for (int i = 0; i < 3; ++i) EXPECT_EQ(chat(s(), c, {{"message", "Hi"}, {"sessionId", "s"}}).status, 200);
}

TEST_F(WidgetApi, PrivateAgentsAreRefused) {
  auto c = start();
  std::string inner = s().admin({"agent", "create", "--account", c.account, "--name", "Inner", "--private"})["id"];
  auto r = message(inner, {{"message", "Hi"}, {"visitorId", "v"}});
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.error_code(), "agent_private");
}

TEST_F(WidgetApi, PlanMessagesAreCountedAsForTheApi) {
  auto c = start();
  s().admin({"account", "set-limits", c.account, R"({"messagesPerMonth": 1})"});
  EXPECT_EQ(message(c.agent, {{"message", "Hi"}, {"visitorId", "v"}}).status, 200);
  auto r = message(c.agent, {{"message", "Hi"}, {"visitorId", "v"}});
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.error_code(), "message_limit_reached");
  EXPECT_EQ(chat(s(), c, {{"message", "Hi"}}).error_code(), "message_limit_reached");
}

TEST_F(WidgetApi, VisitorRecordsFormBookingReturnContactAndCsat) {
  auto c = start(R"({"forms": [{"id": "form_1", "name": "Quote", "fields": [{"id": "f1", "label": "Company"}]}],
                 "booking": {"provider": "calendly", "eventTitle": "Demo", "eventLength": 45}})");
  auto first = message(c.agent, {{"message", "Hi"}, {"visitorId", "v-1"}});
  ASSERT_EQ(first.status, 200) << first.body;
  std::string conv = first.json()["conversationId"];

  auto form = action(conv, "form", {{"visitorId", "v-1"}, {"formId", "form_1"}, {"fields", {{{"id", "f1"}, {"value", "Acme"}}}}});
  ASSERT_EQ(form.status, 201) << form.body;
  EXPECT_EQ(form.header("access-control-allow-origin"), "https://shop.example.com");
  auto booking = action(conv, "booking", {{"visitorId", "v-1"}, {"startAt", "2026-12-01T10:00:00.000Z"}, {"email", "a@b.co"}});
  ASSERT_EQ(booking.status, 201) << booking.body;
  auto ret = action(conv, "return", {{"visitorId", "v-1"}, {"orderId", "1001"}, {"reason", "Too small"}});
  ASSERT_EQ(ret.status, 201) << ret.body;
  auto contact = action(conv, "contact", {{"visitorId", "v-1"}, {"email", "Pat@Example.com"}, {"name", "Pat"}});
  ASSERT_EQ(contact.status, 201) << contact.body;
  EXPECT_EQ(contact.json()["data"]["source"], "form");
  EXPECT_EQ(contact.json()["data"]["conversationId"], conv);
  auto csat = action(conv, "csat", {{"visitorId", "v-1"}, {"score", 4}, {"comment", "Helpful"}});
  ASSERT_EQ(csat.status, 200) << csat.body;

  auto leads = s().get("/api/v1/agents/" + c.agent + "/leads", c.key).json()["data"];
  ASSERT_EQ(leads.size(), 1u);
  EXPECT_EQ(leads[0]["email"], "pat@example.com");
  EXPECT_EQ(leads[0]["source"], "form");
  auto contacts = s().get("/api/v1/agents/" + c.agent + "/contacts", c.key).json()["data"];
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_EQ(contacts[0]["source"], "lead");
  for (std::string event : {"form.submitted", "booking.created", "return.requested", "lead.created"}) {
    auto ev = s().get("/api/v1/agents/" + c.agent + "/events/" + event, c.key);
    ASSERT_EQ(ev.status, 200) << ev.body;
    ASSERT_EQ(ev.json()["data"].size(), 1u) << event;
  }
  auto got = s().get("/api/v1/conversations/" + conv, c.key).json()["data"];
  EXPECT_EQ(got["csat"]["score"], 4);
  EXPECT_EQ(got["csat"]["comment"], "Helpful");
  EXPECT_TRUE(got["csat"]["ratedAt"].is_string());
  auto item = s().get("/api/v1/agents/" + c.agent + "/conversations", c.key).json()["data"][0];
  EXPECT_EQ(item["csatScore"], 4);
}

TEST_F(WidgetApi, VisitorActionsAreValidatedAndKeptToTheVisitor) {
  auto c = start();
  std::string conv = message(c.agent, {{"message", "Hi"}, {"visitorId", "v-1"}}).json()["conversationId"];
  auto other = action(conv, "csat", {{"visitorId", "v-2"}, {"score", 5}});
  EXPECT_EQ(other.status, 404);
  EXPECT_EQ(other.error_code(), "not_found");
  auto no_visitor = action(conv, "csat", {{"score", 5}});
  EXPECT_EQ(no_visitor.status, 400);
  for (Json score : {Json(0), Json(6), Json("5"), Json(nullptr)}) {
    auto r = action(conv, "csat", {{"visitorId", "v-1"}, {"score", score}});
    EXPECT_EQ(r.status, 400) << score;
    EXPECT_NE(r.error_message().find("score"), std::string::npos);
  }
  auto no_details = action(conv, "contact", {{"visitorId", "v-1"}, {"name", "Pat"}});
  EXPECT_EQ(no_details.status, 400);
  auto bad_email = action(conv, "contact", {{"visitorId", "v-1"}, {"email", "not-an-email"}});
  EXPECT_EQ(bad_email.status, 400);
  EXPECT_NE(bad_email.error_message().find("email"), std::string::npos);
  for (const char* kind : {"booking", "return"}) {
    auto bad = action(conv, kind,
                      {{"visitorId", "v-1"},
                       {"startAt", "2026-12-01T10:00:00.000Z"},
                       {"orderId", "1001"},
                       {"email", "bad"}});
    EXPECT_EQ(bad.status, 400) << kind;
    EXPECT_EQ(bad.error_code(), "invalid_request") << kind;
    EXPECT_EQ(bad.error_message(), "'email' must be a valid email address.") << kind;
  }
  auto bad_time = action(conv, "booking", {{"visitorId", "v-1"}, {"startAt", "tomorrow"}});
  EXPECT_EQ(bad_time.status, 400);
  auto no_form = action(conv, "form", {{"visitorId", "v-1"}});
  EXPECT_EQ(no_form.status, 400);
  auto no_order = action(conv, "return", {{"visitorId", "v-1"}});
  EXPECT_EQ(no_order.status, 400);
  std::string api_conv = chat(s(), c, {{"message", "Hi"}}).json()["conversationId"];
  EXPECT_EQ(action(api_conv, "csat", {{"visitorId", "v-1"}, {"score", 5}}).status, 404);
  EXPECT_EQ(action("cnv_missing", "csat", {{"visitorId", "v-1"}, {"score", 5}}).status, 404);
}

}  // namespace
}  // namespace parley::e2e
