// Keyset pages against a brute-force answer: every page of every `since`, on both plans of the
// older part (few active items: activity index; many: ordered index), with ties of creation time.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "store/conversation_queries.h"

namespace parley {
namespace {

struct Item {
  int64_t created;
  int64_t active;
  std::string id;
};

class KeysetPages : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    char dir_template[] = "/tmp/parley_keyset_test_XXXXXX";
    dir_ = mkdtemp(dir_template);
    auto db = open_database({"sqlite:" + dir_ + "/parley.db", Durability::kNormal});
    ASSERT_TRUE(db.ok());
    db_ = std::move(*db).release();
    std::mt19937_64 rng(42);
    items_ = new std::vector<Item>();
    auto r = db_->write([&](Connection& c) -> Result<void> {
      PARLEY_TRY(
          c.execute_script("INSERT INTO accounts (id, name, plan, created_at, updated_at) VALUES "
                           "('acc_k', 'k', 'pro', 0, 0);"
                           "INSERT INTO agents (id, account_id, name, created_at, updated_at) "
                           "VALUES ('agt_k', 'acc_k', 'k', 0, 0);"));
      for (int i = 0; i < 2600; ++i) {
        ConversationRecord conv;
        conv.id = "cnv_" + std::to_string(1000000 + rng() % 9000000) + "x" + std::to_string(i);
        conv.agent_id = "agt_k";
        conv.account_id = "acc_k";
        conv.session_id = "s" + std::to_string(i);
        conv.created_at = static_cast<int64_t>(rng() % 500) * 10;  // many ties
        // Most stay quiet; a tenth are active long after their creation.
        conv.last_activity_at =
            conv.created_at + (rng() % 10 == 0 ? static_cast<int64_t>(rng() % 5000) : 5);
        PARLEY_TRY(ConversationRepo::insert(c, conv));
        items_->push_back({conv.created_at, conv.last_activity_at, conv.id});
      }
      return {};
    });
    ASSERT_TRUE(r.ok()) << r.error().message;
  }
  static void TearDownTestSuite() {
    delete db_;
    delete items_;
    std::filesystem::remove_all(dir_);
  }

  // Every id of the list with `since`, paged by `limit`.
  static std::vector<std::string> paged(std::optional<int64_t> since, int64_t limit) {
    std::vector<std::string> ids;
    PageQuery q;
    q.limit = limit;
    q.since = since;
    for (int guard = 0; guard < 10000; ++guard) {
      auto page = ConversationQueries::list(db_->read()->get(), "agt_k", q);
      EXPECT_TRUE(page.ok());
      for (const auto& c : page->items) ids.push_back(c.id);
      if (!page->has_more) return ids;
      EXPECT_EQ(static_cast<int64_t>(page->items.size()), limit);
      q.after = KeysetPosition{page->items.back().created_at, page->items.back().id};
    }
    ADD_FAILURE() << "no end";
    return ids;
  }

  static std::vector<std::string> expected(std::optional<int64_t> since) {
    std::vector<Item> matching;
    for (const auto& it : *items_)
      if (!since || it.active >= *since) matching.push_back(it);
    std::sort(matching.begin(), matching.end(), [](const Item& a, const Item& b) {
      return a.created != b.created ? a.created > b.created : a.id > b.id;
    });
    std::vector<std::string> ids;
    for (const auto& it : matching) ids.push_back(it.id);
    return ids;
  }

  static std::string dir_;
  static Database* db_;
  static std::vector<Item>* items_;
};
std::string KeysetPages::dir_;
Database* KeysetPages::db_ = nullptr;
std::vector<Item>* KeysetPages::items_ = nullptr;

TEST_F(KeysetPages, WithoutSinceEveryItemOnceInOrder) {
  EXPECT_EQ(paged(std::nullopt, 97), expected(std::nullopt));
}

TEST_F(KeysetPages, SinceWithFewActiveItemsUsesTheActivityIndexCorrectly) {
  for (int64_t since : {4500, 4990, 5005, 6000, 9000}) {
    auto want = expected(since);
    ASSERT_LT(static_cast<int64_t>(std::count_if(items_->begin(), items_->end(),
                                                 [&](const Item& i) { return i.active >= since; })),
              kActiveSetLimit);
    EXPECT_EQ(paged(since, 7), want) << since;
    EXPECT_EQ(paged(since, 100), want) << since;
  }
}

TEST_F(KeysetPages, SinceWithManyActiveItemsWalksTheOrderedIndexCorrectly) {
  for (int64_t since : {0, 300, 1000}) {
    auto want = expected(since);
    ASSERT_GE(static_cast<int64_t>(want.size()), kActiveSetLimit);
    EXPECT_EQ(paged(since, 100), want) << since;
    EXPECT_EQ(paged(since, 33), want) << since;
  }
}

}  // namespace
}  // namespace parley
