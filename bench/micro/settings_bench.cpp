// One chat turn with an agent whose settings use most features (instructions, offers, forms, lead
// form, booking, hand-off, API actions, widget rules, topic analysis): the engine router's work
// for a retrieval reply over fixed knowledge (offers, forms and booking picked from the
// settings), and a whole in-process turn through domain/chat.h on a SQLite database (agent load,
// limits, engine, the transaction that stores the exchange).
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <filesystem>

#include "core/clock.h"
#include "core/random.h"
#include "domain/accounts.h"
#include "domain/agent_cache.h"
#include "domain/agents.h"
#include "domain/chat.h"
#include "engine/engine_router.h"
#include "engine/retrieval_engine.h"
#include "knowledge/memory_retriever.h"

namespace parley {
namespace {

constexpr const char* kSettings = R"({
  "instructions": "You answer for Northwind Outfitters, a shop for outdoor clothing.",
  "fallbackMessage": "Sorry, I do not know that yet.",
  "showSources": true, "followUps": true, "saveContactDetails": true, "topicAnalysis": true,
  "handoffEmail": "team@example.com",
  "buttons": [
    {"label": "See pricing", "url": "https://example.com/pricing", "keywords": ["price", "cost"]},
    {"label": "Book a demo", "url": "https://example.com/demo"},
    {"label": "Shipping times", "url": "https://example.com/shipping", "keywords": ["delivery"]},
    {"label": "Returns policy", "url": "https://example.com/returns", "keywords": ["refund"]},
    {"label": "Size guide", "url": "https://example.com/sizes", "keywords": ["fit", "size"]}],
  "products": [
    {"name": "Blue Jacket", "url": "https://shop.example.com/blue-jacket", "price": 79.5,
     "compareAtPrice": 99, "currency": "EUR", "available": true, "keywords": ["coat"]},
    {"name": "Red Scarf", "url": "https://shop.example.com/red-scarf", "price": 19},
    {"name": "Wool Hat", "url": "https://shop.example.com/wool-hat", "price": 24},
    {"name": "Rain Boots", "url": "https://shop.example.com/rain-boots", "price": 65},
    {"name": "Trail Backpack", "url": "https://shop.example.com/backpack", "price": 120},
    {"name": "Fleece Gloves", "url": "https://shop.example.com/gloves", "price": 15},
    {"name": "Down Vest", "url": "https://shop.example.com/vest", "price": 89},
    {"name": "Hiking Socks", "url": "https://shop.example.com/socks", "price": 9}],
  "forms": [
    {"id": "form_quote", "name": "Request a quote", "submitLabel": "Send", "keywords": ["quote"],
     "fields": [{"id": "f1", "label": "Company", "type": "text", "required": true},
                {"id": "f2", "label": "Team size", "type": "number"}]},
    {"id": "form_feedback", "name": "Feedback",
     "fields": [{"id": "f3", "label": "Your feedback", "type": "textarea"}]}],
  "leadForm": {"message": "How can we reach you?", "fields": ["name", "email", "phone"],
               "formId": "form_quote"},
  "booking": {"provider": "calendar", "eventTitle": "Intro call", "eventLength": 30,
              "timeZone": "Europe/Paris", "daysAhead": 7,
              "availability": {"mon": [["09:00", "12:00"], ["14:00", "17:00"]],
                               "wed": [["09:00", "12:00"]], "fri": [["10:00", "16:00"]]}},
  "apiActions": [
    {"name": "order_status", "description": "Looks up an order", "method": "GET",
     "url": "https://api.example.com/orders/{orderId}",
     "parameters": [{"name": "orderId", "description": "The order number", "required": true}],
     "headers": {"Authorization": "Bearer secret"}}],
  "allowedDomains": ["example.com", "shop.example.com"],
  "blockedCountries": ["XX", "YY"],
  "messagesPerVisitor": 500
})";

// The second also asks for a meeting, so the reply computes booking slots (ICU calendars).
constexpr const char* kMessages[] = {"What does the blue jacket cost?",
                                     "What does the blue jacket cost, and can I book a meeting?"};

