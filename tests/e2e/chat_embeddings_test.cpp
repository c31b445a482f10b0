// Hybrid retrieval end to end (docs/decisions/knowledge_embeddings.md): an `openai` agent with
// `llm.embeddingModel` has its chunks embedded by the provider at training time, stored so that a
// restart embeds nothing again, and its prompt gets BM25's chunks fused with the chunks whose
// vectors lie closest to the question's, including one that shares no word with the question.
// Without the setting nothing is embedded; a failing provider leaves BM25 answering alone.
#include <chrono>
#include <set>
#include <thread>

#include "chat_support.h"
#include "fake_llm_server.h"

namespace parley::e2e {
namespace {

constexpr const char* kSecret = "sk-server-secret";
constexpr const char* kQuestion = "How do I feed a zorblax?";

struct TextSource {
  std::string title;
  std::string content;
  std::string input() const { return title + "\n\n" + content; }  // what gets embedded
};

// BM25 finds `kBm25` (it names the zorblax); only the vectors find `kVectorOnly`, which shares no
// word with the question but whose words the fake embedding counts as the question's (aliases).
const TextSource kBm25{"Zorblax care",
                       "Zorblax feeding: give each zorblax two spoons of moss at dawn."};
const TextSource kVectorOnly{"Quintessa",
                             "Quintessa glorptang happens with vexilum pellets, snarfled thrice."};
const std::vector<TextSource> kFillers{
    {"Office hours", "The office opens at nine on weekdays."},
    {"Parking", "Visitors park behind the library building."},
    {"Weather", "Summers are warm and winters bring snow."},
    {"Payments", "We accept cards, cash and bank transfers."},
    {"Holidays", "The shop closes on public holidays."},
    {"Returns", "Unused items can be returned within thirty days."},
};

std::vector<TextSource> all_sources() {
  std::vector<TextSource> out{kBm25, kVectorOnly};
  out.insert(out.end(), kFillers.begin(), kFillers.end());
  return out;
}

std::string settings(const std::string& embedding_model) {
  Json s = {{"engine", "openai"}, {"showSources", true}};
  if (!embedding_model.empty()) s["llm"] = {{"embeddingModel", embedding_model}};
  return s.dump();
}

class ChatEmbeddings : public ::testing::Test {
 protected:
  void SetUp() override {
    llm_.set_embedding_aliases({{"zorblax", "quintessa"}, {"feed", "glorptang"}});
    Env env = unlimited();
    env["PARLEY_LLM_API_KEY"] = kSecret;
    server_ =
        std::make_unique<Server>(env, std::vector<std::string>{"--llm-base-url", llm_.base_url(),
                                                               "--llm-model", "default-model"});
  }

  const Server& s() { return *server_; }

  void add(const ChatSetup& c, const TextSource& t) {
    auto r = s().post("/api/v1/agents/" + c.agent + "/sources", c.key,
                      Json{{"type", "text"}, {"title", t.title}, {"content", t.content}}.dump());
    ASSERT_EQ(r.status, 201) << r.body;
  }

