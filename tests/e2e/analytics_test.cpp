// Figures (docs/decisions/figures.md): the account's time zone (console and admin), an agent's
// figures per day from the console and `parley admin analytics` (the same JSON), the range rules,
// roles and tenant isolation, a conversation's contribution following it (a later fallback, a
// changed CSAT, a thumb), and a concurrent storm whose roll-ups equal a recount of the raw tables.
#include <atomic>
#include <ctime>
#include <map>
#include <thread>

#include "chat_support.h"
#include "harness.h"

namespace parley::e2e {
namespace {

std::string day_of(int64_t offset_days) {
  std::time_t t = std::time(nullptr) + offset_days * 86400;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

class Analytics : public ::testing::Test {
 protected:
  void SetUp() override {
    const Seed& seeded = seed("Analytics", [](const Admin& a) {
      ChatSetup c = chat_setup(a, R"({"liveChat":true})");
      Json owner = create_member(a, c.account, "owner");
      Json viewer = create_member(a, c.account, "viewer");
      Json admin = create_member(a, c.account, "admin");
      std::string other = a.create_account();
      Json outsider = create_member(a, other, "owner");
      return Json{
          {"account", c.account},         {"agent", c.agent},          {"key", c.key},
          {"owner", owner["token"]},      {"viewer", viewer["token"]}, {"admin", admin["token"]},
          {"outsider", outsider["token"]}};
    });
    Env env = unlimited();
    env["PARLEY_WIDGET_REQUESTS_PER_MINUTE_PER_ADDRESS"] = "1000000";
    env["PARLEY_WIDGET_MESSAGES_PER_MINUTE_PER_ADDRESS"] = "1000000";
    server_ = std::make_unique<Server>(env, std::vector<std::string>{}, &seeded);
    c_ = {seeded.values["account"], seeded.values["agent"], seeded.values["key"]};
    owner_ = seeded.values["owner"];
    viewer_ = seeded.values["viewer"];
    admin_ = seeded.values["admin"];
    outsider_ = seeded.values["outsider"];
  }

  const Server& s() const { return *server_; }
  std::string path(const std::string& query = "") const {
    return "/console/v1/agents/" + c_.agent + "/analytics" + query;
  }
  // The period around today, whatever the time of day the test runs.
  std::string around_today() const { return "?from=" + day_of(-2) + "&to=" + day_of(2); }
  Json totals() const {
    auto r = s().get(path(around_today()), viewer_);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json()["data"]["totals"];
  }
  std::string widget_chat(const std::string& visitor, const std::string& text,
                          const std::string& conversation = "") const {
    Json body{{"message", text}, {"visitorId", visitor}};
    if (!conversation.empty()) body["conversationId"] = conversation;
    auto r = s().request({"POST",
                          "/widget/v1/agents/" + c_.agent + "/messages",
                          body.dump(),
                          {"Origin: https://shop.example.com"}});
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json().value("conversationId", "");
  }
  long csat(const std::string& conversation, const std::string& visitor, int score) const {
    return s()
        .request({"POST",
                  "/widget/v1/conversations/" + conversation + "/csat",
                  Json{{"visitorId", visitor}, {"score", score}}.dump(),
                  {"Origin: https://shop.example.com"}})
        .status;
  }

  std::unique_ptr<Server> server_;
  ChatSetup c_;
  std::string owner_, viewer_, admin_, outsider_;
};

TEST_F(Analytics, AccountTimeZoneIsSetByAdminsAndValidated) {
  EXPECT_EQ(s().get("/console/v1/account", viewer_).json()["data"]["timeZone"], "UTC");
  auto set = s().patch("/console/v1/account", admin_, R"({"timeZone":"Europe/Paris"})");
  ASSERT_EQ(set.status, 200) << set.body;
  EXPECT_EQ(set.json()["data"]["timeZone"], "Europe/Paris");
  EXPECT_EQ(s().get("/console/v1/account", viewer_).json()["data"]["timeZone"], "Europe/Paris");

  for (const char* bad : {R"({"timeZone":"Mars/Olympus"})", R"({"timeZone":"GMT+2"})",
                          R"({"timeZone":""})", R"({"timeZone":12})", R"({"timeZone":null})"}) {
    auto r = s().patch("/console/v1/account", owner_, bad);
    EXPECT_EQ(r.status, 400) << bad;
    EXPECT_EQ(r.error_code(), "invalid_request");
    EXPECT_NE(r.error_message().find("'timeZone'"), std::string::npos) << r.body;
  }
  EXPECT_EQ(s().patch("/console/v1/account", owner_, "{}").status, 400);
  auto viewer = s().patch("/console/v1/account", viewer_, R"({"timeZone":"UTC"})");
  EXPECT_EQ(viewer.status, 403);
  EXPECT_EQ(viewer.error_code(), "forbidden");
  // An admin may set the zone but not the plan; a refused request changes neither.
  auto plan = s().patch("/console/v1/account", admin_, R"({"plan":"pro","timeZone":"Asia/Tokyo"})");
  EXPECT_EQ(plan.status, 403);
  EXPECT_NE(plan.error_message().find("owner"), std::string::npos) << plan.body;
  EXPECT_EQ(s().get("/console/v1/account", viewer_).json()["data"]["timeZone"], "Europe/Paris");

  auto cli = s().admin({"account", "set-timezone", c_.account, "America/New_York"});
  EXPECT_EQ(cli["timeZone"], "America/New_York");
  auto refused = s().admin({"account", "set-timezone", c_.account, "Nowhere/Else"}, true);
  EXPECT_NE(refused.dump().find("zone"), std::string::npos) << refused.dump();
  auto analytics = s().get(path(), viewer_).json()["data"];
  EXPECT_EQ(analytics["timeZone"], "America/New_York");
}

TEST_F(Analytics, RangeRolesAndTenants) {
  auto fine = s().get(path("?from=2026-01-01&to=2026-01-31"), viewer_);
  ASSERT_EQ(fine.status, 200) << fine.body;
  auto data = fine.json()["data"];
  EXPECT_EQ(data["from"], "2026-01-01");
  EXPECT_EQ(data["to"], "2026-01-31");
  ASSERT_EQ(data["days"].size(), 31u);
  EXPECT_EQ(data["days"][0]["date"], "2026-01-01");
  EXPECT_EQ(data["days"][0]["conversations"], 0);
  EXPECT_TRUE(data["days"][0]["resolutionRate"].is_null());
  EXPECT_TRUE(data["totals"]["csat"]["average"].is_null());
  EXPECT_EQ(s().get(path("?from=2024-01-01&to=2024-12-31"), viewer_).status, 200);  // 366 days
  EXPECT_EQ(s().get(path(), viewer_).json()["data"]["days"].size(), 30u);

  struct Bad {
    const char* query;
    const char* field;
  };
  for (const Bad& b : {Bad{"?from=2026-1-01&to=2026-01-31", "'from'"},
                       Bad{"?from=2026-02-30&to=2026-03-01", "'from'"},
                       Bad{"?from=2026-01-01&to=tomorrow", "'to'"},
                       Bad{"?from=2026-02-01&to=2026-01-01", "'from'"},
                       Bad{"?from=2025-01-01&to=2026-01-02", "'to'"}}) {
    auto r = s().get(path(b.query), viewer_);
    EXPECT_EQ(r.status, 400) << b.query;
    EXPECT_EQ(r.error_code(), "invalid_request");
    EXPECT_NE(r.error_message().find(b.field), std::string::npos) << r.body;
  }
  EXPECT_EQ(s().get(path(), outsider_).status, 404);
  EXPECT_EQ(s().get("/console/v1/agents/agt_missing/analytics", owner_).status, 404);
  EXPECT_EQ(s().get(path(), "").status, 401);
}

TEST_F(Analytics, ContributionFollowsTheConversation) {
  std::string first = widget_chat("v-1", "Hello there");
  widget_chat("v-1", "What are your opening hours?", first);
  std::string second = chat(s(), c_, {{"message", "Hi"}}).json()["conversationId"];
  ASSERT_FALSE(first.empty());
  ASSERT_FALSE(second.empty());
  Json t = totals();
  EXPECT_EQ(t["conversations"], 2);
  EXPECT_EQ(t["visitorMessages"], 3);
  EXPECT_EQ(t["agentReplies"], 3);
  // The agent knows none of this: each reply is its fallback message.
  EXPECT_EQ(t["fallbacks"], 3);
  EXPECT_EQ(t["answered"], 0);
  EXPECT_EQ(t["channels"]["widget"], 1);
  EXPECT_EQ(t["channels"]["api"], 1);
  EXPECT_EQ(t["ended"], 0);
  EXPECT_TRUE(t["resolutionRate"].is_null());

  // A CSAT ends the conversation; a fallback in its last two replies leaves it unresolved.
  ASSERT_EQ(csat(first, "v-1", 2), 200);
  t = totals();
  EXPECT_EQ(t["ended"], 1);
  EXPECT_EQ(t["resolved"], 0);
  EXPECT_EQ(t["resolutionRate"], 0.0);
  EXPECT_EQ(t["csat"]["count"], 1);
  EXPECT_EQ(t["csat"]["distribution"]["2"], 1);
  // A changed CSAT: the old score out, the new one in.
  ASSERT_EQ(csat(first, "v-1", 5), 200);
  t = totals();
  EXPECT_EQ(t["csat"]["count"], 1);
  EXPECT_EQ(t["csat"]["average"], 5.0);
  EXPECT_EQ(t["csat"]["distribution"]["2"], 0);
  EXPECT_EQ(t["csat"]["distribution"]["5"], 1);

  // The replies' outcomes and a thumb changed underneath (messages.outcome, messages.rating):
  // the conversation's next write recounts what it contributes.
  s().sql("UPDATE messages SET outcome = 'answered' WHERE conversation_id = '" + first +
          "' AND role = 'assistant'");
  s().sql("UPDATE messages SET rating = 'down', rated_at = 1 WHERE conversation_id = '" + first +
          "' AND seq = 2");
  ASSERT_EQ(csat(first, "v-1", 4), 200);
  t = totals();
  EXPECT_EQ(t["fallbacks"], 1);
  EXPECT_EQ(t["answered"], 2);
  EXPECT_EQ(t["resolved"], 1);
  EXPECT_EQ(t["resolutionRate"], 1.0);
  EXPECT_EQ(t["thumbs"]["down"], 1);
  EXPECT_EQ(t["thumbs"]["up"], 0);

  // A request for a person (live chat) counts the conversation as handed off.
  // (The agent offers a live chat; the visitor's "yes" requests it.)
  for (const char* text : {"Can I talk to a human, please?", "Yes please"}) {
    ASSERT_EQ(chat(s(), c_, {{"message", text}, {"conversationId", second}}).status, 200);
  }
  t = totals();
  EXPECT_EQ(t["handoffs"], 1);
  EXPECT_EQ(t["handoffRate"], 0.5);

  // The admin command gives the console's JSON.
  auto console = s().get(path(around_today()), viewer_).json()["data"];
  auto cli = s().admin({"analytics", "--agent", c_.agent, "--from", day_of(-2), "--to", day_of(2)});
  EXPECT_EQ(cli, console);
  auto bad = s().admin({"analytics", "--agent", c_.agent, "--from", "yesterday"}, true);
  EXPECT_NE(bad.dump().find("'from'"), std::string::npos) << bad.dump();
}

TEST_F(Analytics, IdleConversationEndsAfterThirtyMinutes) {
  TestClock clock;
  Env env = unlimited();
  Server timed(env, clock.args(), nullptr);
  std::string account = timed.create_account();
  std::string agent = timed.create_agent(account);
  std::string key = timed.create_key(account);
  std::string viewer = create_member(timed, account, "viewer")["token"];
  ASSERT_EQ(timed.post("/api/v1/agents/" + agent + "/chat", key, R"({"message":"Hello"})").status,
            200);
  std::string p =
      "/console/v1/agents/" + agent + "/analytics?from=" + day_of(-2) + "&to=" + day_of(3);
  EXPECT_EQ(timed.get(p, viewer).json()["data"]["totals"]["ended"], 0);
  clock.advance_ms(31 * 60 * 1000);
  // The sweeper looks every ten seconds.
  Json t;
  for (int i = 0; i < 60; ++i) {
    t = timed.get(p, viewer).json()["data"]["totals"];
    if (t["ended"] == 1) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  EXPECT_EQ(t["ended"], 1);
  // Its one reply was the fallback (the agent knows nothing): ended, not resolved.
  EXPECT_EQ(t["resolved"], 0);
  EXPECT_EQ(t["resolutionRate"], 0.0);
}

// Many conversations, follow-ups, hand-offs, CSATs (given and changed), takeovers and ends at
// once; then the roll-ups must equal a recount of the raw tables.
TEST_F(Analytics, StormRollUpsEqualARecount) {
  constexpr int kThreads = 6;
  constexpr int kConversationsPerThread = 6;
  std::string editor = create_member(s(), c_.account, "editor")["token"];
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kConversationsPerThread; ++i) {
        std::string visitor = "v-" + std::to_string(t) + "-" + std::to_string(i);
        std::string conv = widget_chat(visitor, "Hello, do you sell bicycles?");
        if (conv.empty()) {
          ++failures;
          continue;
        }
        switch ((t + i) % 4) {
          case 0:
            widget_chat(visitor, "Can I talk to a human, please?", conv);
            widget_chat(visitor, "Yes please", conv);
            break;
          case 1:
            if (csat(conv, visitor, 1 + (i % 5)) != 200) ++failures;
            if (csat(conv, visitor, 5 - (i % 5)) != 200) ++failures;
            break;
          case 2:
            if (s().post("/console/v1/conversations/" + conv + "/takeover", editor, "{}").status !=
                200)
              ++failures;
            if (s().post("/console/v1/conversations/" + conv + "/end", editor, "{}").status != 200)
              ++failures;
            break;
          default:
            widget_chat(visitor, "And do you repair them?", conv);
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);

  // The recount, from the raw rows.
  auto convs = s().sql(
      "SELECT id, channel, CASE WHEN handoff_requested_at IS NOT NULL OR live_chat_requested_at IS "
      "NOT NULL"
      " THEN 1 ELSE 0 END, CASE WHEN live_chat_started_at IS NOT NULL THEN 1 ELSE 0 END,"
      " COALESCE(live_chat_status, ''), COALESCE(csat_score, 0) FROM conversations WHERE agent_id "
      "= '" +
      c_.agent + "'");
  auto msgs = s().sql(
      "SELECT m.conversation_id, m.role, CASE WHEN m.author_name IS NULL THEN 0 ELSE 1 END,"
      " COALESCE(m.outcome, ''), COALESCE(m.rating, '') FROM messages m JOIN conversations c"
      " ON c.id = m.conversation_id WHERE c.agent_id = '" +
      c_.agent + "' ORDER BY m.conversation_id, m.seq");
  std::map<std::string, std::vector<std::string>> outcomes;  // agent replies' outcomes, in order
  int64_t visitor = 0, replies = 0, fallbacks = 0, up = 0, down = 0;
  for (const auto& m : msgs) {
    if (m[1] == "user") ++visitor;
    if (m[1] == "assistant" && m[2] == "0") {
      ++replies;
      if (m[3] == "fallback") ++fallbacks;
      outcomes[m[0]].push_back(m[3]);
    }
    if (m[4] == "up") ++up;
    if (m[4] == "down") ++down;
  }
  int64_t handoffs = 0, live = 0, ended = 0, resolved = 0, csat_count = 0, csat_sum = 0;
  std::map<std::string, int64_t> channels;
  int64_t dist[6] = {0, 0, 0, 0, 0, 0};
  for (const auto& c : convs) {
    ++channels[c[1]];
    bool handoff = c[2] == "1";
    handoffs += handoff;
    live += c[3] == "1";
    int score = std::stoi(c[5]);
    if (score > 0) {
      ++csat_count;
      csat_sum += score;
      ++dist[score];
    }
    bool is_ended = c[4] == "ended" || score > 0;
    const auto& o = outcomes[c[0]];
    bool recent_fallback = false;
    for (size_t k = o.size() >= 2 ? o.size() - 2 : 0; k < o.size(); ++k)
      recent_fallback |= o[k] == "fallback";
    ended += is_ended;
    resolved += is_ended && !handoff && !recent_fallback;
  }
  ASSERT_EQ(convs.size(), static_cast<size_t>(kThreads * kConversationsPerThread));

  Json t = totals();
  EXPECT_EQ(t["conversations"], convs.size());
  EXPECT_EQ(t["visitorMessages"], visitor);
  EXPECT_EQ(t["agentReplies"], replies);
  EXPECT_EQ(t["answered"], replies - fallbacks);
  EXPECT_EQ(t["fallbacks"], fallbacks);
  EXPECT_EQ(t["handoffs"], handoffs);
  EXPECT_EQ(t["liveChats"], live);
  EXPECT_EQ(t["ended"], ended);
  EXPECT_EQ(t["resolved"], resolved);
  EXPECT_EQ(t["csat"]["count"], csat_count);
  for (int k = 1; k <= 5; ++k)
    EXPECT_EQ(t["csat"]["distribution"][std::to_string(k)], dist[k]) << k;
  EXPECT_EQ(t["thumbs"]["up"], up);
  EXPECT_EQ(t["thumbs"]["down"], down);
  for (const auto& [name, n] : channels) EXPECT_EQ(t["channels"][name], n) << name;
  EXPECT_GT(handoffs, 0);
  EXPECT_GT(live, 0);
  EXPECT_GT(csat_count, 0);
  // Every day's figures add up to the totals, and the stored per-conversation rows to both.
  auto sums = s().sql(
      "SELECT SUM(conversations), SUM(visitor_messages), SUM(resolved) FROM figure_days"
      " WHERE agent_id = '" +
      c_.agent + "'");
  ASSERT_EQ(sums.size(), 1u);
  EXPECT_EQ(sums[0][0], std::to_string(convs.size()));
  EXPECT_EQ(sums[0][1], std::to_string(visitor));
  EXPECT_EQ(sums[0][2], std::to_string(resolved));
}

}  // namespace
}  // namespace parley::e2e
