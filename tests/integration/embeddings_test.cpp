// Embeddings against a real loopback provider (FakeLlmServer): the client's request and its
// refusal of an oversized or stalled answer, and an agent's own provider used for embeddings at
// training time and at chat time through the same guard as its completions: resolved once per
// training and once per reply, every call pinned to the address checked then.
#include <gtest/gtest.h>

#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>

#include "core/clock.h"
#include "core/random.h"
#include "domain/accounts.h"
#include "domain/agents.h"
#include "domain/sources.h"
#include "engine/embeddings_client.h"
#include "engine/openai_engine.h"
#include "fake_llm_server.h"
#include "knowledge/knowledge_index.h"
#include "knowledge/vector_index.h"
#include "store/chunk_embedding_repo.h"
#include "workers/source_embedder.h"

namespace parley::e2e {
namespace {

constexpr const char* kFailed = "The embeddings provider did not give usable vectors.";

EmbeddingsRequest request_to(const FakeLlmServer& llm, std::vector<std::string> inputs) {
  EmbeddingsRequest r;
  r.base_url = llm.base_url();
  r.model = "embed-model";
  r.api_key = "sk-embed-secret";
  r.inputs = std::move(inputs);
  r.timeout_ms = 5000;
  return r;
}

TEST(Embeddings, OneVectorPerInputWithTheModelAndTheKey) {
  FakeLlmServer llm;
  EmbeddingsClient client;
  auto v = client.embed(request_to(llm, {"Hello world", "Other words"}));
  ASSERT_TRUE(v.ok()) << v.error().message;
  ASSERT_EQ(v->size(), 2u);
  EXPECT_EQ((*v)[0], fake_embedding("Hello world"));
  EXPECT_EQ((*v)[1], fake_embedding("Other words"));
  auto reqs = llm.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].path, "/v1/embeddings");
  EXPECT_EQ(reqs[0].headers["authorization"], "Bearer sk-embed-secret");
  EXPECT_EQ(nlohmann::json::parse(reqs[0].body),
            (nlohmann::json{{"model", "embed-model"}, {"input", {"Hello world", "Other words"}}}));
}

TEST(Embeddings, AnOversizedErrorOrStalledAnswerIsRefused) {
  FakeLlmServer llm;
  EmbeddingsClient client;
  // Past 64 KiB + 256 KiB for one input: cut, and refused.
  std::string huge = R"({"data":[{"index":0,"embedding":[)" + std::string(2'000'000, '1') + "]}]}";
  llm.script_embeddings(ScriptedResponse{200, "application/json", split_every(huge, 65536)});
  auto big = client.embed(request_to(llm, {"x"}));
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().message, kFailed);
  // An error status whose body quotes the key: one fixed message, nothing quoted.
  llm.script_embeddings(ScriptedResponse{401, "application/json", {"bad key sk-embed-secret"}});
  auto denied = client.embed(request_to(llm, {"x"}));
  ASSERT_FALSE(denied.ok());
  EXPECT_EQ(denied.error().message, kFailed);
  // A provider that never answers: timeout at the call's deadline.
  llm.script_embeddings(ScriptedResponse{200, "application/json", {}, 0, 10000});
  auto r = request_to(llm, {"x"});
  r.timeout_ms = 300;
  auto stalled = client.embed(r);
  ASSERT_FALSE(stalled.ok());
  EXPECT_EQ(stalled.error().code, ErrorCode::kTimeout);
}

// Answers the first resolution with 127.0.0.1 and every later one with 127.0.0.2 (where nothing
// listens), so only a pinned call reaches the provider.
class CountingResolver final : public Resolver {
 public:
  Result<std::vector<IpAddress>> resolve(const std::string&) override {
    std::lock_guard lock(mu_);
    return std::vector<IpAddress>{*parse_ip(calls_++ == 0 ? "127.0.0.1" : "127.0.0.2")};
  }
  void reset() {
    std::lock_guard lock(mu_);
    calls_ = 0;
  }
  size_t calls() const {
    std::lock_guard lock(mu_);
    return calls_;
  }

 private:
  mutable std::mutex mu_;
  size_t calls_ = 0;
};

