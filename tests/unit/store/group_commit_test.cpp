// Group commit when SQLite ends the transaction by itself: a database capped with
// PRAGMA max_page_count makes a write fail with SQLITE_FULL in the middle of a batch, which rolls
// back the whole transaction. Every job's result must then tell the truth (ok exactly when its
// rows are stored), no job may be half stored, and the jobs after the failure still run. And an
// I/O error while the batch commits (a VFS that fails writes) reports every job as not stored.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>

#include "faulty_vfs.h"
#include "store/sqlite/group_commit.h"

namespace parley {
namespace {

class GroupCommitFull : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir_template[] = "/tmp/parley_group_commit_XXXXXX";
    dir_ = mkdtemp(dir_template);
    auto conn = SqliteConnection::open(dir_ + "/t.db", Durability::kNormal);
    ASSERT_TRUE(conn.ok());
    c_ = std::move(*conn);
    ASSERT_TRUE(c_->execute_script("CREATE TABLE t (name TEXT PRIMARY KEY, body BLOB)").ok());
    ASSERT_TRUE(c_->execute("INSERT INTO t (name, body) VALUES ('seed', zeroblob(10))", {}).ok());
    auto pages = c_->query_int("PRAGMA page_count", {});
    ASSERT_TRUE(pages.ok() && pages->has_value());
    // Room for small rows in the pages there are, none for a large one.
    ASSERT_TRUE(c_->execute_script("PRAGMA max_page_count=" + std::to_string(**pages + 1)).ok());
  }
  void TearDown() override {
    c_.reset();
    std::filesystem::remove_all(dir_);
  }

  static WriteFn insert(std::string name, int64_t bytes) {
    return [name, bytes](Connection& c) -> Result<void> {
      PARLEY_TRY(c.execute("INSERT INTO t (name, body) VALUES ($1, zeroblob($2))", {name, bytes}));
      return {};
    };
  }
  bool stored(std::string_view name) {
    auto n = c_->query_int("SELECT count(*) FROM t WHERE name = $1", {name});
    return n.ok() && n->value_or(0) == 1;
  }

  std::string dir_;
  std::unique_ptr<SqliteConnection> c_;
};

TEST_F(GroupCommitFull, EveryResultTellsWhetherItsWriteWasStored) {
  WriteFn before = insert("before", 10);
  WriteFn full = insert("full", 1 << 20);
  // Two rows in one job: the second fails, so neither may stay.
  WriteFn half = [](Connection& c) -> Result<void> {
    PARLEY_TRY(c.execute("INSERT INTO t (name, body) VALUES ('half1', zeroblob(10))", {}));
    PARLEY_TRY(c.execute("INSERT INTO t (name, body) VALUES ('half2', zeroblob(1048576))", {}));
    return {};
  };
  // A job that ignores the failure and carries on: its later statement must not autocommit.
  WriteFn careless = [](Connection& c) -> Result<void> {
    (void)c.execute("INSERT INTO t (name, body) VALUES ('careless1', zeroblob(1048576))", {});
    (void)c.execute("INSERT INTO t (name, body) VALUES ('careless2', zeroblob(10))", {});
    return {};
  };
  WriteFn after = insert("after", 10);

  std::vector<const WriteFn*> jobs = {&before, &full, &half, &careless, &after};
  auto results = commit_group(*c_, jobs);
  ASSERT_EQ(results.size(), jobs.size());

  // SQLITE_FULL rolled back the transaction that held "before": it was not stored and says so.
  EXPECT_FALSE(stored("before"));
  ASSERT_FALSE(results[0].ok());
  EXPECT_EQ(results[0].error().code, ErrorCode::kUnavailable);
  EXPECT_FALSE(results[1].ok());
  EXPECT_FALSE(stored("full"));
  EXPECT_FALSE(results[2].ok());
  EXPECT_FALSE(stored("half1"));
  EXPECT_FALSE(stored("half2"));
  EXPECT_FALSE(stored("careless1"));
  EXPECT_FALSE(stored("careless2"));
  EXPECT_FALSE(results[3].ok());
  // The rest of the batch ran in a new transaction and was committed.
  EXPECT_TRUE(results[4].ok());
  EXPECT_TRUE(stored("after"));
  EXPECT_FALSE(c_->in_transaction());

  const char* names[] = {"before", "full", "half1", "careless2", "after"};
  for (size_t i = 0; i < jobs.size(); ++i) {
    EXPECT_EQ(results[i].ok(), stored(names[i])) << "job " << i;
  }
  std::string check;
  ASSERT_TRUE(c_->query("PRAGMA integrity_check", {}, [&](const Row& r) { check = r.text(0); }).ok());
  EXPECT_EQ(check, "ok");
}

