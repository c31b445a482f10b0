// Single-row writes with synchronous=FULL: 32 concurrent writers through the group-commit writer
// against one commit (one fsync) per write on a plain connection.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>

#include "store/db.h"
#include "store/sqlite/sqlite_connection.h"

namespace parley {
namespace {

std::string temp_db_path(const char* name) {
  std::string dir = std::filesystem::temp_directory_path() / ("parley-bench-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::string path = dir + "/" + name + ".db";
  for (const char* suffix : {"", "-wal", "-shm", "-epoch"}) std::filesystem::remove(path + suffix);
  return path;
}

std::unique_ptr<Database> g_db;
std::atomic<int64_t> g_next{0};

void BM_GroupCommitFull(benchmark::State& state) {
  if (state.thread_index() == 0) {
    auto db = open_database({"sqlite:" + temp_db_path("group"), Durability::kFull});
    if (!db.ok()) {
      state.SkipWithError(db.error().message.c_str());
      return;
    }
    g_db = std::move(db).value();
    (void)g_db->write([](Connection& c) {
      return c.execute_script("CREATE TABLE IF NOT EXISTS bench_rows (id INTEGER PRIMARY KEY, body TEXT)");
    });
  }
  for (auto _ : state) {
    int64_t id = g_next.fetch_add(1);
    auto r = g_db->write([id](Connection& c) -> Result<void> {
      PARLEY_TRY(c.execute("INSERT INTO bench_rows (id, body) VALUES ($1, $2)", {id, std::string_view("a row")}));
      return {};
    });
    if (!r.ok()) state.SkipWithError(r.error().message.c_str());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GroupCommitFull)->Threads(32)->UseRealTime()->MinTime(2.0);

void BM_OneCommitPerWriteFull(benchmark::State& state) {
  auto conn = SqliteConnection::open(temp_db_path("single"), Durability::kFull);
  if (!conn.ok()) {
    state.SkipWithError(conn.error().message.c_str());
    return;
  }
  auto& c = **conn;
  (void)c.execute_script("CREATE TABLE bench_rows (id INTEGER PRIMARY KEY, body TEXT)");
  int64_t id = 0;
  for (auto _ : state) {
    auto r = c.execute("INSERT INTO bench_rows (id, body) VALUES ($1, $2)", {id++, std::string_view("a row")});
    if (!r.ok()) state.SkipWithError(r.error().message.c_str());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_OneCommitPerWriteFull)->UseRealTime()->MinTime(2.0);

}  // namespace
}  // namespace parley
