// The audit log's hash chain end to end, on SQLite or PostgreSQL: concurrent writers (on one node
// and on three nodes sharing PostgreSQL) keep one contiguous chain with exact old values;
// `parley admin audit verify` holds on an untouched chain and names an edited, a deleted and a
// moved entry; entries a year old are purged at a node's start and the chain still verifies.
#include <thread>

#include "audit_support.h"

namespace parley::e2e {
namespace {

class AuditChainE2e : public AuditLogE2e {};

TEST_F(AuditChainE2e, ConcurrentChangesKeepOneChain) {
  std::vector<std::thread> writers;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i) {
    writers.emplace_back([&, i] {
      const std::string& token = i % 2 == 0 ? owner_ : admin_;
      auto r = i % 4 < 2 ? server_->patch("/console/v1/agents/" + agent_, token,
                                          R"({"name":"Name )" + std::to_string(i) + R"("})")
                         : server_->post("/console/v1/agents/" + agent_ + "/sources", token,
                                         R"({"type":"qa","question":"Question )" +
                                             std::to_string(i) + R"(?","answer":"Yes."})");
      if (r.status == 200 || r.status == 201) ++ok;
    });
  }
  for (auto& t : writers) t.join();
  EXPECT_EQ(ok.load(), 8);
  auto verdict = server_->admin({"audit", "verify", "--account", account_});
  EXPECT_EQ(verdict["ok"], true) << verdict.dump();
  auto page = server_->admin({"audit", "list", "--account", account_, "--limit", "100"});
  const Json& all = page["data"];
  ASSERT_GE(all.size(), 12u);
  for (size_t i = 0; i + 1 < all.size(); ++i) {
    EXPECT_EQ(all[i]["seq"].get<int64_t>(), all[i + 1]["seq"].get<int64_t>() + 1);
    EXPECT_EQ(all[i]["prevHash"], all[i + 1]["hash"]);
  }
  EXPECT_EQ(entries("?action=source.create&limit=100").size(), 4u);
}

TEST_F(AuditChainE2e, VerifyHoldsThenNamesATamperedEntry) {
  ASSERT_EQ(server_->patch("/console/v1/agents/" + agent_, owner_, R"({"name":"Before"})").status,
            200);
  ASSERT_EQ(server_->patch("/console/v1/agents/" + agent_, owner_, R"({"name":"After"})").status,
            200);
  auto ok = server_->admin({"audit", "verify"});
  EXPECT_EQ(ok["ok"], true) << ok.dump();
  EXPECT_GE(ok["entries"].get<int64_t>(), 8);

  std::string id = entries("?action=agent.update")[1]["id"];
  server_->sql("UPDATE audit_entries SET changes = '[]' WHERE id = '" + id + "'");
  auto bad = server_->admin({"audit", "verify"}, true);
  EXPECT_NE(bad["exit"], 0);
  std::string err = bad["stderr"];
  auto body = Json::parse(err);
  EXPECT_EQ(body["error"]["code"], "audit_chain_broken");
  EXPECT_EQ(body["error"]["verdict"]["entryId"], id);
  EXPECT_EQ(body["error"]["verdict"]["problem"], "edited");
  EXPECT_EQ(body["error"]["verdict"]["accountId"], account_);
  EXPECT_NE(std::string(body["error"]["message"]).find(id), std::string::npos) << err;
  // Another account's chain still holds.
  auto other = server_->admin({"audit", "verify", "--account", v_["other"]});
  EXPECT_EQ(other["ok"], true);
}

TEST_F(AuditChainE2e, VerifyNamesADeletedEntry) {
  ASSERT_EQ(server_->patch("/console/v1/agents/" + agent_, owner_, R"({"name":"Before"})").status,
            200);
  ASSERT_EQ(server_->patch("/console/v1/agents/" + agent_, owner_, R"({"name":"After"})").status,
            200);
  auto updates = entries("?action=agent.update");
  int64_t seq = updates[1]["seq"];
  server_->sql("DELETE FROM audit_entries WHERE id = '" + std::string(updates[1]["id"]) + "'");
  auto bad = server_->admin({"audit", "verify", "--account", account_}, true);
  auto body = Json::parse(std::string(bad["stderr"]));
  EXPECT_EQ(body["error"]["verdict"]["problem"], "deleted");
  EXPECT_EQ(body["error"]["verdict"]["seq"], seq);
  EXPECT_NE(std::string(body["error"]["message"]).find(std::string(updates[0]["id"])),
            std::string::npos)
      << body.dump();
}