  // Polls until every source of the agent is trained (bounded); returns the training object.
  Json wait_trained(const ChatSetup& c) {
    Json training;
    for (int i = 0; i < 500; ++i) {
      auto r = s().get("/api/v1/agents/" + c.agent + "/sources", c.key);
      training = r.json()["training"];
      if (training["done"] == true) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return training;
  }

  ChatSetup trained_agent(const std::string& embedding_model) {
    auto c = chat_setup(s(), settings(embedding_model));
    for (const auto& t : all_sources()) add(c, t);
    auto training = wait_trained(c);
    EXPECT_EQ(training["trained"], static_cast<int>(all_sources().size())) << training.dump();
    return c;
  }

  void say(const std::string& text) {
    llm_.script({{200, "text/event-stream", {sse_body({text_chunk(text), finish_chunk("stop")})}}});
  }

  // The system message of the last completion request.
  std::string last_system_prompt() {
    std::string out;
    for (const auto& r : llm_.requests())
      if (r.path == "/v1/chat/completions")
        out = Json::parse(r.body)["messages"][0]["content"].get<std::string>();
    return out;
  }

  // Every input the provider was asked to embed, with how many times.
  std::map<std::string, int> embedded_inputs() {
    std::map<std::string, int> out;
    for (const auto& r : llm_.embedding_requests())
      for (const auto& input : FakeLlmServer::embedding_inputs(r)) ++out[input];
    return out;
  }

  // Chats the question and checks the prompt: BM25's chunk first, the vector-only chunk second.
  void expect_hybrid_prompt(const ChatSetup& c) {
    say("Give it glorptang [2].");
    auto r = chat(s(), c, {{"message", kQuestion}});
    ASSERT_EQ(r.status, 200) << r.body;
    std::string system = last_system_prompt();
    EXPECT_NE(system.find("[1] Zorblax care\n" + kBm25.content), std::string::npos) << system;
    EXPECT_NE(system.find("[2] Quintessa\n" + kVectorOnly.content), std::string::npos) << system;
    EXPECT_EQ(r.json()["sources"], (Json::array({{{"title", "Quintessa"}, {"url", nullptr}}})));
  }

  FakeLlmServer llm_;
  std::unique_ptr<Server> server_;
};

TEST_F(ChatEmbeddings, ChunksAreEmbeddedOnceAndTheVectorRankingIsFusedWithBm25s) {
  auto c = trained_agent("fake-embed");

  // Training embedded every chunk once, with the embedding model and the server's key.
  auto training_calls = llm_.embedding_requests();
  ASSERT_FALSE(training_calls.empty());
  for (const auto& r : training_calls) {
    EXPECT_EQ(r.path, "/v1/embeddings");
    EXPECT_EQ(Json::parse(r.body)["model"], "fake-embed");
    EXPECT_EQ(r.headers.at("authorization"), std::string("Bearer ") + kSecret);
  }
  std::map<std::string, int> expected;
  for (const auto& t : all_sources()) expected[t.input()] = 1;
  EXPECT_EQ(embedded_inputs(), expected);

  // A chat embeds the question once, and the prompt holds the chunk only the vectors find.
  llm_.clear_requests();
  expect_hybrid_prompt(c);
  EXPECT_EQ(embedded_inputs(), (std::map<std::string, int>{{kQuestion, 1}}));

  // The vectors are stored: after a restart only the question is embedded.
  server_->restart();
  llm_.clear_requests();
  expect_hybrid_prompt(c);
  EXPECT_EQ(embedded_inputs(), (std::map<std::string, int>{{kQuestion, 1}}));
  // The loaded vectors count against the knowledge's memory budget, with the BM25 index.
  std::string metrics = s().request({"GET", "/metrics", "", {}}).body;
  EXPECT_EQ(metric_sample(metrics, "parley_knowledge_vector_sets_loaded"), 1);
  EXPECT_EQ(metric_sample(metrics, "parley_knowledge_vector_set_evictions_total"), 0);
  const double vectors = metric_sample(metrics, "parley_knowledge_vectors_memory_bytes");
  EXPECT_GE(vectors, 8 * 4 * kFakeEmbeddingDimensions);  // eight chunks' float32 vectors
  EXPECT_GT(metric_sample(metrics, "parley_knowledge_memory_bytes"), vectors);  // and the index

  // Deleting a source deletes its vectors: it leaves the prompt at once.
  auto listed = s().get("/api/v1/agents/" + c.agent + "/sources", c.key).json();
  for (const auto& src : listed["data"])
    if (src["title"] == "Quintessa")
      ASSERT_EQ(
          s().del("/api/v1/agents/" + c.agent + "/sources/" + src["id"].get<std::string>(), c.key)
              .status,
          200);
  say("Hm.");
  ASSERT_EQ(chat(s(), c, {{"message", kQuestion}}).status, 200);
  EXPECT_EQ(last_system_prompt().find("Quintessa glorptang"), std::string::npos);
  EXPECT_EQ(s().log().find(kSecret), std::string::npos);
}

TEST_F(ChatEmbeddings, WithoutAnEmbeddingModelNothingIsEmbeddedAndBm25Answers) {
  auto c = trained_agent("");
  say("Moss [1].");
  auto r = chat(s(), c, {{"message", kQuestion}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(llm_.embedding_requests().empty());
  std::string system = last_system_prompt();
  EXPECT_NE(system.find(kBm25.content), std::string::npos) << system;
  EXPECT_EQ(system.find("Quintessa glorptang"), std::string::npos) << system;
}

TEST_F(ChatEmbeddings, AFailingProviderNeverFailsTrainingOrTheChat) {
  // Training: the embeddings endpoint fails; every source is trained all the same.
  llm_.script_embeddings(
      ScriptedResponse{500, "application/json", {std::string(R"({"error":")") + kSecret + "\"}"}});
  auto c = trained_agent("fake-embed");
  EXPECT_FALSE(llm_.embedding_requests().empty());
  // No vector is stored, so a chat asks nothing of the endpoint and BM25 answers alone.
  llm_.clear_requests();
  say("Moss [1].");
  ASSERT_EQ(chat(s(), c, {{"message", kQuestion}}).status, 200);
  EXPECT_TRUE(llm_.embedding_requests().empty());
  EXPECT_EQ(last_system_prompt().find("Quintessa glorptang"), std::string::npos);

  // The next training embeds the sources left without vectors too.
  llm_.script_embeddings(std::nullopt);
  add(c, {"Moss", "Dawn moss is harvested from the northern slopes."});
  EXPECT_EQ(wait_trained(c)["trained"], static_cast<int>(all_sources().size()) + 1);
  llm_.clear_requests();
  expect_hybrid_prompt(c);

  // At chat time: a malformed answer (another dimension, a value out of range), or a provider
  // stalling past its share of the deadline, leaves BM25 alone and the reply goes on.
  for (const std::string& body : {std::string(R"({"data":[{"index":0,"embedding":[1,2,3]}]})"),
                                  std::string(R"({"data":[{"index":0,"embedding":[1e300]}]})"),
                                  std::string("not json"), std::string("stall")}) {
    llm_.script_embeddings(body == "stall" ? ScriptedResponse{200, "application/json", {}, 0, 20000}
                                           : ScriptedResponse{200, "application/json", {body}});
    say("Moss [1].");
    auto r = chat(s(), c, {{"message", kQuestion}});
    ASSERT_EQ(r.status, 200) << r.body;
    std::string system = last_system_prompt();
    EXPECT_NE(system.find(kBm25.content), std::string::npos) << system;
    EXPECT_EQ(system.find("Quintessa glorptang"), std::string::npos) << system;
  }
  EXPECT_NE(s().log().find("question_embedding_failed"), std::string::npos);
  EXPECT_EQ(s().log().find(kSecret), std::string::npos);
}

TEST_F(ChatEmbeddings, AnotherEmbeddingModelIgnoresTheOldVectorsUntilTheNextTraining) {
  auto c = trained_agent("fake-embed");
  s().admin({"agent", "update", c.agent, "--settings",
             Json{{"llm", {{"embeddingModel", "fake-embed-2"}}}}.dump()});
  llm_.clear_requests();
  say("Moss [1].");
  ASSERT_EQ(chat(s(), c, {{"message", kQuestion}}).status, 200);
  EXPECT_TRUE(llm_.embedding_requests().empty());  // no vector of fake-embed-2 yet
  EXPECT_EQ(last_system_prompt().find("Quintessa glorptang"), std::string::npos);

  // The next training embeds the new source and every older one with the new model.
  add(c, {"Moss", "Dawn moss is harvested from the northern slopes."});
  wait_trained(c);
  std::set<std::string> inputs;
  for (const auto& r : llm_.embedding_requests()) {
    EXPECT_EQ(Json::parse(r.body)["model"], "fake-embed-2");
    for (const auto& i : FakeLlmServer::embedding_inputs(r)) inputs.insert(i);
  }
  for (const auto& t : all_sources()) EXPECT_TRUE(inputs.count(t.input())) << t.title;
  llm_.clear_requests();
  expect_hybrid_prompt(c);
}

}  // namespace
}  // namespace parley::e2e
