// Knowledge memory bounded across tenants: with a budget far below one agent's index
// (--knowledge-memory-mb / PARLEY_KNOWLEDGE_MEMORY_MB), every question to another agent evicts
// the last one's index; each eviction's next question loads the index from its persisted form
// (never by analysing the sources again), and every answer stays the same. On PostgreSQL a
// second node, started after training, loads every agent from the shared database's forms.
#include <chrono>
#include <thread>

#include "chat_support.h"

namespace parley::e2e {
namespace {

// The value of a /metrics series, or -1 when it is absent.
double metric(const Server& s, const std::string& series) {
  auto r = s.request({"GET", "/metrics", "", {}});
  size_t at = r.body.find("\n" + series + " ");
  if (r.status != 200 || at == std::string::npos) return -1;
  return std::stod(r.body.substr(at + series.size() + 2));
}

const char* kFromForm = "parley_knowledge_index_loads_total{from=\"form\"}";
const char* kFromSources = "parley_knowledge_index_loads_total{from=\"sources\"}";
const char* kWritten = "parley_knowledge_index_forms_written_total";
const char* kEvictions = "parley_knowledge_index_evictions_total";

struct Shop {
  std::string name;
  std::string question;
  std::string expected;  // a phrase the reply holds
};

const std::vector<Shop> kShops = {
    {"kayaks", "How much is a kayak for a day?", "Kayaks cost 40 euros a day"},
    {"bikes", "When does the bike shop open?", "opens at eight"},
    {"tents", "How many people sleep in the big tent?", "sleeps six people"},
};

class KnowledgeMemory : public ::testing::Test {
 protected:
  static Env budget(const std::string& mb) {
    Env env = unlimited();
    env["PARLEY_KNOWLEDGE_MEMORY_MB"] = mb;
    return env;
  }
  // One account and agent per shop, each with its own knowledge, trained.
  std::vector<ChatSetup> train_shops(const Server& s) {
    std::vector<ChatSetup> shops;
    for (const auto& shop : kShops) {
      auto c = chat_setup(s);
      auto post = [&](const Json& body) {
        auto r = s.post("/api/v1/agents/" + c.agent + "/sources", c.key, body.dump());
        EXPECT_LT(r.status, 300) << r.body;
      };
      post({{"type", "text"},
            {"title", "Prices"},
            {"content",
             "Kayaks cost 40 euros a day. Canoes cost 30 euros a day. Paddles are free."}});
      post({{"type", "text"},
            {"title", "Opening hours"},
            {"content", "The bike shop opens at eight in the morning and closes at six."}});
      post({{"type", "text"},
            {"title", "Tents"},
            {"content", "The big tent sleeps six people. The small tent sleeps two."}});
      post({{"type", "qa"},
            {"question", "Who owns the " + shop.name + " shop?"},
            {"answer", "Maria has owned the " + shop.name + " shop since 2001."}});
      shops.push_back(c);
    }
    for (const auto& c : shops) {
      bool done = false;
      for (int i = 0; i < 1000 && !done; ++i) {
        auto r = s.get("/api/v1/agents/" + c.agent + "/sources", c.key);
        done = r.status == 200 && r.json()["training"]["done"] == true;
        if (!done) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      EXPECT_TRUE(done) << "training did not finish";
    }
    return shops;
  }
  // Polls until every agent's form is stored (the trainer writes them once nothing is left).
  static void wait_forms(const Server& s, size_t agents) {
    for (int i = 0; i < 1000; ++i) {
      auto rows = s.sql("SELECT count(*) FROM knowledge_index_forms");
      if (!rows.empty() && rows[0][0] == std::to_string(agents)) {
        // Every form is of its agent's current knowledge version.
        auto stale = s.sql(
            "SELECT count(*) FROM knowledge_index_forms f JOIN knowledge_versions v"
            " ON v.agent_id = f.agent_id WHERE f.version <> v.version");
        if (!stale.empty() && stale[0][0] == "0") return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL() << "the forms were not stored";
  }
  static Json ask(const Server& s, const ChatSetup& c, const std::string& q) {
    auto r = chat(s, c, {{"message", q}});
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json();
  }
};

TEST_F(KnowledgeMemory, ATinyBudgetEvictsAndEveryAnswerStaysTheSame) {
  Server s(budget("0.001"));  // about 1 KB: no index fits, each question evicts the one before
  auto shops = train_shops(s);
  wait_forms(s, shops.size());
  EXPECT_EQ(metric(s, "parley_knowledge_memory_budget_bytes"), 1048);
  double rebuilt = metric(s, kFromSources);

  std::vector<std::string> first;
  for (size_t round = 0; round < 3; ++round) {
    for (size_t i = 0; i < shops.size(); ++i) {
      size_t k = (i + round) % shops.size();
      const Shop& shop = kShops[k];
      Json price = ask(s, shops[k], shop.question);
      ASSERT_NE(price["reply"].get<std::string>().find(shop.expected), std::string::npos)
          << price.dump();
      Json owner = ask(s, shops[k], "Who owns the " + shop.name + " shop?");
      EXPECT_EQ(owner["reply"], "Maria has owned the " + shop.name + " shop since 2001.");
      std::string both = price["reply"].get<std::string>() + price["sources"].dump() +
                         owner["reply"].get<std::string>() + owner["sources"].dump();
      if (round == 0)
        first.push_back(both);  // k == i in the first round
      else
        EXPECT_EQ(both, first[k]) << "round " << round;
    }
  }
  // Every question after the first went to another agent than the one in memory.
  EXPECT_GE(metric(s, kEvictions), 8);
  EXPECT_GE(metric(s, kFromForm), 8);
  EXPECT_EQ(metric(s, kFromSources), rebuilt);  // no source was analysed again
  EXPECT_EQ(metric(s, "parley_knowledge_indexes_loaded"), 1);
  EXPECT_GT(metric(s, "parley_knowledge_memory_bytes"), 0);
}

TEST_F(KnowledgeMemory, AFormOfAnOldVersionIsNotUsedAfterTheKnowledgeChanged) {
  Server s(budget("0.001"));
  auto shops = train_shops(s);
  wait_forms(s, shops.size());
  // A new source for the first shop: its form is rewritten once the training ends.
  auto r = s.post(
      "/api/v1/agents/" + shops[0].agent + "/sources", shops[0].key,
      Json{
          {"type", "qa"}, {"question", "Do you sell maps?"}, {"answer", "Yes, maps of every lake."}}
          .dump());
  ASSERT_LT(r.status, 300) << r.body;
  for (int i = 0; i < 1000; ++i) {
    auto l = s.get("/api/v1/agents/" + shops[0].agent + "/sources", shops[0].key);
    if (l.json()["training"]["done"] == true) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  wait_forms(s, shops.size());
  ask(s, shops[1], kShops[1].question);  // evicts the first shop
  EXPECT_EQ(ask(s, shops[0], "Do you sell maps?")["reply"], "Yes, maps of every lake.");
  // Deleted: the answer is gone at once, and from the form written after the deletion too.
  std::string id = r.json()["data"]["id"];
  ASSERT_EQ(s.del("/api/v1/agents/" + shops[0].agent + "/sources/" + id, shops[0].key).status, 200);
  wait_forms(s, shops.size());
  ask(s, shops[1], kShops[1].question);
  EXPECT_EQ(ask(s, shops[0], "Do you sell maps?")["reply"], kDefaultFallback);
}

TEST_F(KnowledgeMemory, TwoNodesLoadFromTheSharedDatabase) {
  if (!on_postgres()) GTEST_SKIP() << "several nodes share a PostgreSQL database";
  Server first(budget("0.001"));
  auto shops = train_shops(first);
  wait_forms(first, shops.size());
  std::vector<std::string> replies;
  for (size_t k = 0; k < shops.size(); ++k)
    replies.push_back(ask(first, shops[k], kShops[k].question)["reply"]);
  // A node started now has nothing in memory and trains nothing: it reads the stored forms.
  auto second = Server::node_of(first, budget("0.001"));
  for (size_t k = 0; k < shops.size(); ++k)
    EXPECT_EQ(ask(*second, shops[k], kShops[k].question)["reply"], replies[k]);
  EXPECT_EQ(metric(*second, kFromForm), shops.size());
  EXPECT_EQ(metric(*second, kFromSources), 0);
  EXPECT_EQ(metric(*second, kWritten), 0);
}

}  // namespace
}  // namespace parley::e2e
