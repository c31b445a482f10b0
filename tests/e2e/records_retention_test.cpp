// Retention: PATCH /console/v1/account {retentionDays} and `parley admin account set-retention`
// (validation, roles, the account JSON), and the worker deleting, once the server's clock has
// moved past an account's retention, exactly that account's conversations whose last activity is
// older, with their messages, events and webhook deliveries; newer ones and other accounts' stay.
#include <chrono>
#include <thread>

#include "harness.h"

namespace parley::e2e {
namespace {

// A write through the database's own client beside the running server: on SQLite the client
// waits for the server's writer instead of failing at once with "database is locked".
constexpr int64_t kDayMs = 86'400'000;

std::string conversation(const Admin& db, const std::string& agent) {
  Json messages = Json::array(
      {{{"role", "user"}, {"content", "Hello"}}, {{"role", "assistant"}, {"content", "Hi"}}});
  return db.admin(
      {"conversation", "create", "--agent", agent, "--messages", messages.dump()})["id"];
}

// A hand-off event of the conversation with a delivery of it, as the outbox and the delivery
// worker leave them (the event id is "<conversation id>:<ms>").
void handoff_event_delivered(const Admin& db, const std::string& account, const std::string& agent,
                             const std::string& conversation, const std::string& webhook) {
  std::string event_id = conversation + ":1700000000000";
  db.write_sql(
      "INSERT INTO event_outbox (id, account_id, agent_id, event, event_id, created_at, "
      "dispatched_at) VALUES "
      "('obx_" +
      conversation + "', '" + account + "', '" + agent + "', 'handoff.requested', '" + event_id +
      "', 1700000000000, 1700000000000)");
  db.write_sql(
      "INSERT INTO webhook_deliveries (id, webhook_id, outbox_id, event, event_id, payload, "
      "status, attempts, "
      "event_created_at, created_at) VALUES ('dlv_" +
      conversation + "', '" + webhook + "', 'obx_" + conversation + "', 'handoff.requested', '" +
      event_id + "', '{}', 'succeeded', 1, 1700000000000, 1700000000000)");
}

TEST(RecordsRetention, TheSettingIsValidatedShownAndClearedByOwnersAndTheAdminCommand) {
  Server server(unlimited());
  std::string account = server.create_account();
  auto owner = create_member(server, account, "owner")["token"];
  auto get = server.get("/console/v1/account", owner);
  ASSERT_EQ(get.status, 200);
  EXPECT_TRUE(get.json()["data"]["retentionDays"].is_null());

  auto r = server.patch("/console/v1/account", owner, R"({"retentionDays": 30})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["data"]["retentionDays"], 30);
  EXPECT_EQ(server.get("/console/v1/account", owner).json()["data"]["retentionDays"], 30);
  for (const char* bad :
       {R"({"retentionDays": 0})", R"({"retentionDays": -3})", R"({"retentionDays": 1.5})",
        R"({"retentionDays": "30"})", R"({"retentionDays": 36501})"}) {
    auto refused = server.patch("/console/v1/account", owner, bad);
    EXPECT_EQ(refused.status, 400) << bad;
    EXPECT_EQ(refused.error_code(), "invalid_request");
    EXPECT_NE(refused.error_message().find("'retentionDays'"), std::string::npos) << refused.body;
  }
  auto admin = server.patch("/console/v1/account", create_member(server, account, "admin")["token"],
                            R"({"retentionDays": 7})");
  EXPECT_EQ(admin.status, 403);
  EXPECT_EQ(admin.error_code(), "forbidden");
  auto cleared = server.patch("/console/v1/account", owner, R"({"retentionDays": null})");
  ASSERT_EQ(cleared.status, 200);
  EXPECT_TRUE(cleared.json()["data"]["retentionDays"].is_null());
  auto neither = server.patch("/console/v1/account", owner, "{}");
  EXPECT_EQ(neither.status, 400);

  auto set = server.admin({"account", "set-retention", account, "--days", "90"});
  EXPECT_EQ(set["retentionDays"], 90);
  auto forever = server.admin({"account", "set-retention", account, "--forever"});
  EXPECT_TRUE(forever["retentionDays"].is_null());
  auto zero = server.admin({"account", "set-retention", account, "--days", "0"}, true);
  EXPECT_NE(zero["stderr"].get<std::string>().find("invalid_request"), std::string::npos);
  auto none = server.admin({"account", "set-retention", account}, true);
  EXPECT_NE(none["stderr"].get<std::string>().find("--forever"), std::string::npos);
  auto unknown = server.admin({"account", "set-retention", "acc_unknown", "--days", "3"}, true);
  EXPECT_NE(unknown["stderr"].get<std::string>().find("not_found"), std::string::npos);
}

TEST(RecordsRetention, TheWorkerDeletesOnlyWhatIsOlderThanTheAccountKeeps) {
  TestClock clock;
  Env env = unlimited();
  env["PARLEY_RETENTION_INTERVAL_MS"] = "100";
  env["PARLEY_RETENTION_BATCH"] = "2";  // several batches
  Server server(env, clock.args());
  std::string account = server.create_account(), other_account = server.create_account();
  std::string agent = server.create_agent(account),
              other_agent = server.create_agent(other_account);
  std::string webhook =
      server.admin({"webhook", "add", "--agent", agent, "--url", "https://127.0.0.1:9/h",
                    "--events", "handoff.requested", "--allow-private-targets"})["id"];
  std::vector<std::string> old;
  for (int i = 0; i < 5; ++i) old.push_back(conversation(server, agent));
  handoff_event_delivered(server, account, agent, old[0], webhook);
  std::string kept_elsewhere = conversation(server, other_agent);
  server.admin({"account", "set-retention", account, "--days", "30"});

  // Thirty-one days later, one more conversation starts; the five from before are past 30 days.
  clock.advance_ms(31 * kDayMs);
  auto chat = server.post("/api/v1/agents/" + agent + "/chat", server.create_key(account),
                          R"({"message": "Hello again"})");
  ASSERT_EQ(chat.status, 200) << chat.body;
  std::string fresh = chat.json()["conversationId"];

  for (int i = 0;
       i < 200 &&
       server.sql_int("SELECT count(*) FROM conversations WHERE agent_id = '" + agent + "'") > 1;
       ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  auto left = server.sql("SELECT id FROM conversations WHERE agent_id = '" + agent + "'");
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0][0], fresh);
  EXPECT_EQ(
      server.sql_int("SELECT count(*) FROM messages WHERE conversation_id = '" + old[0] + "'"), 0);
  EXPECT_EQ(
      server.sql_int("SELECT count(*) FROM event_outbox WHERE event_id LIKE '" + old[0] + "%'"), 0);
  EXPECT_EQ(server.sql_int("SELECT count(*) FROM webhook_deliveries WHERE event_id LIKE '" +
                           old[0] + "%'"),
            0);
  EXPECT_GE(server.sql_int("SELECT count(*) FROM messages WHERE conversation_id = '" + fresh + "'"),
            1);
  // Another account keeps its conversations for ever (no retention set).
  EXPECT_EQ(
      server.sql_int("SELECT count(*) FROM conversations WHERE id = '" + kept_elsewhere + "'"), 1);
  // The agent's counters follow.
  auto agent_json = server.get("/api/v1/agents/" + agent, server.create_key(account));
  ASSERT_EQ(agent_json.status, 200);
  EXPECT_EQ(agent_json.json()["data"]["counts"]["conversations"], 1) << agent_json.body;
}

}  // namespace
}  // namespace parley::e2e
