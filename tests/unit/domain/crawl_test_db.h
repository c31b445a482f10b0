// A SQLite database in a temporary folder with an account (starter plan) and an agent, a manual
// clock and a resolver that answers from a table, for the crawl jobs' domain tests.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <map>

#include "core/clock.h"
#include "core/random.h"
#include "net/url_guard.h"
#include "store/account_repo.h"
#include "store/agent_repo.h"
#include "store/services.h"

namespace parley {

class TableResolver final : public Resolver {
 public:
  Result<std::vector<IpAddress>> resolve(const std::string& host) override {
    auto it = table.find(host);
    if (it == table.end()) return ApiError::invalid("'url' host " + host + " does not resolve.");
    return std::vector<IpAddress>{*parse_ip(it->second)};
  }
  std::map<std::string, std::string> table = {{"example.com", "93.184.216.34"},
                                              {"intranet.example.com", "10.1.2.3"}};
};

class CrawlDb : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir_template[] = "/tmp/parley_crawl_XXXXXX";
    dir_ = mkdtemp(dir_template);
    auto db = open_database({"sqlite:" + dir_ + "/parley.db", Durability::kNormal});
    ASSERT_TRUE(db.ok());
    db_ = std::move(*db);
    ASSERT_TRUE(db_->write([&](Connection& c) -> Result<void> {
                     PARLEY_TRY(AccountRepo::insert(
                         c, Account{kAccount, "Crawls", Plan::kStarter, "", kNow, kNow}));
                     AgentRecord a;
                     a.id = kAgent;
                     a.account_id = kAccount;
                     a.name = "Crawler";
                     a.created_at = a.updated_at = kNow;
                     return AgentRepo::insert(c, a);
                   })
                    .ok());
  }
  void TearDown() override {
    db_.reset();
    std::filesystem::remove_all(dir_);
  }
  Services services() { return Services{*db_, clock_, random_}; }
  Connection& reader() { return db_->read()->get(); }

  static constexpr const char* kAccount = "acc_crawl";
  static constexpr const char* kAgent = "agt_crawl";
  static constexpr int64_t kNow = 1'790'000'000'000;
  std::string dir_;
  std::unique_ptr<Database> db_;
  ManualClock clock_{kNow};
  SecureRandom random_;
  TableResolver resolver_;
};

}  // namespace parley
