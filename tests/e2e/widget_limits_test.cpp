// Limits of the widget's anonymous endpoints: requests and messages per client address (the
// peer's, or the trusted proxy header's last entry when configured), the agent's per-visitor
// allowance held to the address as well as the client-chosen visitorId, records per
// conversation, the size of a record's free-form JSON, formId against the agent's forms, and
// contact details per address and per agent.
#include "chat_support.h"

namespace parley::e2e {
namespace {

constexpr const char* kForms =
    R"({"forms": [{"id": "form_1", "name": "Quote", "fields": [{"id": "f1", "label": "Company"}]}]})";

HttpResponse message(const Server& s, const std::string& agent, const std::string& visitor,
                     const std::string& address = "") {
  std::vector<std::string> headers = {"Origin: https://shop.example.com"};
  if (!address.empty()) headers.push_back("X-Forwarded-For: 10.9.9.9, " + address);
  return s.request({"POST", "/widget/v1/agents/" + agent + "/messages",
                    Json{{"message", "Hello"}, {"visitorId", visitor}}.dump(), headers});
}

HttpResponse action(const Server& s, const std::string& conv, const std::string& what,
                    Json body, const std::string& address = "") {
  body["visitorId"] = "v-1";
  std::vector<std::string> headers = {"Origin: https://shop.example.com"};
  if (!address.empty()) headers.push_back("X-Forwarded-For: " + address);
  return s.request({"POST", "/widget/v1/conversations/" + conv + "/" + what, body.dump(), headers});
}

void expect_limited(const HttpResponse& r, const std::string& code, const std::string& part) {
  EXPECT_EQ(r.status, 429) << r.body;
  EXPECT_EQ(r.error_code(), code) << r.body;
  EXPECT_NE(r.error_message().find(part), std::string::npos) << r.body;
  ASSERT_TRUE(r.has_header("retry-after")) << r.body;
  EXPECT_GE(std::stoll(r.header("retry-after")), 1);
  // The page can read the refusal: CORS headers as on any answer to an allowed origin.
  EXPECT_EQ(r.header("access-control-allow-origin"), "https://shop.example.com");
}

TEST(WidgetLimits, FormsAreCheckedAgainstTheAgentsFormsCappedInSizeAndPerConversation) {
  Server s(unlimited(), {"--widget-records-per-conversation-per-hour", "3",
                         "--widget-record-max-bytes", "1000"});
  auto c = chat_setup(s, kForms);
  std::string conv = message(s, c.agent, "v-1").json()["conversationId"];
  Json fields = {{{"id", "f1"}, {"value", "Acme"}}};

  auto unknown = action(s, conv, "form", {{"formId", "form_9"}, {"fields", fields}});
  EXPECT_EQ(unknown.status, 400) << unknown.body;
  EXPECT_EQ(unknown.error_code(), "invalid_request");
  EXPECT_EQ(unknown.error_message(), "'formId' must name one of the agent's forms; 'form_9' is not one.");
  auto contact_form = action(s, conv, "contact", {{"email", "a@example.com"}, {"formId", "nope"}});
  EXPECT_EQ(contact_form.status, 400) << contact_form.body;
  EXPECT_NE(contact_form.error_message().find("'formId'"), std::string::npos);

  auto big = action(s, conv, "form",
                    {{"formId", "form_1"}, {"fields", {{{"id", "f1"}, {"value", std::string(2000, 'x')}}}}});
  EXPECT_EQ(big.status, 400) << big.body;
  EXPECT_EQ(big.error_code(), "invalid_request");
  EXPECT_EQ(big.error_message(), "'fields' must be at most 1000 bytes of JSON.");
  auto big_custom = action(s, conv, "contact",
                           {{"email", "a@example.com"},
                            {"customFields", {{{"id", "c"}, {"value", std::string(2000, 'x')}}}}});
  EXPECT_EQ(big_custom.status, 400) << big_custom.body;
  EXPECT_EQ(big_custom.error_message(), "'customFields' must be at most 1000 bytes of JSON.");

  for (int i = 0; i < 3; ++i) {
    auto ok = action(s, conv, "form", {{"formId", "form_1"}, {"fields", fields}});
    EXPECT_EQ(ok.status, 201) << ok.body;
  }
  auto over = action(s, conv, "form", {{"formId", "form_1"}, {"fields", fields}});
  expect_limited(over, "rate_limited",
                 "This conversation already has 3 forms, bookings, return requests or contact "
                 "details this hour.");
  auto booking = action(s, conv, "booking", {{"startAt", "2026-12-01T10:00:00.000Z"}});
  expect_limited(booking, "rate_limited", "already has 3");
  auto ret = action(s, conv, "return", {{"orderId", "1001"}});
  expect_limited(ret, "rate_limited", "already has 3");
  // Another conversation has its own allowance.
  std::string other = message(s, c.agent, "v-1").json()["conversationId"];
  EXPECT_EQ(action(s, other, "form", {{"formId", "form_1"}, {"fields", fields}}).status, 201);
  auto events = s.get("/api/v1/agents/" + c.agent + "/events/form.submitted?limit=100", c.key);
  EXPECT_EQ(events.json()["data"].size(), 4u) << events.body;
}

TEST(WidgetLimits, ContactDetailsAreLimitedPerAddressAndPerAgent) {
  Server s(unlimited(), {"--client-address-header", "X-Forwarded-For",
                         "--widget-contacts-per-hour-per-address", "3",
                         "--widget-contacts-per-hour-per-agent", "5",
                         "--widget-records-per-conversation-per-hour", "100"});
  auto c = chat_setup(s);
  std::string conv = message(s, c.agent, "v-1", "203.0.113.1").json()["conversationId"];
  auto give = [&](int i, const std::string& address) {
    return action(s, conv, "contact", {{"email", "person" + std::to_string(i) + "@example.com"}},
                  address);
  };
  for (int i = 0; i < 3; ++i) EXPECT_EQ(give(i, "203.0.113.1").status, 201);
  expect_limited(give(3, "203.0.113.1"), "rate_limited",
                 "This address gave contact details more than 3 times this hour.");
  for (int i = 4; i < 6; ++i) EXPECT_EQ(give(i, "203.0.113.2").status, 201);
  expect_limited(give(6, "203.0.113.3"), "rate_limited",
                 "The agent received contact details from visitors more than 5 times this hour.");
  auto contacts = s.get("/api/v1/agents/" + c.agent + "/contacts?limit=100", c.key);
  EXPECT_EQ(contacts.json()["data"].size(), 5u) << contacts.body;
  // The limits are the server's, per agent: another agent's visitors are not held by this one's.
  auto other = chat_setup(s);
  std::string other_conv = message(s, other.agent, "v-1", "203.0.113.9").json()["conversationId"];
  EXPECT_EQ(action(s, other_conv, "contact", {{"email", "x@example.com"}}, "203.0.113.9").status, 201);
}

TEST(WidgetLimits, TheVisitorAllowanceHoldsTheAddressAsWellAsTheVisitorId) {
  Server s(unlimited(), {"--client-address-header", "X-Forwarded-For",
                         "--widget-visitors-per-address", "2"});
  auto c = chat_setup(s, R"({"messagesPerVisitor": 2})");
  // Five made-up visitor ids from one address: the address may send 2 x 2 messages.
  for (int i = 0; i < 4; ++i) EXPECT_EQ(message(s, c.agent, "v-" + std::to_string(i), "198.51.100.7").status, 200);
  auto r = message(s, c.agent, "v-4", "198.51.100.7");
  expect_limited(r, "visitor_message_limit_reached",
                 "Visitors at this address have sent the 4 messages the agent allows one address "
                 "today (2 per visitor, 2 visitors per address).");
  // Only the proxy's entry counts: a client-written first entry does not make a new address.
  auto spoofed = s.request({"POST", "/widget/v1/agents/" + c.agent + "/messages",
                            Json{{"message", "Hi"}, {"visitorId", "v-5"}}.dump(),
                            {"Origin: https://shop.example.com", "X-Forwarded-For: 1.2.3.4, 198.51.100.7"}});
  EXPECT_EQ(spoofed.status, 429);
  EXPECT_EQ(spoofed.error_code(), "visitor_message_limit_reached");
  EXPECT_EQ(message(s, c.agent, "v-6", "198.51.100.8").status, 200);
  // The visitorId is still held alone too.
  EXPECT_EQ(message(s, c.agent, "v-6", "198.51.100.9").status, 200);
  auto same_visitor = message(s, c.agent, "v-6", "198.51.100.10");
  EXPECT_EQ(same_visitor.status, 429);
  EXPECT_EQ(same_visitor.error_code(), "visitor_message_limit_reached");
}

TEST(WidgetLimits, MessagesAndRequestsPerAddressAreRateLimitedOnEveryEndpoint) {
  // Per-minute windows are aligned to the minute: the burst starts at the beginning of one.
  TestClock clock;
  std::vector<std::string> args = {"--widget-messages-per-minute-per-address", "3",
                                   "--widget-requests-per-minute-per-address", "6"};
  for (const auto& a : clock.args()) args.push_back(a);
  Server s(unlimited(), args);
  auto c = chat_setup(s);
  clock.advance_to_next_minute();
  std::string conv;
  for (int i = 0; i < 3; ++i) {
    auto r = message(s, c.agent, "v-1");
    ASSERT_EQ(r.status, 200) << r.body;
    conv = r.json()["conversationId"];
  }
  // Without a configured header the forwarded address is the client's say and is ignored.
  auto r = message(s, c.agent, "v-2", "192.0.2.44");
  expect_limited(r, "rate_limited", "This address sent more than 3 widget messages this minute.");
  // Four requests so far this minute (the refused one counts); two more of any kind, then none.
  auto transcript = s.request({"GET", "/widget/v1/conversations/" + conv + "?visitorId=v-1", "",
                               {"Origin: https://shop.example.com"}});
  EXPECT_EQ(transcript.status, 200) << transcript.body;
  EXPECT_EQ(action(s, conv, "csat", {{"score", 5}}).status, 200);
  expect_limited(action(s, conv, "csat", {{"score", 4}}), "rate_limited",
                 "This address made more than 6 widget requests this minute.");
  auto preflight = s.request({"OPTIONS", "/widget/v1/agents/" + c.agent + "/messages", "",
                              {"Origin: https://shop.example.com", "Access-Control-Request-Method: POST"}});
  EXPECT_EQ(preflight.status, 429);
  EXPECT_EQ(preflight.error_code(), "rate_limited");
  auto get = s.request({"GET", "/widget/v1/conversations/" + conv + "?visitorId=v-1", "",
                        {"Origin: https://shop.example.com"}});
  expect_limited(get, "rate_limited", "more than 6 widget requests");
  // The API is not the widget's business.
  EXPECT_EQ(chat(s, c, {{"message", "hi"}}).status, 200);
}

// One IPv6 /64 is 2^64 addresses: each once had the whole allowance.
TEST(WidgetLimits, AnIpv6NetworkIsOneAddress) {
  TestClock clock;
  std::vector<std::string> args = {"--client-address-header", "X-Forwarded-For",
                                   "--widget-messages-per-minute-per-address", "3"};
  for (const auto& a : clock.args()) args.push_back(a);
  Server s(unlimited(), args);
  auto c = chat_setup(s);
  clock.advance_to_next_minute();
  for (int i = 0; i < 3; ++i) {
    auto r = message(s, c.agent, "v-" + std::to_string(i), "2001:db8:7:8::" + std::to_string(i + 1));
    ASSERT_EQ(r.status, 200) << r.body;
  }
  expect_limited(message(s, c.agent, "v-9", "2001:db8:7:8:ffff:eeee:dddd:cccc"), "rate_limited",
                 "This address sent more than 3 widget messages this minute.");
  // The next /64 is another client.
  EXPECT_EQ(message(s, c.agent, "v-10", "2001:db8:7:9::1").status, 200);
}

}  // namespace
}  // namespace parley::e2e
