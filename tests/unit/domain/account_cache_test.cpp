// The account cache against a real SQLite file: an account is read once and served from memory
// until a commit changes it (here or in another Database on the same file); an unknown account is
// null.
#include "domain/account_cache.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

namespace parley {
namespace {

class AccountCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir_template[] = "/tmp/parley_account_cache_XXXXXX";
    dir_ = mkdtemp(dir_template);
    db_ = open();
    ASSERT_TRUE(db_->write([](Connection& c) {
                     return AccountRepo::insert(c, Account{"acc_c", "Acme", Plan::kStarter, "", 1, 1});
                   }).ok());
  }
  void TearDown() override {
    db_.reset();
    std::filesystem::remove_all(dir_);
  }
  std::unique_ptr<Database> open() {
    auto db = open_database({"sqlite:" + dir_ + "/parley.db", Durability::kNormal});
    EXPECT_TRUE(db.ok());
    return db.ok() ? std::move(*db) : nullptr;
  }
  static void set_limits(Database& db, std::string_view limits) {
    ASSERT_TRUE(db.write([limits](Connection& c) -> Result<void> {
                    PARLEY_TRY(AccountRepo::set_limits(c, "acc_c", limits, 2));
                    return {};
                  }).ok());
  }

  std::string dir_;
  std::unique_ptr<Database> db_;
};

TEST_F(AccountCacheTest, ServesFromMemoryUntilACommitChangesTheAccount) {
  AccountCache cache(*db_);
  auto first = cache.find("acc_c");
  ASSERT_TRUE(first.ok() && *first);
  EXPECT_EQ((*first)->plan, Plan::kStarter);
  EXPECT_FALSE((*first)->overrides.messages_per_month.has_value());
  auto again = cache.find("acc_c");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->get(), first->get());
  EXPECT_EQ(cache.loads(), 1u);

  set_limits(*db_, R"({"messagesPerMonth": 5})");
  auto changed = cache.find("acc_c");
  ASSERT_TRUE(changed.ok() && *changed);
  EXPECT_EQ((*changed)->overrides.messages_per_month, 5);
  EXPECT_EQ(cache.loads(), 2u);
}

TEST_F(AccountCacheTest, AChangeCommittedByAnotherDatabaseOnTheFileIsSeen) {
  AccountCache cache(*db_);
  ASSERT_TRUE(cache.find("acc_c").ok());
  auto other = open();  // as `parley admin` would, in its own process
  ASSERT_NE(other, nullptr);
  set_limits(*other, R"({"messagesPerMonth": 9})");
  auto seen = cache.find("acc_c");
  ASSERT_TRUE(seen.ok() && *seen);
  EXPECT_EQ((*seen)->overrides.messages_per_month, 9);
}

TEST_F(AccountCacheTest, AnUnknownAccountIsNull) {
  AccountCache cache(*db_);
  auto none = cache.find("acc_none");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, nullptr);
}

}  // namespace
}  // namespace parley
