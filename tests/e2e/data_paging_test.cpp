// Pagination shared by the conversation, lead and contact lists: limit, cursor and since
// validation; 250 items paged by 100 while items are added, with no duplicate and no gap; ties
// of creation time broken by id.
#include <set>

#include "harness.h"

namespace parley::e2e {
namespace {

class DataPaging : public SeededServerTest {
 protected:
  // Each test has its own server, started from the suite's seed (made once for all of them).
  const Seed& suite_seed() override {
    return account_seed("DataPaging", "pro");
  }
  // Pages through `path` with limit 100, calling `between` after each page; returns the ids.
  std::vector<std::string> page_through(const std::string& path,
                                        const std::function<void()>& between,
                                        int* pages = nullptr) const {
    std::vector<std::string> ids;
    std::string cursor;
    for (int n = 1; n < 20; ++n) {
      std::string url = path + "?limit=100" + (cursor.empty() ? "" : "&cursor=" + cursor);
      auto r = server_->get(url, key_);
      EXPECT_EQ(r.status, 200) << r.body;
      auto j = r.json();
      for (auto& item : j["data"]) ids.push_back(item["id"]);
      if (!j["hasMore"].get<bool>()) {
        EXPECT_TRUE(j["nextCursor"].is_null());
        if (pages) *pages = n;
        return ids;
      }
      EXPECT_EQ(j["data"].size(), 100u);
      cursor = j["nextCursor"];
      between();
    }
    ADD_FAILURE() << "paging did not end";
    return ids;
  }
  static void expect_invalid(const HttpResponse& r, const std::string& parameter) {
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(r.error_code(), "invalid_request");
    EXPECT_NE(r.error_message().find("'" + parameter + "'"), std::string::npos) << r.body;
  }
};

TEST_F(DataPaging, ConversationsPagedWhileNewOnesArriveHaveNoDuplicateOrGap) {
  // All 250 share one creation time: the order falls back to the id.
  auto made = server_->admin({"conversation", "create", "--agent", agent_, "--count", "250",
                              "--created-at", "2026-05-01T00:00:00.000Z"})["data"];
  std::set<std::string> expected;
  for (auto& c : made) expected.insert(c["id"]);
  ASSERT_EQ(expected.size(), 250u);
  std::string path = "/api/v1/agents/" + agent_ + "/conversations";
  int pages = 0;
  auto ids = page_through(
      path,
      [&] {
        server_->admin({"conversation", "create", "--agent", agent_, "--count", "3"});
        // Activity on an old conversation does not move it.
        server_->admin(
            {"conversation", "add-message", made[0]["id"], "--role", "user", "--content", "again"});
      },
      &pages);
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(ids.size(), 250u);
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()), expected);
  auto sorted = ids;
  std::sort(sorted.begin(), sorted.end(), std::greater<>());
  EXPECT_EQ(ids, sorted);
}

TEST_F(DataPaging, ContactsPagedWhileNewOnesArriveHaveNoDuplicateOrGap) {
  Json batch = Json::array();
  for (int i = 0; i < 250; ++i) batch.push_back({{"external_id", "user-" + std::to_string(i)}});
  auto made =
      server_->admin({"contact", "import", "--agent", agent_, "--json", batch.dump()})["data"];
  std::set<std::string> expected;
  for (auto& c : made) expected.insert(c["id"]);
  int added = 0;
  auto ids = page_through("/api/v1/agents/" + agent_ + "/contacts", [&] {
    for (int i = 0; i < 3; ++i) {
      auto r = server_->post("/api/v1/agents/" + agent_ + "/contacts", key_,
                             Json{{"external_id", "late-" + std::to_string(added++)}}.dump());
      EXPECT_EQ(r.status, 201);
    }
    EXPECT_EQ(server_
                  ->post("/api/v1/agents/" + agent_ + "/contacts", key_,
                         R"({"external_id":"user-7","name":"x"})")
                  .status,
              200);
  });
  EXPECT_EQ(ids.size(), 250u);
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()), expected);
}

