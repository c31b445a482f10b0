// What the dashboard and the widget stand on: the pages served from the binary (and from
// --web-dir), the console's knowledge, lists with search, live-chat inbox (list and event
// stream), "try it" chat and usage; the widget's agent view, streamed replies, readable refusals
// and its conversation's event stream.
#include <regex>
#include <thread>

#include "chat_support.h"
#include "harness.h"
#include "raw_connection.h"

namespace parley::e2e {
namespace {

class DashboardApi : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new Server(unlimited()); }
  static void TearDownTestSuite() { delete server_; }
  static const Server& s() { return *server_; }

  // An account with an agent (settings as given) and key, and a member of each role.
  void setup(const std::string& settings = "") {
    c_ = chat_setup(s(), settings);
    for (std::string role : {"owner", "editor", "viewer"}) {
      tokens_[role] = s().admin({"member", "create", "--account", c_.account, "--email",
                                 role + "." + c_.account + "@example.com", "--role", role, "--name", "Sam " + role})["token"];
    }
  }
  HttpResponse as(const std::string& role, const std::string& method, const std::string& path, const Json& body = nullptr) {
    return send(s(), method, path, tokens_[role], body.is_null() ? "" : body.dump());
  }
  std::string agent_path(const std::string& rest = "") const { return "/console/v1/agents/" + c_.agent + rest; }
  HttpResponse widget(const std::string& message, const std::string& visitor, const std::string& conversation = "") {
    Json body = {{"message", message}, {"visitorId", visitor}};
    if (!conversation.empty()) body["conversationId"] = conversation;
    return s().request({"POST", "/widget/v1/agents/" + c_.agent + "/messages", body.dump(), {"Origin: https://shop.example.com"}});
  }

  static Server* server_;
  ChatSetup c_;
  std::map<std::string, std::string> tokens_;
};
Server* DashboardApi::server_ = nullptr;

// The `data:` of each `event: NAME` in what a stream sent, in order.
std::vector<Json> events_named(const std::string& raw, const std::string& name) {
  std::vector<Json> out;
  std::regex one("event: " + name + "\ndata: ([^\n]*)\n\n");
  for (auto it = std::sregex_iterator(raw.begin(), raw.end(), one); it != std::sregex_iterator(); ++it)
    out.push_back(Json::parse((*it)[1].str()));
  return out;
}

TEST_F(DashboardApi, TheDashboardAndTheWidgetAreServedFromTheBinary) {
  auto page = s().request({"GET", "/", "", {}});
  ASSERT_EQ(page.status, 200);
  EXPECT_EQ(page.header("content-type"), "text/html; charset=utf-8");
  EXPECT_NE(page.body.find("/assets/dashboard.js"), std::string::npos);
  EXPECT_NE(page.header("content-security-policy").find("frame-ancestors 'none'"), std::string::npos);
  // Images only from this server and https (a product's image), never data: or http:.
  EXPECT_NE(page.header("content-security-policy").find("img-src 'self' https:;"),
            std::string::npos);
  EXPECT_EQ(page.header("content-security-policy").find("data:"), std::string::npos);
  EXPECT_EQ(page.header("cache-control"), "no-cache");
  EXPECT_EQ(page.header("x-content-type-options"), "nosniff");
  std::string etag = page.header("etag");
  ASSERT_EQ(etag.size(), 18u) << etag;
  auto again = s().request({"GET", "/", "", {"If-None-Match: " + etag}});
  EXPECT_EQ(again.status, 304);
  EXPECT_TRUE(again.body.empty());

  auto script = s().request({"GET", "/assets/dashboard.js", "", {}});
  EXPECT_EQ(script.status, 200);
  EXPECT_EQ(script.header("content-type"), "text/javascript; charset=utf-8");
  EXPECT_FALSE(script.body.empty());
  auto widget = s().request({"GET", "/widget.js", "", {}});
  EXPECT_EQ(widget.status, 200);
  EXPECT_EQ(widget.header("cache-control"), "public, max-age=300");
  EXPECT_EQ(widget.header("cross-origin-resource-policy"), "cross-origin");
  // Gzipped for a client that takes it (curl here sends no Accept-Encoding of its own).
  auto packed = s().request({"GET", "/widget.js", "", {"Accept-Encoding: br, GZIP"}});
  EXPECT_EQ(packed.header("content-encoding"), "gzip");
  EXPECT_LT(packed.body.size(), widget.body.size());
  EXPECT_EQ(packed.header("vary"), "Accept-Encoding");
  // Other bytes, another validator; each copy's own validator gives 304.
  const std::string plain_tag = widget.header("etag"), packed_tag = packed.header("etag");
  EXPECT_EQ(packed_tag, plain_tag.substr(0, plain_tag.size() - 1) + "-gz\"");
  EXPECT_EQ(s().request({"GET", "/widget.js", "", {"Accept-Encoding: gzip", "If-None-Match: " + packed_tag}}).status, 304);
  EXPECT_EQ(s().request({"GET", "/widget.js", "", {"Accept-Encoding: gzip", "If-None-Match: " + plain_tag}}).status, 200);
  for (std::string refusing : {"gzip;q=0, identity", "gzip;Q=0.000, *", "identity"}) {
    auto refused = s().request({"GET", "/widget.js", "", {"Accept-Encoding: " + refusing}});
    EXPECT_FALSE(refused.has_header("content-encoding")) << refusing;
    EXPECT_EQ(refused.body, widget.body) << refusing;
  }
  EXPECT_EQ(s().request({"GET", "/widget.js", "", {"Accept-Encoding: *"}}).header("content-encoding"), "gzip");

  auto missing = s().request({"GET", "/assets/nothing.js", "", {}});
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.error_code(), "not_found");
}

