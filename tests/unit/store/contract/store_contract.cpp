#include "store_contract.h"

#include <stdlib.h>

#include <unistd.h>
#include <atomic>
#include <barrier>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <vector>

#include "store/account_repo.h"
#include "store/agent_repo.h"
#include "store/postgres/pg_connection.h"

namespace parley {

namespace {
std::unique_ptr<Database> open_closing_handle(const std::string& url) {
  DatabaseOptions options{url, Durability::kNormal, 2};
  options.confirm_heard_on_close = true;
  auto db = open_database(options);
  return db.ok() ? std::move(db).value() : nullptr;
}

class SqliteStore final : public StoreUnderTest {
 public:
  SqliteStore() {
    char dir_template[] = "/tmp/parley_store_contract_XXXXXX";
    dir_ = mkdtemp(dir_template);
    url_ = "sqlite:" + dir_ + "/parley.db";
    const std::string& url = url_;
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
  std::unique_ptr<Database> open_closing() override { return open_closing_handle(url_); }

 private:
  std::string dir_;
  std::string url_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Database> other_;
};

// A new database on the cluster PARLEY_TEST_POSTGRES_URL names (as the end-to-end harness uses
// it), dropped when the test ends.
class PostgresStore final : public StoreUnderTest {
 public:
  explicit PostgresStore(const std::string& cluster) : cluster_(cluster) {
    static std::atomic<int> counter{0};
    name_ = "parley_contract_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
    if (!admin("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)") ||
        !admin("CREATE DATABASE " + name_))
      return;
    url_ = cluster_.substr(0, cluster_.rfind('/') + 1) + name_;
    const std::string& url = url_;
    auto first = open_database({url, Durability::kNormal, 8});
    if (first.ok()) db_ = std::move(first).value();
    auto second = open_database({url, Durability::kNormal, 8});
    if (second.ok()) other_ = std::move(second).value();
  }
  ~PostgresStore() override {
    other_.reset();
    db_.reset();
    (void)admin("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
  }
  bool ok() const { return db_ && other_; }
  Database& db() override { return *db_; }
  Database& other() override { return *other_; }
  std::unique_ptr<Database> open_closing() override { return open_closing_handle(url_); }

 private:
  bool admin(const std::string& sql) {
    auto conn = PgConnection::open(cluster_, Durability::kNormal);
    return conn.ok() && (*conn)->execute_script(sql).ok();
  }

  std::string cluster_;
  std::string name_;
  std::string url_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Database> other_;
};
}  // namespace

std::unique_ptr<StoreUnderTest> open_postgres_store() {
  const char* cluster = std::getenv("PARLEY_TEST_POSTGRES_URL");
  if (cluster == nullptr || *cluster == '\0') return nullptr;
  auto store = std::make_unique<PostgresStore>(cluster);
  if (!store->ok()) return nullptr;
  return store;
}

std::vector<StoreBackend> store_backends() {
  // Both always, so that the list of tests does not depend on the environment (ctest lists them
  // once); the PostgreSQL ones skip without a cluster.
  return {{"Sqlite", open_sqlite_store}, {"Postgres", open_postgres_store}};
}

std::unique_ptr<StoreUnderTest> open_sqlite_store() {
  auto store = std::make_unique<SqliteStore>();
  if (!store->ok()) return nullptr;
  return store;
}

void StoreContract::SetUp() {
  const char* cluster = std::getenv("PARLEY_TEST_POSTGRES_URL");
  if (GetParam().name == "Postgres" && (cluster == nullptr || *cluster == '\0')) {
    GTEST_SKIP() << "PARLEY_TEST_POSTGRES_URL names no PostgreSQL cluster";
  }
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

ConversationRecord contract_conversation(std::string id, std::string agent, std::string account,
                                         int64_t at) {
  ConversationRecord c;
  c.id = std::move(id);
  c.agent_id = std::move(agent);
  c.account_id = std::move(account);
  c.session_id = "s_" + c.id;
  c.created_at = c.last_activity_at = at;
  return c;
}

MessageRecord contract_message(std::string id, std::string conversation, int64_t at) {
  return {std::move(id), std::move(conversation), 0, "user", "hello", std::nullopt, "[]", at};
}

}  // namespace parley
