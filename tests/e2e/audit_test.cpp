// The audit log end to end, on SQLite or PostgreSQL: console changes recorded with who, from where
// and old/new values, never a secret; the log readable by owners and admins only, filtered and
// paged, each account its own; API key and admin CLI changes recorded as such; takeovers, plan
// changes, removals and revocations; another account's target leaves nothing.
#include "audit_support.h"

namespace parley::e2e {
namespace {

TEST_F(AuditLogE2e, ConsoleChangesAreRecordedWithOldAndNewValuesAndNoSecret) {
  auto patched = server_->patch(
      "/console/v1/agents/" + agent_, owner_,
      R"({"name":"Front desk","settings":{"engine":"openai","llm":)"
      R"({"baseUrl":"https://api.provider.example/v1","model":"m","apiKey":"sk-audit-secret-1"}}})");
  ASSERT_EQ(patched.status, 200) << patched.body;
  auto key = server_->post("/console/v1/keys", owner_, R"({"name":"ci","allScopes":true})");
  ASSERT_EQ(key.status, 201) << key.body;
  std::string plaintext = key.json()["data"]["key"];
  std::string key_id = key.json()["data"]["id"];
  auto source =
      server_->post("/console/v1/agents/" + agent_ + "/sources", owner_,
                    R"({"type":"qa","question":"Do you open on Sundays?","answer":"No."})");
  ASSERT_EQ(source.status, 201) << source.body;
  std::string source_id = source.json()["data"]["id"];
  auto removed = server_->del("/console/v1/agents/" + agent_ + "/sources/" + source_id, owner_);
  ASSERT_EQ(removed.status, 200) << removed.body;

  auto update = entries("?action=agent.update");
  ASSERT_EQ(update.size(), 1u) << update.dump();
  const Json& e = update[0];
  EXPECT_EQ(e["actor"]["type"], "member");
  EXPECT_EQ(e["actor"]["id"], v_["owner"]["id"]);
  EXPECT_EQ(e["actor"]["name"], v_["owner"]["email"]);
  EXPECT_EQ(e["address"], "127.0.0.1");
  EXPECT_EQ(e["target"]["type"], "agent");
  EXPECT_EQ(e["target"]["id"], agent_);
  EXPECT_TRUE(e["createdAt"].is_string());
  ASSERT_NE(change_of(e, "name"), nullptr) << e.dump();
  EXPECT_EQ((*change_of(e, "name"))["new"], "Front desk");
  EXPECT_TRUE((*change_of(e, "name"))["old"].is_string());
  ASSERT_NE(change_of(e, "settings.engine"), nullptr) << e.dump();
  EXPECT_EQ((*change_of(e, "settings.engine"))["new"], "openai");
  ASSERT_NE(change_of(e, "settings.llm.apiKey"), nullptr) << e.dump();
  EXPECT_EQ((*change_of(e, "settings.llm.apiKey"))["old"], nullptr);
  EXPECT_EQ((*change_of(e, "settings.llm.apiKey"))["new"], "[redacted]");
  EXPECT_EQ((*change_of(e, "settings.llm.baseUrl"))["new"], "https://api.provider.example/v1");

  auto created = entries("?action=key.create&actor=" + std::string(v_["owner"]["id"]));
  ASSERT_EQ(created.size(), 1u);
  EXPECT_EQ(created[0]["target"]["id"], key_id);
  EXPECT_EQ((*change_of(created[0], "name"))["new"], "ci");
  EXPECT_EQ((*change_of(created[0], "name"))["old"], nullptr);

  auto sources = entries("?targetType=source");
  ASSERT_EQ(sources.size(), 2u) << sources.dump();
  EXPECT_EQ(sources[0]["action"], "source.delete");
  EXPECT_EQ(sources[0]["target"]["id"], source_id);
  EXPECT_EQ((*change_of(sources[0], "question"))["old"], "Do you open on Sundays?");
  EXPECT_EQ((*change_of(sources[0], "question"))["new"], nullptr);
  EXPECT_EQ(sources[1]["action"], "source.create");
  EXPECT_EQ((*change_of(sources[1], "answer"))["new"], "No.");

  // No secret anywhere in the log: not in the answer, not in the stored rows.
  std::string text = audit_text();
  EXPECT_EQ(text.find("sk-audit-secret-1"), std::string::npos);
  EXPECT_EQ(text.find(plaintext), std::string::npos);
  EXPECT_EQ(text.find(owner_), std::string::npos);
  for (const auto& row : server_->sql("SELECT changes, actor_name FROM audit_entries")) {
    for (const auto& cell : row) {
      EXPECT_EQ(cell.find("sk-audit-secret-1"), std::string::npos) << cell;
      EXPECT_EQ(cell.find(plaintext.substr(9)), std::string::npos) << cell;
    }
  }
}

TEST_F(AuditLogE2e, OnlyOwnersAndAdminsReadTheirOwnAccountsLog) {
  ASSERT_EQ(server_->patch("/console/v1/agents/" + agent_, owner_, R"({"name":"A"})").status, 200);
  for (const std::string role : {"editor", "viewer"}) {
    auto r = server_->get("/console/v1/audit", v_[role]);
    EXPECT_EQ(r.status, 403) << role;
    EXPECT_EQ(r.error_code(), "forbidden") << role;
    EXPECT_NE(r.error_message().find("admin"), std::string::npos) << r.error_message();
  }
  EXPECT_EQ(entries("?action=agent.update", admin_).size(), 1u);
  // Another account sees none of it, even asking by this account's agent.
  auto other = server_->get("/console/v1/audit?targetId=" + agent_, v_["otherOwner"]);
  ASSERT_EQ(other.status, 200) << other.body;
  EXPECT_TRUE(other.json()["data"].empty()) << other.body;
  auto all_other = server_->get("/console/v1/audit?limit=100", v_["otherOwner"]);
  EXPECT_EQ(all_other.body.find(account_), std::string::npos);

  struct Bad {
    std::string query, word;
  };
  for (const auto& b :
       {Bad{"?limit=0", "'limit'"}, Bad{"?limit=101", "'limit'"}, Bad{"?from=yesterday", "'from'"},
        Bad{"?to=2026-13-45", "'to'"}, Bad{"?cursor=abc", "'cursor'"}, Bad{"?action=", "'action'"},
        Bad{"?from=2026-02-01&to=2026-01-01", "'from'"}}) {
    auto r = server_->get("/console/v1/audit" + b.query, owner_);
    EXPECT_EQ(r.status, 400) << b.query;
    EXPECT_EQ(r.error_code(), "invalid_request") << b.query;
    EXPECT_NE(r.error_message().find(b.word), std::string::npos)
        << b.query << ": " << r.error_message();
  }
}

TEST_F(AuditLogE2e, FiltersAndPages) {
  ASSERT_EQ(server_->patch("/console/v1/agents/" + agent_, owner_, R"({"name":"One"})").status,
            200);
  ASSERT_EQ(server_->patch("/console/v1/agents/" + agent_, admin_, R"({"name":"Two"})").status,
            200);
  ASSERT_EQ(server_->patch("/console/v1/agents/" + agent_, admin_, R"({"private":true})").status,
            200);
  // Unchanged values are no change.
  ASSERT_EQ(server_->patch("/console/v1/agents/" + agent_, admin_, R"({"private":true})").status,
            200);

  auto by_admin = entries("?actor=" + std::string(v_["admin"]["id"]));
  ASSERT_EQ(by_admin.size(), 2u) << by_admin.dump();
  EXPECT_EQ(by_admin[0]["changes"][0]["field"], "private");
  EXPECT_EQ(by_admin[1]["changes"][0]["new"], "Two");
  // The prefix also keeps the seed's agent.create (made through the CLI).
  auto agent_actions = entries("?action=agent.");
  ASSERT_EQ(agent_actions.size(), 4u);
  EXPECT_EQ(agent_actions[3]["action"], "agent.create");
  EXPECT_EQ(agent_actions[3]["actor"]["type"], "cli");
  EXPECT_EQ(entries("?targetType=agent&targetId=" + agent_).size(), 4u);
  EXPECT_TRUE(entries("?to=2000-01-01").empty());
  EXPECT_EQ(entries("?action=agent.update&from=2000-01-01").size(), 3u);

  auto first = server_->get("/console/v1/audit?action=agent.update&limit=2", owner_);
  ASSERT_EQ(first.status, 200);
  ASSERT_EQ(first.json()["data"].size(), 2u);
  EXPECT_EQ(first.json()["hasMore"], true);
  std::string cursor = first.json()["nextCursor"];
  auto second =
      server_->get("/console/v1/audit?action=agent.update&limit=2&cursor=" + cursor, owner_);
  ASSERT_EQ(second.status, 200) << second.body;
  ASSERT_EQ(second.json()["data"].size(), 1u);
  EXPECT_EQ(second.json()["hasMore"], false);
  EXPECT_EQ(second.json()["nextCursor"], nullptr);
  EXPECT_LT(second.json()["data"][0]["seq"].get<int64_t>(),
            first.json()["data"][1]["seq"].get<int64_t>());
  EXPECT_EQ(second.json()["data"][0]["changes"][0]["new"], "One");
  // A cursor of this account's list is not one of another's.
  auto foreign = server_->get("/console/v1/audit?cursor=" + cursor, v_["otherOwner"]);
  EXPECT_EQ(foreign.status, 400);
}

TEST_F(AuditLogE2e, AdminCliChangesAreRecordedAsTheCli) {
  server_->admin({"agent", "update", agent_, "--name", "Named by ops"});
  auto listed =
      server_->admin({"audit", "list", "--account", account_, "--action", "agent.update"});
  ASSERT_EQ(listed["data"].size(), 1u) << listed.dump();
  const Json& e = listed["data"][0];
  EXPECT_EQ(e["actor"]["type"], "cli");
  EXPECT_EQ(e["actor"]["id"], nullptr);
  EXPECT_EQ(std::string(e["actor"]["name"]).rfind("admin CLI (", 0), 0u) << e.dump();
  EXPECT_EQ(e["address"], nullptr);
  EXPECT_EQ((*change_of(e, "name"))["new"], "Named by ops");
  // The seed's members were added through the CLI too.
  auto members =
      server_->admin({"audit", "list", "--account", account_, "--action", "member.create"});
  EXPECT_EQ(members["data"].size(), 4u);
  auto bad = server_->admin({"audit", "list", "--account", account_, "--limit", "0"}, true);
  EXPECT_NE(std::string(bad["stderr"]).find("'limit'"), std::string::npos) << bad.dump();
}

TEST_F(AuditLogE2e, ApiWritesAreRecordedAsTheKey) {
  std::string key = v_["key"]["key"];
  auto added =
      server_->post("/api/v1/agents/" + agent_ + "/sources", key,
                    R"({"type":"qa","question":"Where are you?","answer":"Main street."})");
  ASSERT_EQ(added.status, 201) << added.body;
  std::string source_id = added.json()["data"]["id"];
  ASSERT_EQ(server_->del("/api/v1/agents/" + agent_ + "/sources/" + source_id, key).status, 200);

  auto by_key = entries("?actor=" + std::string(v_["key"]["id"]));
  ASSERT_EQ(by_key.size(), 2u) << by_key.dump();
  EXPECT_EQ(by_key[0]["action"], "source.delete");
  EXPECT_EQ(by_key[1]["action"], "source.create");
  EXPECT_EQ(by_key[1]["target"]["id"], source_id);
  EXPECT_EQ(by_key[1]["actor"]["type"], "key");
  EXPECT_EQ(by_key[1]["actor"]["name"], "backend");
  EXPECT_EQ(by_key[1]["address"], "127.0.0.1");
  EXPECT_EQ((*change_of(by_key[1], "question"))["new"], "Where are you?");
  EXPECT_EQ(audit_text().find(key), std::string::npos);
  // Reads are not changes.
  ASSERT_EQ(server_->get("/api/v1/agents/" + agent_ + "/sources", key).status, 200);
  EXPECT_EQ(entries("?actor=" + std::string(v_["key"]["id"])).size(), 2u);
}

TEST_F(AuditLogE2e, TakeoversRolesPlansAndRevocationsAreRecordedAndForeignTargetsAreNot) {
  auto conv = server_->admin({"conversation", "create", "--agent", agent_, "--messages",
                              R"([{"role":"user","content":"A person, please"}])"});
  std::string conv_id = conv["id"];
  ASSERT_EQ(
      server_->post("/console/v1/conversations/" + conv_id + "/takeover", owner_, "{}").status,
      200);
  ASSERT_EQ(server_->post("/console/v1/conversations/" + conv_id + "/end", owner_, "{}").status,
            200);
  auto taken = entries("?targetId=" + conv_id);
  ASSERT_EQ(taken.size(), 2u) << taken.dump();
  EXPECT_EQ(taken[1]["action"], "conversation.takeover");
  EXPECT_EQ((*change_of(taken[1], "liveChat"))["new"], "active");
  EXPECT_EQ(taken[0]["action"], "conversation.end_live_chat");
  EXPECT_EQ((*change_of(taken[0], "liveChat"))["new"], "ended");

  ASSERT_EQ(server_->patch("/console/v1/account", owner_, R"({"plan":"pro"})").status, 200);
  auto plan = entries("?action=account.update&actor=" + std::string(v_["owner"]["id"]));
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0]["target"]["id"], account_);
  EXPECT_EQ((*change_of(plan[0], "plan"))["old"], "starter");
  EXPECT_EQ((*change_of(plan[0], "plan"))["new"], "pro");

