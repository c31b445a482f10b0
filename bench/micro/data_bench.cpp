// Keyset pages of the conversation list straight from the store (no HTTP): page 1 against a page
// 990,000 items deep on an agent with 1,000,000 conversations, with and without `since`, and the
// cursor codec. The pages should cost the same whatever their depth.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "store/conversation_queries.h"
#include "store/db.h"
#include "views/pagination.h"

namespace parley {
namespace {

constexpr int64_t kRows = 1'000'000;
constexpr int64_t kNow = 1'800'000'000'000;

std::string padded_id(int64_t i) {
  std::string digits = std::to_string(i);
  return "cnv_" + std::string(22 - digits.size(), '0') + digits;
}

// A temporary database removed with its directory at exit.
struct BenchDatabase {
  std::string dir;
  std::unique_ptr<Database> db;
  ~BenchDatabase() {
    db.reset();
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
};

// One database for every benchmark of this file, loaded on first use.
Database& loaded_database() {
  static BenchDatabase bench = [] {
    char dir_template[] = "/tmp/parley_data_bench_XXXXXX";
    std::string dir = mkdtemp(dir_template);
    auto opened = open_database({"sqlite:" + dir + "/parley.db", Durability::kNormal});
    if (!opened.ok()) std::abort();
    auto result = (*opened)->write([](Connection& c) -> Result<void> {
      PARLEY_TRY(
          c.execute_script("INSERT INTO accounts (id, name, plan, created_at, updated_at) VALUES "
                           "('acc_b', 'b', 'pro', 0, 0);"
                           "INSERT INTO agents (id, account_id, name, created_at, updated_at) "
                           "VALUES ('agt_b', 'acc_b', 'b', 0, 0);"));
      return c.execute_script(
          "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " +
          std::to_string(kRows) +
          ") INSERT INTO conversations (id, agent_id, account_id, session_id, channel, created_at, "
          "last_activity_at, message_count) SELECT 'cnv_' || printf('%022d', i), 'agt_b', 'acc_b', "
          "'ses_' || i, "
          "'widget', " +
          std::to_string(kNow) + " - i * 1000, " + std::to_string(kNow) +
          " - i * 1000 + 60000, 2 FROM n");
    });
    if (!result.ok()) std::abort();
    return BenchDatabase{dir, std::move(*opened)};
  }();
  return *bench.db;
}

void run_list(benchmark::State& state, std::optional<KeysetPosition> after,
              std::optional<int64_t> since) {
  Connection& c = loaded_database().read()->get();
  PageQuery q;
  q.limit = 20;
  q.after = std::move(after);
  q.since = since;
  for (auto _ : state) {
    auto page = ConversationQueries::list(c, "agt_b", q);
    if (!page.ok() || page->items.size() != 20) state.SkipWithError("list failed");
    benchmark::DoNotOptimize(page);
  }
}

KeysetPosition deep() { return {kNow - 990'000 * 1000, padded_id(990'000)}; }

void BM_ListConversationsPage1(benchmark::State& state) {
  run_list(state, std::nullopt, std::nullopt);
}
void BM_ListConversationsDeepCursor(benchmark::State& state) {
  run_list(state, deep(), std::nullopt);
}
void BM_ListConversationsDeepCursorSince(benchmark::State& state) {
  run_list(state, deep(), int64_t{0});
}

// An incremental sync: the few conversations active in the last 20 seconds (page 1 is the whole
// answer, so hasMore must be found false without walking the million older ones).
void BM_ListConversationsSinceRecent(benchmark::State& state) {
  Connection& c = loaded_database().read()->get();
  PageQuery q;
  q.limit = 100;
  q.since = kNow - 20'000;
  for (auto _ : state) {
    auto page = ConversationQueries::list(c, "agt_b", q);
    if (!page.ok() || page->has_more || page->items.size() != 80)
      state.SkipWithError("list failed");
    benchmark::DoNotOptimize(page);
  }
}

void BM_CursorRoundTrip(benchmark::State& state) {
  KeysetPosition at = deep();
  for (auto _ : state) {
    auto cursor = encode_cursor(kConversationList, "agt_b", at);
    auto back = decode_cursor(cursor, kConversationList, "agt_b");
    benchmark::DoNotOptimize(back);
  }
}

BENCHMARK(BM_ListConversationsPage1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ListConversationsDeepCursor)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ListConversationsDeepCursorSince)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ListConversationsSinceRecent)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CursorRoundTrip);

}  // namespace
}  // namespace parley
