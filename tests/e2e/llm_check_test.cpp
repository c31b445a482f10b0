// The "Test connection" of an agent's language model: POST /console/v1/agents/{a}/llm-test and
// `parley admin agent test-llm`, against a loopback stand-in of an OpenAI-compatible provider
// (FakeLlmServer): each outcome (answered, 401, 404 unknown model or address, unreachable, TLS,
// refused, not configured), unsaved form values, the stored key kept to its own address, roles,
// tenant isolation and validation. Also `parley admin demo` putting the demo agent on a model.
#include <filesystem>

#include "fake_llm_server.h"
#include "harness.h"
#include "https_receiver.h"
#include "loopback_listener.h"

namespace parley::e2e {
namespace {

const char* kCompletion =
    R"({"id":"chatcmpl-1","object":"chat.completion","model":"m","choices":[{"index":0,)"
    R"("message":{"role":"assistant","content":"OK"},"finish_reason":"stop"}]})";

// A loopback port nothing listens on.
uint16_t closed_port() {
  LoopbackListener l = listen_on_loopback(1);
  ::close(l.fd);
  return l.port;
}

class LlmCheck : public ::testing::Test {
 protected:
  // One server per suite: the fake is the server's default provider, private targets allowed so
  // an agent may name the loopback fake as its own provider.
  static void SetUpTestSuite() {
    llm_ = new FakeLlmServer();
    Env env = unlimited();
    env["PARLEY_LLM_API_KEY"] = "sk-server-secret";
    env["PARLEY_WEBHOOK_ALLOW_PRIVATE_TARGETS"] = "1";
    server_ = new Server(env, {"--llm-base-url", llm_->base_url(), "--llm-model", "default-model"});
  }
  static void TearDownTestSuite() {
    delete server_;
    delete llm_;
  }
  void SetUp() override {
    llm_->clear_requests();
    llm_->script({{200, "application/json", {kCompletion}}});
    account_ = s().create_account();
    owner_ = create_member(s(), account_, "owner")["token"];
  }
  const Server& s() { return *server_; }
  std::string agent(const std::string& llm_json) {
    return s().create_agent(account_, R"({"engine":"openai","llm":)" + llm_json + "}");
  }
  std::string own_provider(const std::string& extra = "") {
    return agent(R"({"baseUrl":")" + llm_->base_url() + R"(/v1","model":"agent-model")" + extra +
                 "}");
  }
  HttpResponse test(const std::string& agent_id, const std::string& body = "{}",
                    const std::string& token = "") {
    return s().post("/console/v1/agents/" + agent_id + "/llm-test", token.empty() ? owner_ : token,
                    body);
  }
  static Json result(const HttpResponse& r) {
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? r.json()["data"] : Json();
  }

  static inline Server* server_ = nullptr;
  static inline FakeLlmServer* llm_ = nullptr;
  std::string account_, owner_;
};

TEST_F(LlmCheck, AnAnsweringProviderIsReportedWithItsTime) {
  auto id = own_provider(R"(,"apiKey":"sk-agent-own")");
  auto d = result(test(id));
  EXPECT_EQ(d["ok"], true) << d.dump();
  EXPECT_EQ(d["outcome"], "answered");
  EXPECT_EQ(d["status"], 200);
  EXPECT_GE(d["durationMs"].get<int64_t>(), 0);
  EXPECT_EQ(d["model"], "agent-model");
  EXPECT_EQ(d["baseUrl"], llm_->base_url() + "/v1");
  EXPECT_NE(d["message"].get<std::string>().find("answered in"), std::string::npos);
  auto reqs = llm_->requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].path, "/v1/chat/completions");
  EXPECT_EQ(reqs[0].headers["authorization"], "Bearer sk-agent-own");
  auto body = Json::parse(reqs[0].body);
  EXPECT_EQ(body["model"], "agent-model");
  EXPECT_EQ(body["stream"], false);
  // The key is never in the answer.
  EXPECT_EQ(test(id).body.find("sk-agent-own"), std::string::npos);
}

TEST_F(LlmCheck, AnAgentWithoutAProviderOfItsOwnTestsTheServersDefault) {
  auto id = s().create_agent(account_, R"({"engine":"openai"})");
  auto d = result(test(id));
  EXPECT_EQ(d["outcome"], "answered") << d.dump();
  EXPECT_EQ(d["model"], "default-model");
  EXPECT_EQ(d["baseUrl"], llm_->base_url());
  EXPECT_EQ(llm_->requests().at(0).headers["authorization"], "Bearer sk-server-secret");
}

