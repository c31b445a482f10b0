// The OpenAI-compatible client against a real loopback server speaking the protocol.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/openai_client.h"
#include "fake_llm_server.h"

namespace parley::e2e {
namespace {

class OpenAiClientTest : public ::testing::Test {
 protected:
  CompletionRequest request(int64_t timeout_ms = 5000) {
    CompletionRequest r;
    r.base_url = llm_.base_url();
    r.model = "test-model";
    r.api_key = "sk-test-secret-key";
    r.messages = {{"system", "Be brief.", {}, ""}, {"user", "Hi", {}, ""}};
    r.timeout_ms = timeout_ms;
    return r;
  }
  Result<Completion> run(const CompletionRequest& r, std::vector<std::string>* pieces = nullptr) {
    return client_.complete(r, [&](std::string_view p) {
      if (pieces) pieces->emplace_back(p);
      return true;
    });
  }

  FakeLlmServer llm_;
  OpenAiClient client_;
};

TEST_F(OpenAiClientTest, StreamsTextDeltasAndSendsTheProtocolRequest) {
  llm_.script({{200,
                "text/event-stream",
                {sse_body({text_chunk("Hello"), text_chunk(", world"), finish_chunk("stop")})}}});
  std::vector<std::string> pieces;
  auto r = run(request(), &pieces);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->text, "Hello, world");
  EXPECT_EQ(pieces, (std::vector<std::string>{"Hello", ", world"}));
  EXPECT_EQ(r->finish_reason, "stop");

  auto reqs = llm_.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].method, "POST");
  EXPECT_EQ(reqs[0].path, "/v1/chat/completions");
  EXPECT_EQ(reqs[0].headers["authorization"], "Bearer sk-test-secret-key");
  auto body = nlohmann::json::parse(reqs[0].body);
  EXPECT_EQ(body["model"], "test-model");
  EXPECT_EQ(body["stream"], true);
  ASSERT_EQ(body["messages"].size(), 2u);
  EXPECT_EQ(body["messages"][0]["role"], "system");
  EXPECT_EQ(body["messages"][0]["content"], "Be brief.");
  EXPECT_EQ(body["messages"][1]["content"], "Hi");
  EXPECT_FALSE(body.contains("tools"));
}

TEST_F(OpenAiClientTest, AcceptsABaseUrlEndingInV1) {
  llm_.script({{200, "text/event-stream", {sse_body({text_chunk("ok")})}}});
  auto r = request();
  r.base_url += "/v1/";
  ASSERT_TRUE(run(r).ok());
  EXPECT_EQ(llm_.requests().at(0).path, "/v1/chat/completions");
}

TEST_F(OpenAiClientTest, JoinsAStreamSplitAtAwkwardByteBoundaries) {
  // Multi-byte UTF-8 characters and event separators are cut across reads.
  std::string body =
      sse_body({text_chunk("Grüße "), text_chunk("und 日本語"), finish_chunk("stop")});
  for (size_t size : {1u, 3u, 7u}) {
    llm_.script({{200, "text/event-stream", split_every(body, size), 1}});
    auto r = run(request());
    ASSERT_TRUE(r.ok()) << "split " << size << ": " << r.error().message;
    EXPECT_EQ(r->text, "Grüße und 日本語");
  }
}

TEST_F(OpenAiClientTest, AssemblesStreamedToolCallsAndSendsTools) {
  llm_.script(
      {{200,
        "text/event-stream",
        {sse_body({tool_chunk(0, "call_a", "show_buttons", ""),
                   tool_chunk(0, "", "", "{\"topic\":"), tool_chunk(0, "", "", "\"pricing\"}"),
                   tool_chunk(1, "call_b", "request_handoff", "{}"),
                   finish_chunk("tool_calls")})}}});
  auto r = request();
  r.tools = {{"show_buttons", "Shows links",
              R"({"type":"object","properties":{"topic":{"type":"string"}}})"}};
  auto c = run(r);
  ASSERT_TRUE(c.ok()) << c.error().message;
  ASSERT_EQ(c->tool_calls.size(), 2u);
  EXPECT_EQ(c->tool_calls[0].id, "call_a");
  EXPECT_EQ(c->tool_calls[0].name, "show_buttons");
  EXPECT_EQ(c->tool_calls[0].arguments, "{\"topic\":\"pricing\"}");
  EXPECT_EQ(c->tool_calls[1].name, "request_handoff");
  EXPECT_EQ(c->finish_reason, "tool_calls");
  auto body = nlohmann::json::parse(llm_.requests().at(0).body);
  ASSERT_EQ(body["tools"].size(), 1u);
  EXPECT_EQ(body["tools"][0]["type"], "function");
  EXPECT_EQ(body["tools"][0]["function"]["name"], "show_buttons");
  EXPECT_EQ(body["tools"][0]["function"]["parameters"]["properties"]["topic"]["type"], "string");
}