TEST(DashboardWebDir, TheFilesComeFromTheFolderWhenOneIsGiven) {
  std::string dir = ::testing::TempDir() + "parley-web-" + std::to_string(::getpid());
  ASSERT_EQ(std::system(("mkdir -p " + dir + "/assets && printf '<p>from disk</p>' > " + dir + "/index.html").c_str()), 0);
  Server server(unlimited(), {"--web-dir", dir});
  auto page = server.request({"GET", "/", "", {"Accept-Encoding: gzip"}});
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.body, "<p>from disk</p>");
  EXPECT_FALSE(page.has_header("content-encoding"));
  // A file the build makes but the folder lacks, and one the build does not make.
  EXPECT_EQ(server.request({"GET", "/widget.js", "", {}}).status, 404);
  EXPECT_EQ(server.request({"GET", "/assets/other.js", "", {}}).status, 404);
  // Only the files the build makes are read: nothing outside the folder.
  ASSERT_EQ(std::system(("printf secret > " + dir + "/assets/dashboard.css").c_str()), 0);
  EXPECT_EQ(server.request({"GET", "/assets/dashboard.css", "", {}}).body, "secret");
  EXPECT_EQ(server.request({"GET", "/assets/..%2Findex.html", "", {}}).status, 404);
  EXPECT_EQ(server.request({"GET", "/assets/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd", "", {}}).status, 404);
  std::system(("rm -rf " + dir).c_str());
}

