// GET /api/v1/agents/{agentId}/events/{event} and .../samples: every event's shape rebuilt from
// stored records, ids and times, the data scopes, limits, and samples with nothing stored.
#include "harness.h"

namespace parley::e2e {
namespace {

const std::vector<std::string> kLeadEvents = {"lead.created", "form.submitted", "booking.created",
                                              "return.requested"};
const std::vector<std::string> kConversationEvents = {"handoff.requested", "live_chat.requested",
                                                      "conversation.created"};

std::vector<std::string> keys_of(const Json& j) {
  std::vector<std::string> out;
  for (auto& [k, v] : j.items()) out.push_back(k);
  std::sort(out.begin(), out.end());
  return out;
}

int64_t ms_of(const std::string& iso) {
  std::tm tm{};
  strptime(iso.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  return static_cast<int64_t>(timegm(&tm)) * 1000 + std::stoi(iso.substr(20, 3));
}

class EventsApi : public SeededServerTest {
 protected:
  // Each test has its own server, started from the suite's seed (made once for all of them).
  const Seed& suite_seed() override {
    return seed("EventsApi", [](const Admin& a) {
      std::string account = a.create_account();
      std::string agent =
          a.admin({"agent", "create", "--account", account, "--name", "Helper", "--settings",
                   R"({"leadForm":{"fields":[{"id":"company","label":"Company"}]}})"})["id"];
      return Json{{"account", account}, {"agent", agent}, {"key", a.create_key(account)}};
    });
  }
  HttpResponse events(const std::string& event, const std::string& query = "",
                      const std::string& key = "") const {
    return server_->get("/api/v1/agents/" + agent_ + "/events/" + event + query,
                        key.empty() ? key_ : key);
  }
  Json list(const std::string& event, const std::string& query = "") const {
    auto r = events(event, query);
    EXPECT_EQ(r.status, 200) << event << ": " << r.body;
    return r.json()["data"];
  }
  std::string record(const std::vector<std::string>& args) const {
    std::vector<std::string> full = {"record"};
    full.insert(full.end(), args.begin(), args.end());
    return server_->admin(full)["id"];
  }
  void expect_event_shape(const Json& e, const std::string& event) const {
    EXPECT_EQ(keys_of(e), (std::vector<std::string>{"agent", "created_at", "data", "event", "id"}))
        << e.dump();
    EXPECT_EQ(e["event"], event);
    EXPECT_EQ(e["agent"], (Json{{"id", agent_}, {"name", "Helper"}}));
    EXPECT_TRUE(std::regex_match(e["created_at"].get<std::string>(),
                                 std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)")));
  }
};

TEST_F(EventsApi, LeadCreatedHasExactlyTheSpecFields) {
  auto conv = record({"conversation", "--agent", agent_});
  auto lead = record({"lead", "--agent", agent_, "--email", "ann@example.com", "--name", "Ann",
                      "--phone", "+15555550100", "--source", "chat", "--conversation", conv,
                      "--custom-fields", R"([{"id":"company","value":"Acme"}])"});
  auto data = list("lead.created");
  ASSERT_EQ(data.size(), 1u);
  expect_event_shape(data[0], "lead.created");
  EXPECT_EQ(data[0]["id"], lead);
  auto d = data[0]["data"];
  EXPECT_EQ(keys_of(d), (std::vector<std::string>{"agentId", "agentName", "collectedAt",
                                                  "conversationId", "customFields", "email",
                                                  "leadId", "name", "phone", "source"}));
  EXPECT_EQ(d["leadId"], lead);
  EXPECT_EQ(d["agentId"], agent_);
  EXPECT_EQ(d["agentName"], "Helper");
  EXPECT_EQ(d["email"], "ann@example.com");
  EXPECT_EQ(d["phone"], "+15555550100");
  EXPECT_EQ(d["name"], "Ann");
  EXPECT_EQ(d["customFields"],
            Json::parse(R"([{"id":"company","label":"Company","value":"Acme"}])"));
  EXPECT_EQ(d["source"], "chat");
  EXPECT_EQ(d["conversationId"], conv);
  EXPECT_EQ(d["collectedAt"], data[0]["created_at"]);
}

TEST_F(EventsApi, ConversationCreatedHasExactlyTheSpecFields) {
  auto conv = record({"conversation", "--agent", agent_, "--page", "https://shop.example.com/p",
                      "--country", "DE"});
  auto api_conv = record({"conversation", "--agent", agent_, "--channel", "api"});
  auto data = list("conversation.created");
  ASSERT_EQ(data.size(), 2u);
  EXPECT_EQ(data[0]["id"], api_conv);  // newest first
  EXPECT_EQ(data[1]["id"], conv);
  expect_event_shape(data[1], "conversation.created");
  EXPECT_EQ(data[1]["data"], (Json{{"conversationId", conv},
                                   {"channel", "widget"},
                                   {"page", "https://shop.example.com/p"},
                                   {"country", "DE"},
                                   {"createdAt", data[1]["created_at"]}}));
  EXPECT_EQ(data[0]["data"]["channel"], "api");
  EXPECT_TRUE(data[0]["data"]["page"].is_null());
  EXPECT_TRUE(data[0]["data"]["country"].is_null());
}

TEST_F(EventsApi, HandoffIdIsConversationColonMillisecondsWithTicket) {
  auto conv = record({"conversation", "--agent", agent_});
  auto plain =
      server_->admin({"record", "handoff", "--conversation", conv})["eventId"].get<std::string>();
  auto conv2 = record({"conversation", "--agent", agent_});
  auto ticketed =
      server_->admin({"record", "handoff", "--conversation", conv2, "--ticket", "HD-42"})["eventId"]
          .get<std::string>();
  auto data = list("handoff.requested");
  ASSERT_EQ(data.size(), 2u);
  EXPECT_EQ(data[0]["id"], ticketed);
  EXPECT_EQ(data[1]["id"], plain);
  for (auto& e : data) {
    expect_event_shape(e, "handoff.requested");
    std::string id = e["id"];
    auto colon = id.rfind(':');
    EXPECT_EQ(std::stoll(id.substr(colon + 1)), ms_of(e["created_at"]));
    EXPECT_EQ(e["data"]["conversationId"], id.substr(0, colon));
    EXPECT_TRUE(e["data"]["summary"].is_null());
    EXPECT_EQ(e["data"]["test"], false);
  }
  EXPECT_EQ(data[0]["data"]["ticket"], "HD-42");
  EXPECT_FALSE(data[1]["data"].contains("ticket"));
}

TEST_F(EventsApi, LiveChatRequestIdIsConversationColonMilliseconds) {
  auto conv = record({"conversation", "--agent", agent_});
  auto id = server_->admin({"record", "live-chat-request", "--conversation", conv})["eventId"]
                .get<std::string>();
  auto data = list("live_chat.requested");
  ASSERT_EQ(data.size(), 1u);
  expect_event_shape(data[0], "live_chat.requested");
  EXPECT_EQ(data[0]["id"], id);
  EXPECT_EQ(id, conv + ":" + std::to_string(ms_of(data[0]["created_at"])));
  EXPECT_EQ(data[0]["data"]["conversationId"], conv);
  EXPECT_EQ(data[0]["data"]["status"], "requested");
}

TEST_F(EventsApi, FormBookingAndReturnCarryTheirState) {
  auto form = record({"form", "--agent", agent_, "--form", "contact", "--form-name", "Contact us",
                      "--fields", R"([{"id":"company","value":"Acme"}])"});
  auto pending = record({"booking", "--agent", agent_, "--status", "pending", "--title", "Demo"});
  auto accepted = record({"booking", "--agent", agent_});
  auto ret = record({"return", "--agent", agent_, "--order", "A-1", "--reason", "too big"});
  auto forms = list("form.submitted");
  ASSERT_EQ(forms.size(), 1u);
  expect_event_shape(forms[0], "form.submitted");
  EXPECT_EQ(forms[0]["id"], form);
  EXPECT_EQ(forms[0]["data"]["formId"], "contact");
  EXPECT_EQ(forms[0]["data"]["fields"][0]["value"], "Acme");
  auto bookings = list("booking.created");
  ASSERT_EQ(bookings.size(), 2u);
  EXPECT_EQ(bookings[0]["id"], accepted);
  EXPECT_EQ(bookings[0]["data"]["providerStatus"], "accepted");
  EXPECT_EQ(bookings[1]["id"], pending);
  EXPECT_EQ(bookings[1]["data"]["providerStatus"], "pending");
  EXPECT_EQ(bookings[1]["data"]["eventTitle"], "Demo");
  expect_event_shape(bookings[1], "booking.created");
  auto returns = list("return.requested");
  ASSERT_EQ(returns.size(), 1u);
  expect_event_shape(returns[0], "return.requested");
  EXPECT_EQ(returns[0]["id"], ret);
  EXPECT_EQ(returns[0]["data"]["status"], "requested");
  server_->admin({"record", "return-handled", ret});
  auto handled = list("return.requested");
  EXPECT_EQ(handled[0]["data"]["status"], "handled");
  EXPECT_EQ(handled[0]["created_at"], returns[0]["created_at"]);
}

TEST_F(EventsApi, LimitIsOneToHundredDefaultTwenty) {
  server_->admin({"record", "form", "--agent", agent_, "--form", "f", "--repeat", "23"});
  EXPECT_EQ(list("form.submitted").size(), 20u);
  EXPECT_EQ(list("form.submitted", "?limit=1").size(), 1u);
  EXPECT_EQ(list("form.submitted", "?limit=100").size(), 23u);
  for (std::string bad : {"0", "101", "-1", "abc", "", "5.5"}) {
    auto r = events("form.submitted", "?limit=" + bad);
    EXPECT_EQ(r.status, 400) << bad;
    EXPECT_EQ(r.error_code(), "invalid_request") << bad;
    EXPECT_NE(r.error_message().find("'limit'"), std::string::npos) << r.error_message();
  }
}

TEST_F(EventsApi, UnknownEventIsInvalidRequest) {
  for (std::string path : {"/events/lead.deleted", "/events/lead.deleted/samples"}) {
    auto r = server_->get("/api/v1/agents/" + agent_ + path, key_);
    EXPECT_EQ(r.status, 400) << path;
    EXPECT_EQ(r.error_code(), "invalid_request");
    EXPECT_NE(r.error_message().find("lead.deleted"), std::string::npos);
  }
}

TEST_F(EventsApi, EachEventNeedsAgentsReadPlusItsDataScope) {
  auto agents_only = server_->create_key(account_, "agents:read");
  auto with_leads = server_->create_key(account_, "agents:read,leads:read");
  auto with_conversations = server_->create_key(account_, "agents:read,conversations:read");
  auto data_only = server_->create_key(account_, "leads:read,conversations:read");
  for (const auto& e : kLeadEvents) {
    auto denied = events(e, "", agents_only);
    EXPECT_EQ(denied.status, 403) << e;
    EXPECT_EQ(denied.error_code(), "insufficient_scope");
    EXPECT_NE(denied.error_message().find("leads:read"), std::string::npos);
    EXPECT_EQ(events(e, "", with_conversations).error_code(), "insufficient_scope") << e;
    EXPECT_EQ(events(e, "", with_leads).status, 200) << e;
    EXPECT_EQ(events(e, "", data_only).error_code(), "insufficient_scope") << e;
  }
  for (const auto& e : kConversationEvents) {
    auto denied = events(e, "", agents_only);
    EXPECT_EQ(denied.status, 403) << e;
    EXPECT_EQ(denied.error_code(), "insufficient_scope");
    EXPECT_NE(denied.error_message().find("conversations:read"), std::string::npos);
    EXPECT_EQ(events(e, "", with_leads).error_code(), "insufficient_scope") << e;
    EXPECT_EQ(events(e, "", with_conversations).status, 200) << e;
    EXPECT_EQ(events(e, "", data_only).error_code(), "insufficient_scope") << e;
  }
}

TEST_F(EventsApi, AnotherAccountsAgentIsNotFound) {
  auto other = server_->create_account();
  auto their_agent = server_->create_agent(other);
  for (std::string suffix : {"", "/samples"}) {
    auto r = server_->get("/api/v1/agents/" + their_agent + "/events/lead.created" + suffix, key_);
    EXPECT_EQ(r.status, 404);
    EXPECT_EQ(r.error_code(), "not_found");
  }
}

TEST_F(EventsApi, SamplesWithNothingStoredAreOneDocumentedExample) {
  for (const auto& e : {"lead.created", "form.submitted", "booking.created", "return.requested",
                        "handoff.requested", "live_chat.requested", "conversation.created"}) {
    auto r = events(e, "/samples");
    ASSERT_EQ(r.status, 200) << e << r.body;
    auto body = r.json();
    EXPECT_EQ(body["sample"], true) << e;
    ASSERT_EQ(body["data"].size(), 1u);
    expect_event_shape(body["data"][0], e);
    EXPECT_EQ(body["data"][0]["id"].get<std::string>().rfind("sample_", 0), 0u) << e;
  }
  auto lead = events("lead.created", "/samples").json()["data"][0]["data"];
  EXPECT_EQ(keys_of(lead), (std::vector<std::string>{"agentId", "agentName", "collectedAt",
                                                     "conversationId", "customFields", "email",
                                                     "leadId", "name", "phone", "source"}));
  auto handoff = events("handoff.requested", "/samples").json()["data"][0]["data"];
  EXPECT_TRUE(handoff["summary"].is_null());
  EXPECT_EQ(handoff["test"], false);
  EXPECT_EQ(
      keys_of(events("conversation.created", "/samples").json()["data"][0]["data"]),
      (std::vector<std::string>{"channel", "conversationId", "country", "createdAt", "page"}));
}

TEST_F(EventsApi, SamplesAreTheThreeLatestWhenTheKeyMaySeeThem) {
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(record({"booking", "--agent", agent_}));
  auto r = events("booking.created", "/samples");
  ASSERT_EQ(r.status, 200);
  auto body = r.json();
  EXPECT_FALSE(body.contains("sample"));
  ASSERT_EQ(body["data"].size(), 3u);
  EXPECT_EQ(body["data"][0]["id"], ids[3]);
  EXPECT_EQ(body["data"][2]["id"], ids[1]);
  EXPECT_EQ(body["data"], list("booking.created", "?limit=3"));
  // A key without leads:read gets the example instead of real data.
  auto agents_only = server_->create_key(account_, "agents:read");
  auto masked = events("booking.created", "/samples", agents_only).json();
  EXPECT_EQ(masked["sample"], true);
  ASSERT_EQ(masked["data"].size(), 1u);
  EXPECT_EQ(masked["data"][0]["id"].get<std::string>().rfind("sample_", 0), 0u);
  // Samples need agents:read.
  auto leads_only = server_->create_key(account_, "leads:read");
  EXPECT_EQ(events("booking.created", "/samples", leads_only).error_code(), "insufficient_scope");
}

}  // namespace
}  // namespace parley::e2e