TEST_F(OpenAiClientTest, SendsToolResultsBack) {
  llm_.script({{200, "text/event-stream", {sse_body({text_chunk("done")})}}});
  auto r = request();
  r.messages.push_back({"assistant", "", {{"call_a", "lookup", "{}"}}, ""});
  r.messages.push_back({"tool", "{\"ok\":true}", {}, "call_a"});
  ASSERT_TRUE(run(r).ok());
  auto body = nlohmann::json::parse(llm_.requests().at(0).body);
  EXPECT_TRUE(body["messages"][2]["content"].is_null());
  EXPECT_EQ(body["messages"][2]["tool_calls"][0]["function"]["name"], "lookup");
  EXPECT_EQ(body["messages"][3]["role"], "tool");
  EXPECT_EQ(body["messages"][3]["tool_call_id"], "call_a");
}

TEST_F(OpenAiClientTest, EveryProviderFailureGivesTheSameMessage) {
  // Neither the status nor whether anything answered at all reaches the caller: the message would
  // otherwise tell a team member what listens at an address (a port oracle).
  std::vector<std::string> messages;
  for (int status : {401, 404, 500, 503}) {
    llm_.script({{status,
                  "application/json",
                  {R"({"error":{"message":"Incorrect API key provided: sk-test-secret-key"}})"}}});
    auto r = run(request());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::kInternal);
    messages.push_back(r.error().message);
  }
  auto refused = request();
  refused.base_url = "http://127.0.0.1:1";
  messages.push_back(run(refused).error().message);
  llm_.script({{200, "text/event-stream", {"data: {\"choices\": [oops\n\n"}}});
  messages.push_back(run(request()).error().message);
  for (const auto& m : messages) {
    EXPECT_EQ(m, "The language model provider did not give a usable reply.");
    EXPECT_EQ(m.find("sk-test"), std::string::npos);
  }
}

TEST_F(OpenAiClientTest, APinnedCallConnectsOnlyToThePinnedAddress) {
  llm_.script({{200, "text/event-stream", {sse_body({text_chunk("pinned"), finish_chunk("stop")})}}});
  std::string port = llm_.base_url().substr(llm_.base_url().rfind(':') + 1);
  // A name that no resolver knows: only the pin can take the call to the provider.
  auto r = request();
  r.base_url = "http://llm.invalid:" + port;
  r.pin = PinnedTarget{"llm.invalid", static_cast<uint16_t>(std::stoi(port)), *parse_ip("127.0.0.1")};
  auto ok = run(r);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(ok->text, "pinned");
  ASSERT_EQ(llm_.requests().size(), 1u);
  EXPECT_EQ(llm_.requests()[0].headers["host"], "llm.invalid:" + port);
  // An address literal in the URL is connected to directly; the socket callback refuses it when
  // it is not the pinned address.
  auto other = request();
  other.pin = PinnedTarget{"127.0.0.1", static_cast<uint16_t>(std::stoi(port)), *parse_ip("127.0.0.2")};
  auto refused = run(other);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kInternal);
  EXPECT_EQ(llm_.requests().size(), 1u);
}

TEST_F(OpenAiClientTest, AMalformedStreamIsAnInternalError) {
  llm_.script({{200, "text/event-stream", {"data: {\"choices\": [oops\n\n"}}});
  auto r = run(request());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInternal);
}

TEST_F(OpenAiClientTest, AStreamCutShortIsAnInternalError) {
  llm_.script({{200, "text/event-stream", {sse_body({text_chunk("Hel")}, false)}}});
  auto r = run(request());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInternal);
}

TEST_F(OpenAiClientTest, AConnectionFailureIsAnInternalError) {
  auto r = request();
  r.base_url = "http://127.0.0.1:1";
  auto c = run(r);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().code, ErrorCode::kInternal);
}

TEST_F(OpenAiClientTest, AStallPastTheDeadlineIsATimeout) {
  llm_.script({{200, "text/event-stream", {"data: " + text_chunk("Hel") + "\n\n"}, 0, 10000}});
  std::vector<std::string> pieces;
  auto r = run(request(300), &pieces);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kTimeout);
  EXPECT_EQ(pieces, (std::vector<std::string>{"Hel"}));
}

TEST_F(OpenAiClientTest, StopsWhenTheListenerLeaves) {
  llm_.script({{200,
                "text/event-stream",
                {"data: " + text_chunk("a") + "\n\n", "data: " + text_chunk("b") + "\n\n"},
                0,
                10000}});
  int calls = 0;
  auto r = client_.complete(request(5000), [&](std::string_view) {
    ++calls;
    return false;
  });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->text, "a");
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace parley::e2e
