// The outcome of a "Test connection" call told from what the outbound client saw: each status
// and failure to its outcome, the provider's body read but never quoted.
#include "engine/llm_check.h"

#include <curl/curl.h>
#include <gtest/gtest.h>

#include "core/json.h"

namespace parley {
namespace {

SendOutcome answered(int64_t status, std::string body) {
  SendOutcome o;
  o.status = status;
  o.body = std::move(body);
  o.duration_ms = 42;
  if (status < 200 || status >= 300) o.error = "HTTP " + std::to_string(status);
  return o;
}

SendOutcome failed(SendFailure failure, CURLcode code) {
  SendOutcome o;
  o.failure = failure;
  o.error = curl_easy_strerror(code);
  o.duration_ms = 7;
  return o;
}

TEST(LlmCheckOutcome, ACompletionIsAnAnswerWithItsTime) {
  auto c = classify_llm_check(answered(200, R"({"choices":[{"message":{"content":"OK"}}]})"));
  EXPECT_TRUE(c.ok());
  EXPECT_EQ(c.outcome, "answered");
  EXPECT_EQ(c.message, "The model answered in 42 ms.");
  EXPECT_EQ(c.status, 200);
  EXPECT_EQ(c.duration_ms, 42);
}

TEST(LlmCheckOutcome, A2xxThatIsNotACompletionIsABadResponse) {
  EXPECT_EQ(classify_llm_check(answered(200, "<html></html>")).outcome, "bad_response");
  EXPECT_EQ(classify_llm_check(answered(200, R"({"data":[]})")).outcome, "bad_response");
}

TEST(LlmCheckOutcome, StatusesAreToldApartWithoutQuotingTheProvider) {
  EXPECT_EQ(classify_llm_check(answered(401, "secret words")).outcome, "unauthorized");
  EXPECT_EQ(classify_llm_check(answered(403, "")).outcome, "unauthorized");
  EXPECT_EQ(classify_llm_check(answered(404, R"({"error":{"code":"model_not_found"}})")).outcome,
            "unknown_model");
  EXPECT_EQ(classify_llm_check(answered(404, R"({"error":"Model \"x\" not found"})")).outcome,
            "unknown_model");
  EXPECT_EQ(classify_llm_check(answered(404, "<h1>Not Found</h1>")).outcome, "not_found");
  auto other = classify_llm_check(answered(502, "secret words"));
  EXPECT_EQ(other.outcome, "http_error");
  EXPECT_EQ(other.message, "The provider answered HTTP 502.");
  for (int status : {401, 404, 502})
    EXPECT_EQ(classify_llm_check(answered(status, "secret words")).message.find("secret"),
              std::string::npos);
}

TEST(LlmCheckOutcome, FailuresWithoutAnAnswer) {
  EXPECT_EQ(classify_llm_check(failed(SendFailure::kTimeout, CURLE_OPERATION_TIMEDOUT)).outcome,
            "timeout");
  EXPECT_EQ(classify_llm_check(failed(SendFailure::kTransfer, CURLE_COULDNT_CONNECT)).outcome,
            "unreachable");
  EXPECT_EQ(classify_llm_check(failed(SendFailure::kTransfer, CURLE_COULDNT_RESOLVE_HOST)).outcome,
            "unreachable");
  for (CURLcode tls :
       {CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE}) {
    auto c = classify_llm_check(failed(SendFailure::kTransfer, tls));
    EXPECT_EQ(c.outcome, "tls_error") << curl_easy_strerror(tls);
    EXPECT_FALSE(c.status.has_value());
  }
}

TEST(LlmCheckOutcome, NothingToCallIsToldWithoutACall) {
  LlmCheck got;
  start_llm_check({}, {}, [&](LlmCheck c) { got = std::move(c); });
  EXPECT_EQ(got.outcome, "not_configured");
  EXPECT_EQ(got.duration_ms, 0);
  LlmSettings own;
  own.base_url = "https://provider.example/v1";
  own.model = "m";
  start_llm_check(own, {}, [&](LlmCheck c) { got = std::move(c); });  // no guard: refused
  EXPECT_EQ(got.outcome, "refused");
  EXPECT_EQ(got.base_url, "https://provider.example/v1");
}

TEST(LlmCheckOutcome, TheRequestAsksForOneWordWithoutStreaming) {
  auto body = parse_json_value(llm_check_request_body("small"));
  ASSERT_TRUE(body.ok());
  EXPECT_EQ(string_member(*body, "model"), "small");
  EXPECT_FALSE((*body)["stream"].GetBool());
  EXPECT_EQ((*body)["messages"].Size(), 1u);
}

}  // namespace
}  // namespace parley