TEST_F(LlmCheck, EachFailureIsToldApart) {
  auto id = own_provider();
  llm_->script({{401, "application/json", {R"({"error":{"message":"Incorrect API key"}})"}}});
  auto d = result(test(id));
  EXPECT_EQ(d["ok"], false);
  EXPECT_EQ(d["outcome"], "unauthorized");
  EXPECT_EQ(d["status"], 401);
  EXPECT_EQ(d.dump().find("Incorrect"), std::string::npos) << "the provider's words are not echoed";

  llm_->script(
      {{404,
        "application/json",
        {R"({"error":{"message":"The model `x` does not exist","code":"model_not_found"}})"}}});
  EXPECT_EQ(result(test(id))["outcome"], "unknown_model");
  llm_->script({{404, "text/html", {"<h1>Not Found</h1>"}}});
  EXPECT_EQ(result(test(id))["outcome"], "not_found");
  llm_->script({{500, "text/plain", {"boom"}}});
  auto failed = result(test(id));
  EXPECT_EQ(failed["outcome"], "http_error");
  EXPECT_EQ(failed["status"], 500);
  llm_->script({{200, "text/html", {"<html>a page</html>"}}});
  EXPECT_EQ(result(test(id))["outcome"], "bad_response");

  auto nobody = agent(R"({"baseUrl":"http://127.0.0.1:)" + std::to_string(closed_port()) +
                      R"(/v1","model":"m"})");
  auto unreachable = result(test(nobody));
  EXPECT_EQ(unreachable["outcome"], "unreachable") << unreachable.dump();
  EXPECT_TRUE(unreachable["status"].is_null());
}

TEST_F(LlmCheck, AnUntrustedCertificateIsATlsError) {
  std::string dir = std::filesystem::temp_directory_path() / ("parley-llm-tls-" + account_);
  std::filesystem::create_directories(dir);
  make_self_signed_certificate(dir);
  HttpsReceiver tls(dir + "/cert.pem", dir + "/key.pem");
  auto id = agent(R"({"baseUrl":"https://127.0.0.1:)" + std::to_string(tls.port()) +
                  R"(/v1","model":"m"})");
  auto d = result(test(id));
  EXPECT_EQ(d["outcome"], "tls_error") << d.dump();
  std::filesystem::remove_all(dir);
}