TEST_F(DashboardApi, KnowledgeIsListedAddedAndDeletedByRole) {
  setup();
  Json qa = {{"type", "qa"}, {"question", "Do you ship abroad?"}, {"answer", "We ship to 40 countries."}};
  auto viewer = as("viewer", "POST", agent_path("/sources"), qa);
  EXPECT_EQ(viewer.status, 403);
  EXPECT_EQ(viewer.error_code(), "forbidden");
  auto added = as("editor", "POST", agent_path("/sources"), qa);
  ASSERT_EQ(added.status, 201) << added.body;
  EXPECT_EQ(added.json()["result"], "created");
  std::string id = added.json()["data"]["id"];
  auto same = as("editor", "POST", agent_path("/sources"), qa);
  EXPECT_EQ(same.status, 200);
  EXPECT_EQ(same.json()["result"], "unchanged");
  auto bad = as("editor", "POST", agent_path("/sources"), {{"type", "website"}, {"url", "https://example.com"}});
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(bad.error_message().find("'type'"), std::string::npos);

  Json listing;
  for (int i = 0; i < 200; ++i) {
    listing = as("viewer", "GET", agent_path("/sources")).json();
    if (listing["training"]["done"] == true) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  ASSERT_EQ(listing["data"].size(), 1u);
  EXPECT_EQ(listing["data"][0]["status"], "trained");
  EXPECT_EQ(listing["training"]["trained"], 1);
  EXPECT_EQ(listing["characters"]["used"], listing["data"][0]["characters"]);

  // Another account's agent is missing to this member.
  auto other = chat_setup(s());
  auto foreign = as("editor", "POST", "/console/v1/agents/" + other.agent + "/sources", qa);
  EXPECT_EQ(foreign.status, 404);
  auto removed = as("editor", "DELETE", agent_path("/sources/" + id));
  ASSERT_EQ(removed.status, 200) << removed.body;
  EXPECT_EQ(removed.json()["deleted"], true);
  EXPECT_EQ(as("viewer", "GET", agent_path("/sources")).json()["data"].size(), 0u);
  EXPECT_EQ(as("editor", "DELETE", agent_path("/sources/" + id)).status, 404);

  // The spec's source rules hold here too: a text snippet is always a new source, and one that
  // would pass the plan's training characters is 403 character_limit_exceeded with nothing added.
  Json text = {{"type", "text"}, {"title", "Hours"}, {"content", "Open daily."}};
  auto one = as("editor", "POST", agent_path("/sources"), text);
  auto two = as("editor", "POST", agent_path("/sources"), text);
  ASSERT_EQ(one.status, 201) << one.body;
  ASSERT_EQ(two.status, 201) << two.body;
  EXPECT_NE(one.json()["data"]["id"], two.json()["data"]["id"]);
  s().admin({"account", "set-limits", c_.account, R"({"trainingCharacters": 30})"});
  auto over = as("editor", "POST", agent_path("/sources"), {{"type", "text"}, {"content", std::string(20, 'x')}});
  EXPECT_EQ(over.status, 403);
  EXPECT_EQ(over.error_code(), "character_limit_exceeded");
  EXPECT_EQ(as("viewer", "GET", agent_path("/sources")).json()["data"].size(), 2u);
}

TEST_F(DashboardApi, ConversationsAreFoundByAWordInThemAndLeadsAndContactsArePaged) {
  setup(R"({"saveContactDetails": true})");
  auto a = chat(s(), c_, {{"message", "My PARCEL never arrived"}, {"sessionId", "s-a"}});
  auto b = chat(s(), c_, {{"message", "How do refunds work?"}, {"sessionId", "s-b"}});
  auto pct = chat(s(), c_, {{"message", "Is 100% cotton ok? reach me at lee@example.com"}, {"sessionId", "s-c"}});
  ASSERT_EQ(a.status, 200);
  ASSERT_EQ(b.status, 200);
  ASSERT_EQ(pct.status, 200);

  auto found = as("viewer", "GET", agent_path("/conversations?q=parcel"));
  ASSERT_EQ(found.status, 200) << found.body;
  ASSERT_EQ(found.json()["data"].size(), 1u);
  EXPECT_EQ(found.json()["data"][0]["id"], a.json()["conversationId"]);
  // % and _ are themselves, not wildcards.
  auto literal = as("viewer", "GET", agent_path("/conversations?q=100%25"));
  ASSERT_EQ(literal.json()["data"].size(), 1u);
  EXPECT_EQ(literal.json()["data"][0]["id"], pct.json()["conversationId"]);
  EXPECT_EQ(as("viewer", "GET", agent_path("/conversations?q=_")).json()["data"].size(), 0u);
  EXPECT_EQ(as("viewer", "GET", agent_path("/conversations?q=!")).json()["data"].size(), 0u);
  auto all = as("viewer", "GET", agent_path("/conversations?limit=2"));
  EXPECT_EQ(all.json()["data"].size(), 2u);
  EXPECT_EQ(all.json()["hasMore"], true);
  auto rest = as("viewer", "GET", agent_path("/conversations?limit=2&cursor=" + all.json()["nextCursor"].get<std::string>()));
  EXPECT_EQ(rest.json()["data"].size(), 1u);
  auto empty_q = as("viewer", "GET", agent_path("/conversations?q="));
  EXPECT_EQ(empty_q.status, 400);
  EXPECT_NE(empty_q.error_message().find("'q'"), std::string::npos);
  EXPECT_EQ(as("viewer", "GET", agent_path("/conversations?q=" + std::string(201, 'x'))).status, 400);
  // The public API's list has no search: q is not read there.
  EXPECT_EQ(s().get("/api/v1/agents/" + c_.agent + "/conversations?q=parcel", c_.key).json()["data"].size(), 3u);

  auto leads = as("viewer", "GET", agent_path("/leads"));
  ASSERT_EQ(leads.status, 200) << leads.body;
  ASSERT_EQ(leads.json()["data"].size(), 1u);
  EXPECT_EQ(leads.json()["data"][0]["email"], "lee@example.com");
  auto contacts = as("viewer", "GET", agent_path("/contacts"));
  ASSERT_EQ(contacts.status, 200) << contacts.body;
  EXPECT_EQ(contacts.json()["hasMore"], false);
  EXPECT_EQ(as("viewer", "GET", agent_path("/contacts?limit=0")).status, 400);
  EXPECT_EQ(send(s(), "GET", agent_path("/leads"), "cst_nothing", "").status, 401);
}

TEST_F(DashboardApi, ARequestedLiveChatIsStreamedToTheInboxAndLeavesItWhenEnded) {
  setup(R"({"liveChat": true, "allowedDomains": ["example.com"]})");
  EXPECT_EQ(as("viewer", "GET", agent_path("/live-chats")).json()["data"].size(), 0u);

  Connection stream(s().port());
  ASSERT_TRUE(stream.send("GET " + agent_path("/live-chats/events") + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                          tokens_["viewer"] + "\r\n\r\n"));
  std::string head = stream.read_until("event: inbox");
  ASSERT_NE(head.find("HTTP/1.1 200"), std::string::npos) << head;
  EXPECT_NE(head.find("Content-Type: text/event-stream"), std::string::npos);
  EXPECT_NE(head.find("Cache-Control: no-store"), std::string::npos);
  std::string seen = head;
  seen += stream.read_until("\n\n", 1, std::chrono::milliseconds(500));
  auto first = events_named(seen, "inbox");
  ASSERT_EQ(first.size(), 1u) << seen;
  EXPECT_EQ(first[0]["data"].size(), 0u);

  auto offered = widget("Can I talk to a person?", "visitor-1");
  ASSERT_EQ(offered.status, 200) << offered.body;
  EXPECT_EQ(offered.json()["liveChat"], "offered");
  std::string conv = offered.json()["conversationId"];
  auto requested = widget("Yes please", "visitor-1", conv);
  ASSERT_EQ(requested.status, 200) << requested.body;
  EXPECT_EQ(requested.json()["liveChat"], "requested");

  seen = stream.read_until("event: inbox", 1, std::chrono::milliseconds(3000));
  seen += stream.read_until("\n\n", 1, std::chrono::milliseconds(500));
  auto listed = events_named(seen, "inbox");
  ASSERT_FALSE(listed.empty()) << seen;
  ASSERT_EQ(listed.back()["data"].size(), 1u);
  EXPECT_EQ(listed.back()["data"][0]["id"], conv);
  EXPECT_EQ(listed.back()["data"][0]["liveChat"], "requested");
  EXPECT_EQ(as("viewer", "GET", agent_path("/live-chats")).json()["data"][0]["id"], conv);

  ASSERT_EQ(as("editor", "POST", "/console/v1/conversations/" + conv + "/takeover").status, 200);
  seen = stream.read_until("\"active\"", 1, std::chrono::milliseconds(3000));
  EXPECT_NE(seen.find("\"liveChat\":\"active\""), std::string::npos) << seen;
  ASSERT_EQ(as("editor", "POST", "/console/v1/conversations/" + conv + "/end").status, 200);
  seen = stream.read_until("{\"data\":[]}", 1, std::chrono::milliseconds(3000));
  EXPECT_NE(seen.find("event: inbox\ndata: {\"data\":[]}"), std::string::npos) << seen;
  EXPECT_EQ(as("viewer", "GET", agent_path("/live-chats")).json()["data"].size(), 0u);
}

TEST_F(DashboardApi, TheInboxStreamEndsWithTheSession) {
  setup();
  auto login_member = create_member(s(), c_.account, "viewer", "a long password");
  auto login = s().request({"POST", "/console/v1/login",
                            Json{{"email", login_member["email"]}, {"password", "a long password"}}.dump(), {}});
  ASSERT_EQ(login.status, 200) << login.body;
  std::string token = login.json()["token"];
  Connection stream(s().port());
  ASSERT_TRUE(stream.send("GET " + agent_path("/live-chats/events") + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                          token + "\r\n\r\n"));
  ASSERT_NE(stream.read_until("event: inbox").find("200 OK"), std::string::npos);
  ASSERT_EQ(send(s(), "POST", "/console/v1/logout", token, "").status, 200);
  std::string rest = stream.read_until("0\r\n\r\n", 1, std::chrono::milliseconds(3000));
  auto errors = events_named(rest, "error");
  ASSERT_EQ(errors.size(), 1u) << rest;
  EXPECT_EQ(errors[0]["error"]["code"], "unauthorized");
  // Another account's agent, and a missing token.
  auto other = chat_setup(s());
  EXPECT_EQ(as("viewer", "GET", "/console/v1/agents/" + other.agent + "/live-chats/events").status, 404);
  EXPECT_EQ(s().request({"GET", agent_path("/live-chats/events"), "", {}}).status, 401);
}

TEST_F(DashboardApi, TryItStreamsTheReplyOfAPrivateAgentAsAWidgetConversation) {
  setup(R"({"messagesPerVisitor": 1, "allowedDomains": ["example.com"]})");
  ASSERT_EQ(as("editor", "PATCH", agent_path(), {{"private", true}}).status, 200);
  // The widget refuses a private agent; the dashboard answers it.
  EXPECT_EQ(widget("Hello", "v").error_code(), "agent_private");
  auto reply = s().request({"POST", agent_path("/messages"), Json{{"message", "Hello there"}, {"stream", true}}.dump(),
                            {bearer(tokens_["viewer"]), "Accept: text/event-stream"}});
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(reply.header("content-type"), "text/event-stream");
  auto meta = events_named(reply.body, "meta");
  ASSERT_EQ(meta.size(), 1u) << reply.body;
  std::string conv = meta[0]["conversationId"];
  EXPECT_FALSE(events_named(reply.body, "text").empty());
  EXPECT_EQ(events_named(reply.body, "done").size(), 1u);
  // Continued as JSON; the per-visitor allowance (1) does not apply to a member.
  auto next = as("viewer", "POST", agent_path("/messages"), {{"message", "And again"}, {"conversationId", conv}});
  ASSERT_EQ(next.status, 200) << next.body;
  EXPECT_EQ(next.json()["conversationId"], conv);
  auto shown = as("viewer", "GET", "/console/v1/conversations/" + conv).json()["data"];
  EXPECT_EQ(shown["channel"], "widget");
  EXPECT_EQ(shown["messages"].size(), 4u);

  auto missing = as("viewer", "POST", agent_path("/messages"), {{"conversationId", conv}});
  EXPECT_EQ(missing.status, 400);
  EXPECT_NE(missing.error_message().find("message"), std::string::npos);
  auto other = chat_setup(s());
  EXPECT_EQ(as("viewer", "POST", "/console/v1/agents/" + other.agent + "/messages", {{"message", "Hi"}}).status, 404);
}

TEST_F(DashboardApi, UsageCountsMessagesPerDay) {
  setup();
  ASSERT_EQ(chat(s(), c_, {{"message", "One"}}).status, 200);
  ASSERT_EQ(chat(s(), c_, {{"message", "Two"}}).status, 200);
  auto usage = as("viewer", "GET", "/console/v1/account/usage?days=7");
  ASSERT_EQ(usage.status, 200) << usage.body;
  auto d = usage.json()["data"];
  EXPECT_EQ(d["messagesUsed"], 2);
  EXPECT_EQ(d["messagesPerMonth"], 4000);
  ASSERT_EQ(d["days"].size(), 7u);
  // Both on today's date, or, run across midnight, one day apart: two in all, within the last two days.
  int64_t total = 0;
  for (const auto& day : d["days"]) total += day["messages"].get<int64_t>();
  EXPECT_EQ(total, 2);
  EXPECT_EQ(d["days"][6]["messages"].get<int64_t>() + d["days"][5]["messages"].get<int64_t>(), 2);
  EXPECT_EQ(d["days"][6]["date"].get<std::string>().size(), 10u);
  EXPECT_LT(d["days"][0]["date"].get<std::string>(), d["days"][6]["date"].get<std::string>());
  EXPECT_EQ(as("viewer", "GET", "/console/v1/account/usage").json()["data"]["days"].size(), 30u);
  for (std::string bad : {"0", "91", "x", "7x", ""}) {
    auto r = as("viewer", "GET", "/console/v1/account/usage?days=" + bad);
    EXPECT_EQ(r.status, 400) << bad;
    EXPECT_NE(r.error_message().find("'days'"), std::string::npos);
  }
}

TEST_F(DashboardApi, TheWidgetReadsItsAgentStreamsRepliesAndWatchesItsConversation) {
  setup(R"({"liveChat": true, "allowedDomains": ["example.com"]})");
  std::string agent = "/widget/v1/agents/" + c_.agent;
  auto view = s().request({"GET", agent, "", {"Origin: https://shop.example.com"}});
  ASSERT_EQ(view.status, 200) << view.body;
  EXPECT_EQ(view.json()["data"], (Json{{"id", c_.agent}, {"name", "Test agent"}, {"liveChat", true}}));
  auto refused = s().request({"GET", agent, "", {"Origin: https://evil.test"}});
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(refused.error_code(), "origin_not_allowed");
  EXPECT_EQ(refused.header("access-control-allow-origin"), "https://evil.test");
  auto missing = s().request({"GET", "/widget/v1/agents/agt_missing", "", {"Origin: https://evil.test"}});
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.header("access-control-allow-origin"), "https://evil.test");

  auto streamed = s().request({"POST", agent + "/messages",
                               Json{{"message", "Can I talk to a human?"}, {"visitorId", "v-9"}, {"stream", true}}.dump(),
                               {"Origin: https://shop.example.com", "Accept: text/event-stream"}});
  ASSERT_EQ(streamed.status, 200) << streamed.body;
  EXPECT_EQ(streamed.header("content-type"), "text/event-stream");
  EXPECT_EQ(streamed.header("access-control-allow-origin"), "https://shop.example.com");
  auto meta = events_named(streamed.body, "meta");
  ASSERT_EQ(meta.size(), 1u);
  std::string conv = meta[0]["conversationId"];
  EXPECT_EQ(meta[0]["liveChat"], "offered");
  ASSERT_EQ(widget("Yes please", "v-9", conv).json()["liveChat"], "requested");

  std::string events = "/widget/v1/conversations/" + conv + "/events?visitorId=";
  EXPECT_EQ(s().request({"GET", events + "someone-else", "", {"Origin: https://shop.example.com"}}).status, 404);
  Connection stream(s().port());
  ASSERT_TRUE(stream.send("GET " + events + "v-9 HTTP/1.1\r\nHost: x\r\nOrigin: https://shop.example.com\r\n\r\n"));
  std::string seen = stream.read_until("event: conversation");
  ASSERT_NE(seen.find("Access-Control-Allow-Origin: https://shop.example.com"), std::string::npos) << seen;
  ASSERT_EQ(as("editor", "POST", "/console/v1/conversations/" + conv + "/takeover").status, 200);
  ASSERT_EQ(as("editor", "POST", "/console/v1/conversations/" + conv + "/reply", {{"message", "Hi, Sam here."}}).status, 201);
  seen += stream.read_until("Sam here", 1, std::chrono::milliseconds(3000));
  seen += stream.read_until("\n\n", 1, std::chrono::milliseconds(500));
  auto states = events_named(seen, "conversation");
  ASSERT_GE(states.size(), 2u) << seen;
  auto last = states.back()["data"];
  EXPECT_EQ(last["liveChat"]["status"], "active");
  EXPECT_EQ(last["messages"].back()["content"], "Hi, Sam here.");
  EXPECT_EQ(last["messages"].back()["authorName"], "Sam");

  // Streams per conversation are few (3 with this one); the dashboard's visitor ids are not a page's.
  std::vector<std::unique_ptr<Connection>> more;
  for (int i = 0; i < 2; ++i) {
    more.push_back(std::make_unique<Connection>(s().port()));
    ASSERT_TRUE(more.back()->send("GET " + events + "v-9 HTTP/1.1\r\nHost: x\r\nOrigin: https://shop.example.com\r\n\r\n"));
    ASSERT_NE(more.back()->read_until("event: conversation").find("200 OK"), std::string::npos);
  }
  auto fourth = s().request({"GET", events + "v-9", "", {"Origin: https://shop.example.com"}});
  EXPECT_EQ(fourth.status, 429);
  EXPECT_EQ(fourth.error_code(), "rate_limited");
  EXPECT_EQ(fourth.header("retry-after"), "5");
  more.clear();  // closed: their places come back once the feed sees them gone
  auto reserved = widget("Hello", "dashboard_mem_x");
  EXPECT_EQ(reserved.status, 400);
  EXPECT_NE(reserved.error_message().find("visitorId"), std::string::npos);
  EXPECT_EQ(s().request({"GET", "/widget/v1/conversations/" + conv + "?visitorId=dashboard_x", "", {"Origin: https://shop.example.com"}}).status, 400);
}

}  // namespace
}  // namespace parley::e2e