TEST_F(DataPaging, LeadsPageWithCursorAndSameSince) {
  for (int i = 0; i < 5; ++i) {
    server_->admin({"lead", "create", "--agent", agent_, "--email",
                    "p" + std::to_string(i) + "@example.com", "--at",
                    "2026-06-0" + std::to_string(i + 1) + "T00:00:00Z"});
  }
  std::string path = "/api/v1/agents/" + agent_ + "/leads?limit=2&since=2026-06-02T00:00:00Z";
  auto p1 = server_->get(path, key_).json();
  ASSERT_EQ(p1["data"].size(), 2u);
  EXPECT_EQ(p1["data"][0]["email"], "p4@example.com");
  EXPECT_EQ(p1["hasMore"], true);
  auto p2 = server_->get(path + "&cursor=" + p1["nextCursor"].get<std::string>(), key_).json();
  ASSERT_EQ(p2["data"].size(), 2u);
  EXPECT_EQ(p2["data"][1]["email"], "p1@example.com");
  EXPECT_EQ(p2["hasMore"], false);
  EXPECT_TRUE(p2["nextCursor"].is_null());
  auto exact = server_->get("/api/v1/agents/" + agent_ + "/leads?limit=5", key_).json();
  EXPECT_EQ(exact["data"].size(), 5u);
  EXPECT_EQ(exact["hasMore"], false);
  auto dflt = server_->get("/api/v1/agents/" + agent_ + "/leads?limit=1", key_).json();
  EXPECT_EQ(dflt["hasMore"], true);
}

TEST_F(DataPaging, DefaultLimitIsTwenty) {
  server_->admin({"conversation", "create", "--agent", agent_, "--count", "21"});
  auto j = server_->get("/api/v1/agents/" + agent_ + "/conversations", key_).json();
  EXPECT_EQ(j["data"].size(), 20u);
  EXPECT_EQ(j["hasMore"], true);
  EXPECT_TRUE(j["nextCursor"].is_string());
  auto hundred = server_->get("/api/v1/agents/" + agent_ + "/conversations?limit=100", key_).json();
  EXPECT_EQ(hundred["data"].size(), 21u);
}

TEST_F(DataPaging, BadLimitCursorOrSinceIsRefusedNamingTheParameter) {
  server_->admin({"conversation", "create", "--agent", agent_, "--count", "3"});
  for (auto list : {"conversations", "leads", "contacts"}) {
    std::string path = "/api/v1/agents/" + agent_ + "/" + list;
    for (auto bad : {"0", "101", "-1", "abc", "1.5", "", "20x", "99999999999999999999"}) {
      expect_invalid(server_->get(path + "?limit=" + bad, key_), "limit");
    }
    for (auto bad : {"garbage", "", "bm90IGEgY3Vyc29y", "%%%"}) {
      expect_invalid(server_->get(path + "?cursor=" + bad, key_), "cursor");
    }
    for (auto bad : {"yesterday", "", "2026-13-01", "2026-01-01T25:00:00Z", "1700000000"}) {
      expect_invalid(server_->get(path + "?since=" + bad, key_), "since");
    }
    EXPECT_EQ(server_->get(path + "?limit=1&since=2026-01-01T00:00:00.000Z", key_).status, 200);
    EXPECT_EQ(server_->get(path + "?limit=100", key_).status, 200);
  }
  auto page = server_->get("/api/v1/agents/" + agent_ + "/conversations?limit=1", key_).json();
  std::string cursor = page["nextCursor"];
  // Edited, cut short, or reused on another list or agent: refused.
  std::string edited = cursor;
  edited[edited.size() / 2] = edited[edited.size() / 2] == 'A' ? 'B' : 'A';
  expect_invalid(server_->get("/api/v1/agents/" + agent_ + "/conversations?cursor=" + edited, key_),
                 "cursor");
  expect_invalid(
      server_->get("/api/v1/agents/" + agent_ + "/conversations?cursor=" + cursor.substr(0, 10),
                   key_),
      "cursor");
  expect_invalid(server_->get("/api/v1/agents/" + agent_ + "/leads?cursor=" + cursor, key_),
                 "cursor");
  auto other_agent = server_->create_agent(account_);
  expect_invalid(
      server_->get("/api/v1/agents/" + other_agent + "/conversations?cursor=" + cursor, key_),
      "cursor");
  EXPECT_EQ(
      server_->get("/api/v1/agents/" + agent_ + "/conversations?cursor=" + cursor, key_).status,
      200);
}

}  // namespace
}  // namespace parley::e2e