TEST_F(LlmCheck, AnAddressTheGuardRefusesIsNeverCalled) {
  auto id = agent(R"({"baseUrl":"https://no-such-host.invalid/v1","model":"m"})");
  auto d = result(test(id));
  EXPECT_EQ(d["outcome"], "refused") << d.dump();
  EXPECT_TRUE(llm_->requests().empty());
}

TEST_F(LlmCheck, UnsavedValuesAreTestedAndTheStoredKeyStaysWithItsAddress) {
  auto id = own_provider(R"(,"apiKey":"sk-agent-own")");
  // Another model at the stored address: the stored key goes with it (the form shows it redacted).
  auto d = result(test(id, R"({"llm":{"model":"typed-model","apiKey":"********"}})"));
  EXPECT_EQ(d["model"], "typed-model");
  EXPECT_EQ(Json::parse(llm_->requests().back().body)["model"], "typed-model");
  EXPECT_EQ(llm_->requests().back().headers["authorization"], "Bearer sk-agent-own");
  // Another address: the stored key is not sent there; a typed key is.
  // (The same fake under another address: neither the stored one nor the server's default.)
  Json moved = {{"llm", {{"baseUrl", llm_->base_url() + "/v1/"}, {"apiKey", "********"}}}};
  result(test(id, moved.dump()));
  EXPECT_EQ(llm_->requests().back().headers.count("authorization"), 0u);
  moved["llm"]["apiKey"] = "sk-typed";
  result(test(id, moved.dump()));
  EXPECT_EQ(llm_->requests().back().headers["authorization"], "Bearer sk-typed");
  // Nothing was saved.
  auto stored = s().admin({"agent", "get", id});
  EXPECT_EQ(stored["settings"]["llm"]["model"], "agent-model");
  EXPECT_EQ(stored["settings"]["llm"]["baseUrl"], llm_->base_url() + "/v1");
}

TEST_F(LlmCheck, OwnersAndAdminsOnlyAndOnlyTheirOwnAgents) {
  auto id = own_provider();
  for (const char* role : {"viewer", "editor"}) {
    auto r = test(id, "{}", create_member(s(), account_, role)["token"]);
    EXPECT_EQ(r.status, 403) << role << r.body;
    EXPECT_EQ(r.error_code(), "forbidden");
  }
  EXPECT_EQ(test(id, "{}", create_member(s(), account_, "admin")["token"]).status, 200);
  auto other = s().create_account();
  auto outsider = create_member(s(), other, "owner")["token"].get<std::string>();
  auto r = test(id, "{}", outsider);
  EXPECT_EQ(r.status, 404) << r.body;
  EXPECT_EQ(r.error_code(), "not_found");
  EXPECT_EQ(test("agt_nope", "{}").status, 404);
  EXPECT_TRUE(llm_->requests().size() == 1u) << "only the admin's test reached the provider";
}

TEST_F(LlmCheck, ABadBodyIs400NamingTheField) {
  auto id = own_provider();
  auto r = test(id, R"({"llm":5})");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.error_code(), "invalid_request");
  EXPECT_NE(r.error_message().find("'llm'"), std::string::npos) << r.body;
  r = test(id, R"({"llm":{"baseUrl":7}})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.error_message().find("'llm.baseUrl'"), std::string::npos) << r.body;
  r = test(id, R"({"llm":{"temperature":1}})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.error_message().find("'llm.temperature'"), std::string::npos) << r.body;
  r = test(id, R"({"other":1})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.error_message().find("'other'"), std::string::npos) << r.body;
  EXPECT_TRUE(llm_->requests().empty());
}

TEST_F(LlmCheck, TheAdminCommandTestsTheSameWay) {
  auto id = s().create_agent(account_, R"({"engine":"openai"})");
  auto d = s().admin(
      {"agent", "test-llm", id, "--llm-base-url", llm_->base_url(), "--llm-model", "cli-model"});
  EXPECT_EQ(d["ok"], true) << d.dump();
  EXPECT_EQ(d["outcome"], "answered");
  EXPECT_EQ(d["model"], "cli-model");
  EXPECT_EQ(Json::parse(llm_->requests().back().body)["model"], "cli-model");
  llm_->script({{401, "application/json", {"{}"}}});
  EXPECT_EQ(s().admin({"agent", "test-llm", id, "--llm-base-url", llm_->base_url(), "--llm-model",
                       "cli-model"})["outcome"],
            "unauthorized");
  // A provider that says nothing within the time limit.
  llm_->script({{200, "application/json", {}, 0, 3000}});
  auto slow = s().admin({"agent", "test-llm", id, "--llm-base-url", llm_->base_url(), "--llm-model",
                         "cli-model", "--timeout-ms", "200"});
  EXPECT_EQ(slow["outcome"], "timeout") << slow.dump();
  EXPECT_TRUE(slow["status"].is_null());
  // Without a provider anywhere there is nothing to call.
  EXPECT_EQ(s().admin({"agent", "test-llm", id})["outcome"], "not_configured");
  auto missing = s().admin({"agent", "test-llm", "agt_nope"}, /*expect_failure=*/true);
  EXPECT_NE(missing.dump().find("not_found"), std::string::npos) << missing.dump();
}

TEST(LlmDemo, TheDemoAgentIsPutOnTheModelAndBackOnItsOwn) {
  Admin fresh(seed("LlmDemo", {}).dir);  // an empty, migrated database
  auto made = fresh.admin({"demo", "--llm-model", "llama3.2", "--llm-embedding-model", "nomic"});
  ASSERT_EQ(made["created"], true) << made.dump();
  EXPECT_EQ(made["agent"]["settings"]["engine"], "openai");
  EXPECT_EQ(made["agent"]["settings"]["llm"]["model"], "llama3.2");
  EXPECT_EQ(made["agent"]["settings"]["llm"]["embeddingModel"], "nomic");
  EXPECT_EQ(made["agent"]["settings"]["showSources"], true);
  const std::string agent_id = made["agent"]["id"];

  // An existing data folder: the demo agent is updated, not created again.
  auto again = fresh.admin({"demo", "--llm-model", "qwen2.5"});
  EXPECT_EQ(again["created"], false);
  EXPECT_EQ(again["updated"], true);
  EXPECT_EQ(again["agent"]["id"], agent_id);
  EXPECT_EQ(again["agent"]["settings"]["llm"]["model"], "qwen2.5");
  EXPECT_FALSE(again["agent"]["settings"]["llm"].contains("embeddingModel"));
  auto audit = fresh.sql("SELECT action FROM audit_entries WHERE target_id = '" + agent_id + "'");
  ASSERT_EQ(audit.size(), 1u);
  EXPECT_EQ(audit[0][0], "agent.update");

  // No provider anywhere any more: back to the built-in engine, so it answers.
  auto off = fresh.admin({"demo", "--no-llm"});
  EXPECT_EQ(off["updated"], true);
  EXPECT_EQ(off["agent"]["settings"]["engine"], "retrieval");
  // Nothing to change: nothing changes.
  EXPECT_EQ(fresh.admin({"demo", "--no-llm"})["updated"], false);
  EXPECT_EQ(fresh.admin({"demo"}),
            (Json{{"created", false}, {"reason", "the database already has accounts"}}));
}

}  // namespace
}  // namespace parley::e2e
