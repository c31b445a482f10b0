// The contract every store backend keeps, as one test fixture parameterised over backends: each
// TEST_P(StoreContract, ...) runs once per backend instantiated in store_backends.cpp: SQLite in
// a temporary file, and PostgreSQL in a new database of the cluster PARLEY_TEST_POSTGRES_URL
// names, when it is set (scripts/test.sh runs them again with it).
//
// Concurrent tests write from several threads at once through two handles on the same store
// (as two processes sharing it would), and assert exact counts: a sequence, counter or cap that
// leaned on one writer at a time would show up there as a duplicate, a lost count or a row over
// the cap on a backend whose writers run side by side.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "store/conversation_repo.h"
#include "store/db.h"

namespace parley {

// One store under test, open until destroyed (which removes it).
class StoreUnderTest {
 public:
  virtual ~StoreUnderTest() = default;
  virtual Database& db() = 0;
  // A second, independent handle on the same store.
  virtual Database& other() = 0;
  // A third, opened as `parley admin` opens it (DatabaseOptions::confirm_heard_on_close).
  virtual std::unique_ptr<Database> open_closing() = 0;
};

struct StoreBackend {
  std::string name;
  std::function<std::unique_ptr<StoreUnderTest>()> open;  // a new, empty, migrated store
};
// Its name in test listings (ctest's test names), rather than its bytes.
inline void PrintTo(const StoreBackend& backend, std::ostream* out) { *out << backend.name; }

// A conversation row of `agent` on the API channel, begun at `at`, its session "s_<id>".
ConversationRecord contract_conversation(std::string id, std::string agent, std::string account,
                                         int64_t at);
// A visitor's message "hello" in `conversation`, written at `at`.
MessageRecord contract_message(std::string id, std::string conversation, int64_t at);

class StoreContract : public ::testing::TestWithParam<StoreBackend> {
 protected:
  static constexpr int kThreads = 8;

  void SetUp() override;
  void TearDown() override { store_.reset(); }

  Database& db() { return store_->db(); }
  // The second handle on the same store.
  Database& other() { return store_->other(); }
  // A new handle on the same store, opened as `parley admin` opens it; null when it cannot open.
  std::unique_ptr<Database> open_closing() { return store_->open_closing(); }
  // This thread's reading connection.
  Connection& reader();
  // Runs `fn` in a write transaction and fails the test when it fails.
  void write(const WriteFn& fn);
  // Runs fn(i, db) on kThreads threads started together; even threads use db(), odd ones the
  // second handle.
  void concurrently(const std::function<void(int, Database&)>& fn);

  // An account and an agent of it, created in SetUp.
  std::string account_ = "acc_contract";
  std::string agent_ = "agt_contract";
  int64_t now_ = 1'790'000'000'000;  // 2026-09-21

 private:
  std::unique_ptr<StoreUnderTest> store_;
};

// The SQLite backend: a database file in a new temporary directory.
std::unique_ptr<StoreUnderTest> open_sqlite_store();
// The PostgreSQL backend: a new database on the cluster PARLEY_TEST_POSTGRES_URL names; null
// when it is not set.
std::unique_ptr<StoreUnderTest> open_postgres_store();
// SQLite, and PostgreSQL (skipped unless PARLEY_TEST_POSTGRES_URL is set, as the end-to-end
// suite).
std::vector<StoreBackend> store_backends();

}  // namespace parley