TEST_F(AuditChainE2e, VerifyNamesReorderedEntries) {
  ASSERT_EQ(server_->patch("/console/v1/agents/" + agent_, owner_, R"({"name":"First"})").status,
            200);
  ASSERT_EQ(server_->patch("/console/v1/agents/" + agent_, owner_, R"({"name":"Second"})").status,
            200);
  auto updates = entries("?action=agent.update");
  int64_t a = updates[1]["seq"], b = updates[0]["seq"];
  // The two entries swap places: each keeps its hash, but seq is part of what it covers.
  server_->sql("UPDATE audit_entries SET seq = 0 - seq WHERE account_id = '" + account_ +
               "' AND seq IN (" + std::to_string(a) + ", " + std::to_string(b) + ")");
  server_->sql("UPDATE audit_entries SET seq = " + std::to_string(a + b) +
               " + seq WHERE account_id = '" + account_ + "' AND seq < 0");
  auto bad = server_->admin({"audit", "verify"}, true);
  auto body = Json::parse(std::string(bad["stderr"]));
  EXPECT_EQ(body["error"]["code"], "audit_chain_broken");
  EXPECT_EQ(body["error"]["verdict"]["seq"], a);
  EXPECT_EQ(body["error"]["verdict"]["entryId"], updates[0]["id"]);
}

TEST(AuditLogRetention, EntriesAYearOldArePurgedAndTheChainStillHolds) {
  TestClock clock;
  Server server(unlimited(), clock.args());
  std::string account = server.create_account();
  std::string agent = server.create_agent(account);
  std::string owner = create_member(server, account, "owner")["token"];
  ASSERT_EQ(server.patch("/console/v1/agents/" + agent, owner, R"({"name":"Old"})").status, 200);
  auto before = server.admin({"audit", "list", "--account", account, "--limit", "100"})["data"];
  ASSERT_EQ(before.size(), 4u);  // account, agent and member created, agent renamed

  // A year and a day later the node purges at its start; what is left still verifies, and the
  // chain goes on from the last purged entry.
  server.stop();
  clock.advance_ms(366LL * 24 * 60 * 60 * 1000);
  server.restart();
  EXPECT_TRUE(server.admin({"audit", "list", "--account", account})["data"].empty());
  auto chain =
      server.sql("SELECT last_seq, purged_seq FROM audit_chains WHERE id = '" + account + "'");
  ASSERT_EQ(chain.size(), 1u);
  EXPECT_EQ(chain[0][0], "4");
  EXPECT_EQ(chain[0][1], "4");
  ASSERT_EQ(server.patch("/console/v1/agents/" + agent, owner, R"({"name":"New"})").status, 200);
  auto after = server.admin({"audit", "list", "--account", account})["data"];
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(after[0]["seq"], 5);
  EXPECT_EQ(after[0]["prevHash"], before[0]["hash"]);
  EXPECT_EQ(server.admin({"audit", "verify", "--account", account})["ok"], true);
  // Deleting the first kept entry is still seen.
  server.sql("DELETE FROM audit_entries WHERE account_id = '" + account + "'");
  auto bad = server.admin({"audit", "verify", "--account", account}, true);
  EXPECT_NE(std::string(bad["stderr"]).find("deleted"), std::string::npos) << bad.dump();
}

TEST(AuditLogNodes, WritersOnSeveralNodesKeepOneChain) {
  if (!on_postgres()) GTEST_SKIP() << "several nodes share a PostgreSQL database";
  auto first = std::make_unique<Server>(unlimited());
  std::vector<std::unique_ptr<Server>> nodes;
  for (int i = 0; i < 2; ++i) nodes.push_back(Server::node_of(*first, unlimited()));
  std::string account = first->create_account();
  std::string agent = first->create_agent(account);
  std::string owner = create_member(*first, account, "owner")["token"];
  std::vector<std::thread> writers;
  std::atomic<int> ok{0};
  for (int i = 0; i < 12; ++i) {
    writers.emplace_back([&, i] {
      const Server& node = i % 3 == 0 ? *first : *nodes[i % 3 - 1];
      auto r = node.patch("/console/v1/agents/" + agent, owner,
                          R"({"name":"Node name )" + std::to_string(i) + R"("})");
      if (r.status == 200) ++ok;
    });
  }
  for (auto& t : writers) t.join();
  EXPECT_EQ(ok.load(), 12);
  auto verdict = first->admin({"audit", "verify", "--account", account});
  EXPECT_EQ(verdict["ok"], true) << verdict.dump();
  auto updates = first->admin({"audit", "list", "--account", account, "--action", "agent.update",
                               "--limit", "100"})["data"];
  EXPECT_EQ(updates.size(), 12u);
  // Each entry's old name is the name the one before it set: the changes were serialised.
  for (size_t i = 0; i + 1 < updates.size(); ++i) {
    EXPECT_EQ(updates[i]["changes"][0]["old"], updates[i + 1]["changes"][0]["new"]) << i;
  }
}

}  // namespace
}  // namespace parley::e2e