TEST(Embeddings, AnAgentsOwnProviderIsGuardedAndPinnedForTrainingAndChat) {
  FakeLlmServer llm;
  std::string port = llm.base_url().substr(llm.base_url().rfind(':') + 1);
  std::string base_url = "http://llm.invalid:" + port + "/v1";
  SecureRandom random;
  SystemClock clock;
  auto dir = std::filesystem::temp_directory_path() / ("parley_emb_" + random_base62(random, 8));
  std::filesystem::create_directories(dir);
  {
    auto db = open_database({"sqlite:" + (dir / "parley.db").string(), Durability::kNormal});
    ASSERT_TRUE(db.ok()) << db.error().message;
    Services s{**db, clock, random};
    auto account = create_account(s, "Acme", "starter");
    ASSERT_TRUE(account.ok());
    std::string settings = nlohmann::json{
        {"engine", "openai"},
        {"llm",
         {{"baseUrl", base_url},
          {"model", "agent-model"},
          {"apiKey", "sk-agent-own"},
          {"embeddingModel",
           "agent-embed"}}}}.dump();
    auto agent = create_agent(s, account->id, "Bot", false, settings);
    ASSERT_TRUE(agent.ok());
    NewSource n;
    n.type = "text";
    n.title = "Cargo";
    n.content = "Parcels ship from the harbour every Tuesday.";
    ASSERT_TRUE(add_source(s, account->id, agent->id, n, nullptr).ok());

    CountingResolver resolver;
    ApiActionCaller guard(resolver, {/*allow_private_targets=*/true, "", 5000, 16384});
    VectorIndex vectors(**db);
    KnowledgeIndex knowledge(**db);
    // The server's own key must never reach the agent's provider.
    LlmDefaults defaults{"http://127.0.0.1:9", "server-model", "sk-server-secret"};
    SourceEmbedder embedder(**db, clock, defaults, &guard, vectors);

    auto claimed = claim_next_source(s, 60000);
    ASSERT_TRUE(claimed.ok() && claimed->has_value());
    EmbeddedSource embedded = embedder.embed(**claimed, clock.now_ms() + 10000);
    ASSERT_EQ(embedded.vectors.size(), 1u);
    EXPECT_EQ(embedded.model, "agent-embed");
    auto finished = finish_training(s, **claimed, std::nullopt);
    ASSERT_TRUE(finished.ok() && finished->applied);
    knowledge.source_trained(finished->source, finished->version);
    embedder.trained(finished->source, embedded, finished->version);
    EXPECT_EQ(resolver.calls(), 1u);
    {
      auto reader = (*db)->read();
      ASSERT_TRUE(reader.ok());
      EXPECT_EQ(*ChunkEmbeddingRepo::count_source(*reader, (*claimed)->id), 1);
    }

    // A reply: the question's embedding and the completion share one check and one pin.
    resolver.reset();
    llm.clear_requests();
    llm.script(
        {{200, "text/event-stream", {sse_body({text_chunk("Tuesday."), finish_chunk("stop")})}}});
    OpenAiEngine engine(clock, defaults, &guard, &vectors);
    ReplyRequest r;
    r.agent_id = agent->id;
    r.message = "When do boats leave with packages?";
    r.settings = std::make_shared<const AgentSettings>(parse_agent_settings(settings));
    r.knowledge = &knowledge;
    std::string text;
    auto blocks = engine.reply(r, [&](std::string_view piece) {
      text += piece;
      return true;
    });
    ASSERT_TRUE(blocks.ok()) << blocks.error().message;
    EXPECT_EQ(text, "Tuesday.");
    EXPECT_EQ(resolver.calls(), 1u);
    auto reqs = llm.requests();
    ASSERT_EQ(reqs.size(), 2u);
    EXPECT_EQ(reqs[0].path, "/v1/embeddings");
    EXPECT_EQ(FakeLlmServer::embedding_inputs(reqs[0]),
              std::vector<std::string>{"When do boats leave with packages?"});
    EXPECT_EQ(reqs[1].path, "/v1/chat/completions");
    for (auto& req : reqs) {
      EXPECT_EQ(req.headers["host"], "llm.invalid:" + port);
      EXPECT_EQ(req.headers["authorization"], "Bearer sk-agent-own");
    }
    // No word is shared with the question, but the vector ranking is fused in: the chunk is there.
    std::string system = nlohmann::json::parse(reqs[1].body)["messages"][0]["content"];
    EXPECT_NE(system.find("Parcels ship from the harbour every Tuesday."), std::string::npos)
        << system;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace parley::e2e
