// One chat turn's topic analysis on a conversation of N messages: the whole-conversation re-read
// it replaced (every message read and analysed again) against the incremental refresh that
// counts only the new message. Each iteration runs in a write that is rolled back, so the
// conversation stays the same.
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <filesystem>

#include "core/json.h"
#include "domain/topic_analysis.h"
#include "store/conversation_queries.h"

namespace parley {
namespace {

struct TopicDatabase {
  std::string dir;
  std::unique_ptr<Database> db;
  AgentRecord agent;
  AgentSettings settings;
  ~TopicDatabase() {
    db.reset();
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
};

// A conversation of `n` messages, analysed up to its last one, which is new.
std::unique_ptr<TopicDatabase> conversation_of(int64_t n) {
  auto t = std::make_unique<TopicDatabase>();
  char dir_template[] = "/tmp/parley_topic_bench_XXXXXX";
  t->dir = mkdtemp(dir_template);
  auto opened = open_database({"sqlite:" + t->dir + "/parley.db", Durability::kNormal});
  if (!opened.ok()) std::abort();
  t->db = std::move(*opened);
  t->agent.id = "agt_b";
  t->agent.settings = R"({"topicAnalysis": true})";
  t->settings = parse_agent_settings(t->agent.settings);
  auto append = [](Connection& c, int64_t i) {
    MessageRecord m;
    m.id = "msg_" + std::to_string(i);
    m.conversation_id = "cnv_b";
    m.role = i % 2 == 0 ? "user" : "assistant";
    m.content = "My invoice for order " + std::to_string(i) +
                " shows a double charge and the billing page is slow, please help with the refund";
    return ConversationRepo::append_message(c, m).ok();
  };
  auto r = t->db->write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(c.execute_script(
        "INSERT INTO accounts (id, name, plan, created_at, updated_at) VALUES ('acc_b', 'b', 'pro', 0, 0);"
        "INSERT INTO agents (id, account_id, name, created_at, updated_at) VALUES ('agt_b', 'acc_b', 'b', 0, 0);"
        "INSERT INTO conversations (id, agent_id, account_id, session_id, channel, created_at, "
        "last_activity_at, message_count) VALUES ('cnv_b', 'agt_b', 'acc_b', 'ses_b', 'api', 0, 0, 0)"));
    for (int64_t i = 0; i + 1 < n; ++i) {
      if (!append(c, i)) return ApiError::internal("append");
    }
    PARLEY_TRY(refresh_topics(c, t->settings, "cnv_b"));
    if (!append(c, n - 1)) return ApiError::internal("append");
    return {};
  });
  if (!r.ok()) std::abort();
  return t;
}

// The analysis as it was: the whole conversation read and analysed on every turn.
Result<void> full_reread(Connection& c, std::string_view conversation_id) {
  PARLEY_ASSIGN_OR_RETURN(auto messages, ConversationRepo::messages(c, conversation_id));
  TopicAnalysis a = analyze_topics(messages);
  JsonWriter w;
  w.begin_array();
  for (const auto& t : a.topics) w.string(t);
  w.end_array();
  return ConversationQueries::set_analysis(c, conversation_id, w.view(), a.sentiment);
}

template <bool kIncremental>
void BM_TopicTurn(benchmark::State& state) {
  auto t = conversation_of(state.range(0));
  for (auto _ : state) {
    auto r = t->db->write([&](Connection& c) -> Result<void> {
      auto done = kIncremental ? refresh_topics(c, t->settings, "cnv_b") : full_reread(c, "cnv_b");
      if (!done.ok()) std::abort();
      return ApiError::internal("roll back");  // keep the conversation as it was
    });
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_TopicTurn<false>)->Name("BM_TopicTurnFullReread")->Arg(10)->Arg(100)->Arg(1000)->Arg(5000);
BENCHMARK(BM_TopicTurn<true>)->Name("BM_TopicTurnIncremental")->Arg(10)->Arg(100)->Arg(1000)->Arg(5000);

}  // namespace
}  // namespace parley