// The knowledge of the benchmark's agent: one Q&A pair.
MemoryRetriever jacket_knowledge() {
  MemoryRetriever r;
  r.add({"src_q", "qa", std::nullopt, std::nullopt, "", "What does the blue jacket cost?", "It costs 79.50 euros."});
  return r;
}

// The engine router's reply for a retrieval agent: the reply text, then the offers, form, lead
// form and booking slots picked from the agent's settings.
void BM_ChatTurnEngineWithSettings(benchmark::State& state) {
  SystemClock clock;
  MemoryRetriever knowledge = jacket_knowledge();
  RetrievalEngine retrieval(clock, RetrievalOptions{});
  EngineRouter router(clock, retrieval, retrieval);
  ReplyRequest r;
  r.agent_id = "agt_bench";
  r.settings = std::make_shared<const AgentSettings>(parse_agent_settings(kSettings));
  r.knowledge = &knowledge;
  r.message = kMessages[state.range(0)];
  r.time_zone = "Europe/Paris";
  r.deadline_ms = clock.now_ms() + 3'600'000;
  for (auto _ : state) {
    auto blocks = router.reply(r, [](std::string_view) { return true; });
    benchmark::DoNotOptimize(blocks);
  }
}

// A temporary database holding an account and the agent with kSettings, removed afterwards.
struct ChatDatabase {
  std::string dir;
  std::unique_ptr<Database> db;
  SystemClock clock;
  SecureRandom random;
  std::string account_id, agent_id;

  ChatDatabase() {
    char dir_template[] = "/tmp/parley_settings_bench_XXXXXX";
    dir = mkdtemp(dir_template);
    auto opened = open_database({"sqlite:" + dir + "/parley.db", Durability::kNormal});
    if (!opened.ok()) std::abort();
    db = std::move(*opened);
    Services services{*db, clock, random};
    account_id = create_account(services, "Bench", "enterprise")->id;
    agent_id = create_agent(services, account_id, "Helper", false, kSettings)->id;
  }
  ~ChatDatabase() {
    db.reset();
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
};

// A whole chat turn in-process: a new API conversation per turn, so the history read stays empty.
void BM_ChatTurnInProcess(benchmark::State& state) {
  ChatDatabase t;
  MemoryRetriever knowledge = jacket_knowledge();
  RetrievalEngine retrieval(t.clock, RetrievalOptions{});
  EngineRouter router(t.clock, retrieval, retrieval);
  ChatConfig config;
  config.replies_per_agent_hour = 1'000'000'000;
  AgentCache agents(*t.db);
  ChatServices s{*t.db, t.clock, t.random, router, knowledge, config};
  s.agents = &agents;  // as the server runs chats
  for (auto _ : state) {
    auto reply = chat(s, t.account_id, {.agent_id = t.agent_id, .message = kMessages[state.range(0)]});
    if (!reply.ok()) {
      state.SkipWithError(reply.error().message.c_str());
      break;
    }
    benchmark::DoNotOptimize(reply);
  }
}

// GET /api/v1/agents/{agentId}'s read of the agent through the agent cache: argument 0 is a hit;
// argument 1 follows a write elsewhere (untimed), as under chat load, so the agent is reloaded.
void BM_AgentCacheGet(benchmark::State& state) {
  ChatDatabase t;
  AgentCache cache(*t.db);
  if (!cache.get(t.account_id, t.agent_id).ok()) std::abort();
  for (auto _ : state) {
    if (state.range(0) == 1) {
      state.PauseTiming();
      if (!t.db->write([](Connection&) -> Result<void> { return {}; }).ok()) std::abort();
      state.ResumeTiming();
    }
    auto agent = cache.get(t.account_id, t.agent_id);
    benchmark::DoNotOptimize(agent);
  }
}

BENCHMARK(BM_ChatTurnEngineWithSettings)->Arg(0)->Arg(1);
BENCHMARK(BM_AgentCacheGet)->Arg(0)->Arg(1);
BENCHMARK(BM_ChatTurnInProcess)->Arg(0)->Arg(1);

}  // namespace
}  // namespace parley
