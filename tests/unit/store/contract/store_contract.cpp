#include "store_contract.h"

#include <stdlib.h>

#include <barrier>
#include <filesystem>
#include <thread>
#include <vector>

#include "store/account_repo.h"
#include "store/agent_repo.h"

namespace parley {

namespace {
class SqliteStore final : public StoreUnderTest {
 public:
  SqliteStore() {
    char dir_template[] = "/tmp/parley_store_contract_XXXXXX";
    dir_ = mkdtemp(dir_template);
    const std::string url = "sqlite:" + dir_ + "/parley.db";
    auto first = open_database({url, Durability::kNormal});
    if (first.ok()) db_ = std::move(first).value();
    auto second = open_database({url, Durability::kNormal});
    if (second.ok()) other_ = std::move(second).value();
  }
  ~SqliteStore() override {
    other_.reset();
    db_.reset();
    std::filesystem::remove_all(dir_);
  }
  bool ok() const { return db_ && other_; }
  Database& db() override { return *db_; }
  Database& other() override { return *other_; }

 private:
  std::string dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Database> other_;
};
}  // namespace

std::unique_ptr<StoreUnderTest> open_sqlite_store() {
  auto store = std::make_unique<SqliteStore>();
  if (!store->ok()) return nullptr;
  return store;
}

void StoreContract::SetUp() {
  store_ = GetParam().open();
  ASSERT_NE(store_, nullptr) << "cannot open a " << GetParam().name << " store";
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(AccountRepo::insert(c, Account{account_, "Contract", Plan::kPro, "", now_, now_}));
    AgentRecord a;
    a.id = agent_;
    a.account_id = account_;
    a.name = "Contract agent";
    a.created_at = a.updated_at = now_;
    return AgentRepo::insert(c, a);
  });
}

Connection& StoreContract::reader() {
  auto c = db().read();
  EXPECT_TRUE(c.ok());
  return c->get();
}

void StoreContract::write(const WriteFn& fn) {
  auto r = db().write(fn);
  ASSERT_TRUE(r.ok()) << r.error().message;
}

void StoreContract::concurrently(const std::function<void(int, Database&)>& fn) {
  std::barrier start(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    Database& handle = i % 2 == 0 ? store_->db() : store_->other();
    threads.emplace_back([&, i] {
      start.arrive_and_wait();
      fn(i, handle);
    });
  }
  for (auto& t : threads) t.join();
}

}  // namespace parley