TEST_F(GroupCommitFull, AFailingJobRollsBackOnlyItselfWhileTheTransactionLives) {
  WriteFn one = insert("one", 10);
  WriteFn dup = insert("seed", 10);  // constraint error: a statement error, the transaction lives
  WriteFn two = insert("two", 10);
  auto results = commit_group(*c_, {&one, &dup, &two});
  EXPECT_TRUE(results[0].ok());
  ASSERT_FALSE(results[1].ok());
  EXPECT_EQ(results[1].error().code, ErrorCode::kConflict);
  EXPECT_TRUE(results[2].ok());
  EXPECT_TRUE(stored("one"));
  EXPECT_TRUE(stored("two"));
}

Result<void> done(const Result<int64_t>& r) {
  if (!r.ok()) return r.error();
  return {};
}

TEST(GroupCommitIoError, AFailedCommitReportsEveryJobAsNotStored) {
  char dir_template[] = "/tmp/parley_group_commit_io_XXXXXX";
  std::string dir = mkdtemp(dir_template);
  {
    FaultyVfs vfs;
    auto conn = SqliteConnection::open(dir + "/t.db", Durability::kFull);
    ASSERT_TRUE(conn.ok());
    auto& c = **conn;
    ASSERT_TRUE(c.execute_script("CREATE TABLE t (name TEXT PRIMARY KEY)").ok());
    WriteFn a = [](Connection& c) { return done(c.execute("INSERT INTO t (name) VALUES ('a')", {})); };
    WriteFn b = [](Connection& c) -> Result<void> {
      // The pages stay in SQLite's cache until COMMIT writes them to the WAL, which now fails.
      FaultyVfs::fail_writes = true;
      return done(c.execute("INSERT INTO t (name) VALUES ('b')", {}));
    };
    auto results = commit_group(c, {&a, &b});
    FaultyVfs::fail_writes = false;
    ASSERT_FALSE(results[0].ok());
    EXPECT_EQ(results[0].error().code, ErrorCode::kUnavailable);
    ASSERT_FALSE(results[1].ok());
    EXPECT_EQ(results[1].error().code, ErrorCode::kUnavailable);
    EXPECT_FALSE(c.in_transaction());
    auto n = c.query_int("SELECT count(*) FROM t", {});
    ASSERT_TRUE(n.ok());
    EXPECT_EQ(n->value_or(-1), 0);
    // The writer goes on: the next batch commits.
    WriteFn again = [](Connection& c) { return done(c.execute("INSERT INTO t (name) VALUES ('again')", {})); };
    EXPECT_TRUE(commit_group(c, {&again})[0].ok());
  }
  std::filesystem::remove_all(dir);
}

// After a failed fsync the commit frame is in the WAL: the writer's process sees the batch as
// rolled back while recovery after a crash would replay it, so the process stops rather than
// answer; the next open finds the batch stored, and no caller was told otherwise.
TEST(GroupCommitIoErrorDeathTest, AFailedFsyncStopsTheProcessAndRecoveryKeepsTheBatch) {
  // "fast": the child forks here and keeps this test's directory.
  GTEST_FLAG_SET(death_test_style, "fast");
  char dir_template[] = "/tmp/parley_group_commit_fsync_XXXXXX";
  std::string dir = mkdtemp(dir_template);
  {
    auto conn = SqliteConnection::open(dir + "/t.db", Durability::kFull);
    ASSERT_TRUE(conn.ok());
    ASSERT_TRUE((*conn)->execute_script("CREATE TABLE t (name TEXT PRIMARY KEY); INSERT INTO t VALUES ('first')").ok());
  }
  EXPECT_EXIT(
      {
        FaultyVfs vfs;
        auto conn = SqliteConnection::open(dir + "/t.db", Durability::kFull);
        WriteFn warm = [](Connection& c) { return done(c.execute("INSERT INTO t (name) VALUES ('w')", {})); };
        (void)commit_group(**conn, {&warm});  // the WAL now has its header and frames
        WriteFn a = [](Connection& c) { return done(c.execute("INSERT INTO t (name) VALUES ('a')", {})); };
        FaultyVfs::fail_syncs = true;
        (void)commit_group(**conn, {&a});
        std::_Exit(0);  // not reached: the commit stops the process
      },
      ::testing::KilledBySignal(SIGABRT), "");
  auto conn = SqliteConnection::open(dir + "/t.db", Durability::kFull);
  ASSERT_TRUE(conn.ok());
  auto n = (*conn)->query_int("SELECT count(*) FROM t WHERE name = 'a'", {});
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->value_or(-1), 1);
  conn->reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace parley