  auto removed = server_->del("/console/v1/members/" + std::string(v_["admin"]["id"]), owner_);
  ASSERT_EQ(removed.status, 200) << removed.body;
  auto gone = entries("?action=member.remove");
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ((*change_of(gone[0], "role"))["old"], "admin");
  EXPECT_EQ((*change_of(gone[0], "role"))["new"], nullptr);

  ASSERT_EQ(server_->del("/console/v1/keys/" + std::string(v_["key"]["id"]), owner_).status, 200);
  auto revoked = entries("?action=key.revoke");
  ASSERT_EQ(revoked.size(), 1u);
  EXPECT_EQ((*change_of(revoked[0], "revokedAt"))["old"], nullptr);
  EXPECT_TRUE((*change_of(revoked[0], "revokedAt"))["new"].is_string());

  // Another account's agent is a 404 and leaves nothing in either log.
  auto before = entries("?limit=100").size();
  auto foreign =
      server_->patch("/console/v1/agents/" + agent_, v_["otherOwner"], R"({"name":"Taken"})");
  EXPECT_EQ(foreign.status, 404);
  EXPECT_EQ(entries("?limit=100").size(), before);
  auto other = server_->get("/console/v1/audit?action=agent.update", v_["otherOwner"]);
  EXPECT_TRUE(other.json()["data"].empty()) << other.body;
}

}  // namespace
}  // namespace parley::e2e
