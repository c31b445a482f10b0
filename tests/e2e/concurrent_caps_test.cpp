// Counters and caps stay exact when many writers race: requests sent at once, spread over three
// nodes on PostgreSQL (on SQLite, one node takes them all), each cap admits exactly its allowance
// and every counter ends at the number of rows written.
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>

#include "chat_support.h"
#include "harness.h"

namespace parley::e2e {
namespace {

class ConcurrentCaps : public ::testing::Test {
 protected:
  void SetUp() override {
    nodes_.push_back(std::make_unique<Server>(unlimited()));
    if (on_postgres())
      for (int i = 0; i < 2; ++i) nodes_.push_back(Server::node_of(*nodes_[0], unlimited()));
    c_ = chat_setup(*nodes_[0]);
  }
  Server& node(size_t i) { return *nodes_[i % nodes_.size()]; }

  // Sends `n` requests at once (request i through node i mod nodes) and returns each status with
  // its error code, in order.
  std::vector<std::pair<long, std::string>> at_once(int n, const std::function<HttpResponse(Server&, int)>& send) {
    std::vector<std::pair<long, std::string>> out(static_cast<size_t>(n));
    std::atomic<int> next{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 12; ++t) {
      threads.emplace_back([&] {
        for (int i; (i = next.fetch_add(1)) < n;) {
          auto r = send(node(static_cast<size_t>(i)), i);
          out[static_cast<size_t>(i)] = {r.status, r.error_code()};
        }
      });
    }
    for (auto& t : threads) t.join();
    return out;
  }

  static int count(const std::vector<std::pair<long, std::string>>& rs, long status, const std::string& code = "") {
    int n = 0;
    for (const auto& [s, c] : rs) n += s == status && c == code;
    return n;
  }

  std::vector<std::unique_ptr<Server>> nodes_;
  ChatSetup c_;
};

TEST_F(ConcurrentCaps, ContactsPerAgentAdmitExactlyTheAllowance) {
  node(0).admin({"account", "set-limits", c_.account, R"({"contactsPerAgent": 15})"});
  auto rs = at_once(45, [&](Server& s, int i) {
    return s.post("/api/v1/agents/" + c_.agent + "/contacts", c_.key,
                  Json{{"external_id", "crm-" + std::to_string(i)}}.dump());
  });
  EXPECT_EQ(count(rs, 201), 15);
  EXPECT_EQ(count(rs, 403, "contact_limit_reached"), 30);
  auto listed = node(1).get("/api/v1/agents/" + c_.agent + "/contacts?limit=100", c_.key);
  ASSERT_EQ(listed.status, 200) << listed.body;
  EXPECT_EQ(listed.json()["data"].size(), 15u);
}

TEST_F(ConcurrentCaps, PlanMessagesAdmitExactlyTheAllowance) {
  node(0).admin({"account", "set-limits", c_.account, R"({"messagesPerMonth": 12})"});
  auto rs = at_once(36, [&](Server& s, int i) {
    return chat(s, c_, {{"message", "Hello " + std::to_string(i)}, {"sessionId", "s" + std::to_string(i)}});
  });
  EXPECT_EQ(count(rs, 200), 12);
  EXPECT_EQ(count(rs, 403, "message_limit_reached"), 24);
  auto counts = node(2).get("/api/v1/agents/" + c_.agent, c_.key).json()["data"]["counts"];
  EXPECT_EQ(counts["conversations"], 12);
  EXPECT_EQ(counts["messages"], 24);
}

TEST_F(ConcurrentCaps, TrainingCharactersAdmitExactlyTheAllowance) {
  node(0).admin({"account", "set-limits", c_.account, R"({"trainingCharacters": 100})"});
  auto rs = at_once(20, [&](Server& s, int i) {
    // Ten characters each: "Fact 00 ok" … "Fact 19 ok".
    char text[16];
    std::snprintf(text, sizeof text, "Fact %02d ok", i);
    return s.post("/api/v1/agents/" + c_.agent + "/sources", c_.key,
                  Json{{"type", "text"}, {"title", "F"}, {"content", text}}.dump());
  });
  EXPECT_EQ(count(rs, 201), 10);
  EXPECT_EQ(count(rs, 403, "character_limit_exceeded"), 10);
  auto agent = node(1).get("/api/v1/agents/" + c_.agent, c_.key).json()["data"];
  EXPECT_EQ(agent["counts"]["sources"], 10);
}

TEST_F(ConcurrentCaps, CountersEndAtTheRowsWritten) {
  auto rs = at_once(40, [&](Server& s, int i) {
    return chat(s, c_, {{"message", "Question " + std::to_string(i)}, {"sessionId", "c" + std::to_string(i % 8)}});
  });
  EXPECT_EQ(count(rs, 200), 40);
  // Every node shows them: the writing nodes from the counts their turns' statements returned
  // (corrected at the end of a turn whose session's conversation another request had started),
  // the others once told, within a second.
  for (size_t n = 0; n < nodes_.size(); ++n) {
    Json counts;
    for (int i = 0; i < 40; ++i) {
      counts = node(n).get("/api/v1/agents/" + c_.agent, c_.key).json()["data"]["counts"];
      if (counts["conversations"] == 8 && counts["messages"] == 80) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    EXPECT_EQ(counts["conversations"], 8) << "node " << n;
    EXPECT_EQ(counts["messages"], 80) << "node " << n;
  }
  // Each conversation's messages are numbered without gaps or repeats: five exchanges each.
  auto list = node(0).get("/api/v1/agents/" + c_.agent + "/conversations?limit=100", c_.key).json()["data"];
  ASSERT_EQ(list.size(), 8u);
  for (auto& conv : list) {
    EXPECT_EQ(conv["messageCount"], 10) << conv;
    auto read = node(1).get("/api/v1/conversations/" + conv["id"].get<std::string>(), c_.key).json()["data"];
    ASSERT_EQ(read["messages"].size(), 10u);
    for (size_t i = 0; i < 10; ++i) EXPECT_EQ(read["messages"][i]["role"], i % 2 == 0 ? "user" : "assistant");
  }
}

}  // namespace
}  // namespace parley::e2e
