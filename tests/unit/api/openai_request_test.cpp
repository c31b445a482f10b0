// The OpenAI Chat Completions body read into the domain's chat request: the question, the
// history, the session, the sampling options, and each refusal naming its parameter.
#include "api/openai_request.h"

#include <gtest/gtest.h>

#include "core/json.h"

namespace parley {
namespace {

std::variant<OpenAiChatRequest, OpenAiFault> parse(std::string_view body) {
  auto doc = parse_json_object(body);
  EXPECT_TRUE(doc.ok());
  return parse_openai_chat(*doc);
}

OpenAiChatRequest accepted(std::string_view body) {
  auto r = parse(body);
  if (auto* f = std::get_if<OpenAiFault>(&r)) {
    ADD_FAILURE() << f->param << ": " << f->error.message;
    return {};
  }
  return std::get<OpenAiChatRequest>(std::move(r));
}

OpenAiFault refused(std::string_view body) {
  auto r = parse(body);
  if (!std::holds_alternative<OpenAiFault>(r)) {
    ADD_FAILURE() << "accepted: " << body;
    return {ApiError::invalid(""), "", ""};
  }
  auto f = std::get<OpenAiFault>(std::move(r));
  EXPECT_EQ(f.error.code, ErrorCode::kInvalidRequest);
  return f;
}

TEST(OpenAiRequest, TheLastUserMessageIsTheQuestionAndEarlierOnesTheHistory) {
  auto r = accepted(R"({"model": "agt_1", "messages": [
      {"role": "system", "content": "Be brief."},
      {"role": "user", "content": "First?"},
      {"role": "assistant", "content": "One."},
      {"role": "user", "content": [{"type": "text", "text": "Second"}, {"type": "text", "text": "?"}]},
      {"role": "developer", "content": "trailing instructions are allowed"}]})");
  EXPECT_EQ(r.chat.agent_id, "agt_1");
  EXPECT_EQ(r.chat.message, "Second?");
  ASSERT_TRUE(r.chat.history);
  ASSERT_EQ(r.chat.history->size(), 2u);  // the system message is not the agent's history
  EXPECT_EQ((*r.chat.history)[0].role, "user");
  EXPECT_EQ((*r.chat.history)[0].content, "First?");
  EXPECT_EQ((*r.chat.history)[1].role, "assistant");
  EXPECT_EQ((*r.chat.history)[1].content, "One.");
  EXPECT_FALSE(r.stream);
  EXPECT_FALSE(r.chat.session_id);
  EXPECT_EQ(r.prompt_bytes, std::string("Second?First?One.").size());
}

TEST(OpenAiRequest, HistoryKeepsTheLast40Messages) {
  std::string body = R"({"model": "agt_1", "messages": [)";
  for (int i = 0; i < 50; ++i)
    body += R"({"role": ")" + std::string(i % 2 ? "assistant" : "user") + R"(", "content": "m)" +
            std::to_string(i) + R"("},)";
  body += R"({"role": "user", "content": "last"}]})";
  auto r = accepted(body);
  ASSERT_EQ(r.chat.history->size(), 40u);
  EXPECT_EQ(r.chat.history->front().content, "m10");
  EXPECT_EQ(r.chat.history->back().content, "m49");
}

TEST(OpenAiRequest, UserOrMetadataNameTheSession) {
  // A lone question leaves the history to the conversation it continues.
  EXPECT_FALSE(
      accepted(R"({"model": "a", "messages": [{"role": "user", "content": "q"}]})").chat.history);
  auto by_user =
      accepted(R"({"model": "a", "user": "u-1", "messages": [{"role": "user", "content": "q"}]})");
  EXPECT_EQ(by_user.chat.session_id, "u-1");
  auto by_metadata = accepted(
      R"({"model": "a", "user": "u-1", "metadata": {"sessionId": "s-2", "conversationId": "cnv_x", "other": "1"},
          "messages": [{"role": "user", "content": "q"}]})");
  EXPECT_EQ(by_metadata.chat.session_id, "s-2");
  EXPECT_EQ(by_metadata.chat.conversation_id, "cnv_x");
  EXPECT_EQ(refused(R"({"model": "a", "user": "", "messages": [{"role": "user", "content": "q"}]})")
                .param,
            "user");
  EXPECT_EQ(refused(R"({"model": "a", "user": ")" + std::string(101, 'u') +
                    R"(", "messages": [{"role": "user", "content": "q"}]})")
                .param,
            "user");
  EXPECT_EQ(
      refused(
          R"({"model": "a", "metadata": {"sessionId": 5}, "messages": [{"role": "user", "content": "q"}]})")
          .param,
      "metadata.sessionId");
}

TEST(OpenAiRequest, SamplingOptionsAndStreamingAreRead) {
  auto r = accepted(R"({"model": "a", "temperature": 0.2, "top_p": 0.9, "max_tokens": 64,
      "stream": true, "stream_options": {"include_usage": true}, "seed": 7, "stop": ["x"],
      "presence_penalty": 0, "n": 1, "tools": [], "tool_choice": "none", "logprobs": false,
      "response_format": {"type": "text"}, "messages": [{"role": "user", "content": "q"}]})");
  EXPECT_EQ(r.chat.generation.temperature, 0.2);
  EXPECT_EQ(r.chat.generation.top_p, 0.9);
  EXPECT_EQ(r.chat.generation.max_tokens, 64);
  EXPECT_TRUE(r.stream);
  EXPECT_TRUE(r.include_usage);
  auto newer = accepted(
      R"({"model": "a", "max_completion_tokens": 9, "messages": [{"role": "user", "content": "q"}]})");
  EXPECT_EQ(newer.chat.generation.max_tokens, 9);
}

TEST(OpenAiRequest, UnsupportedParametersAreRefusedByName) {
  const std::string q = R"("messages": [{"role": "user", "content": "q"}])";
  for (auto [field, value] : std::vector<std::pair<std::string, std::string>>{
           {"n", "2"},
           {"tools", R"([{"type": "function", "function": {"name": "f"}}])"},
           {"tool_choice", R"("auto")"},
           {"functions", R"([{"name": "f"}])"},
           {"function_call", R"("auto")"},
           {"logprobs", "true"},
           {"top_logprobs", "2"},
           {"audio", R"({"voice": "alloy", "format": "mp3"})"},
           {"modalities", R"(["text", "audio"])"},
           {"response_format", R"({"type": "json_object"})"},
           {"prediction", R"({"type": "content", "content": "x"})"},
           {"logit_bias", R"({"50256": -100})"},
           {"web_search_options", "{}"}}) {
    auto f = refused(R"({"model": "a", ")" + field + "\": " + value + ", " + q + "}");
    EXPECT_EQ(f.param, field);
    EXPECT_EQ(f.code, "unsupported_parameter") << field;
    EXPECT_NE(f.error.message.find("'" + field + "'"), std::string::npos) << f.error.message;
  }
}

TEST(OpenAiRequest, WrongValuesNameTheirParameter) {
  EXPECT_EQ(refused(R"({"messages": [{"role": "user", "content": "q"}]})").param, "model");
  EXPECT_EQ(refused(R"({"model": 3, "messages": [{"role": "user", "content": "q"}]})").code,
            "invalid_type");
  EXPECT_EQ(refused(R"({"model": "a"})").param, "messages");
  EXPECT_EQ(refused(R"({"model": "a", "messages": []})").param, "messages");
  EXPECT_EQ(refused(R"({"model": "a", "messages": [{"role": "system", "content": "s"}]})").param,
            "messages");
  EXPECT_EQ(
      refused(
          R"({"model": "a", "messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]})")
          .param,
      "messages");
  EXPECT_EQ(refused(R"({"model": "a", "messages": [{"role": "user", "content": "  "}]})").param,
            "messages[0].content");
  EXPECT_EQ(refused(R"({"model": "a", "messages": [{"role": "user", "content": ")" +
                    std::string(10001, 'x') + R"("}]})")
                .param,
            "messages[0].content");
  EXPECT_EQ(refused(R"({"model": "a", "messages": [{"role": "user"}]})").param,
            "messages[0].content");
  EXPECT_EQ(refused(R"({"model": "a", "messages": [{"role": "robot", "content": "q"}]})").param,
            "messages[0].role");
  auto tool = refused(
      R"({"model": "a", "messages": [{"role": "user", "content": "q"}, {"role": "tool", "content": "r", "tool_call_id": "c"}, {"role": "user", "content": "q"}]})");
  EXPECT_EQ(tool.param, "messages[1].role");
  EXPECT_EQ(tool.code, "unsupported_value");
  auto image = refused(
      R"({"model": "a", "messages": [{"role": "user", "content": [{"type": "text", "text": "see"}, {"type": "image_url", "image_url": {"url": "https://x/y.png"}}]}]})");
  EXPECT_EQ(image.param, "messages[0].content[1].type");
  EXPECT_NE(image.error.message.find("image_url"), std::string::npos);
  EXPECT_EQ(
      refused(
          R"({"model": "a", "messages": [{"role": "assistant", "content": "a", "tool_calls": [{"id": "c"}]}, {"role": "user", "content": "q"}]})")
          .param,
      "messages[0].tool_calls");
  EXPECT_EQ(
      refused(R"({"model": "a", "temperature": 3, "messages": [{"role": "user", "content": "q"}]})")
          .param,
      "temperature");
  EXPECT_EQ(
      refused(R"({"model": "a", "top_p": "x", "messages": [{"role": "user", "content": "q"}]})")
          .param,
      "top_p");
  EXPECT_EQ(
      refused(R"({"model": "a", "max_tokens": 0, "messages": [{"role": "user", "content": "q"}]})")
          .param,
      "max_tokens");
  EXPECT_EQ(
      refused(R"({"model": "a", "stream": "yes", "messages": [{"role": "user", "content": "q"}]})")
          .param,
      "stream");
  EXPECT_EQ(
      refused(
          R"({"model": "a", "stream_options": {"include_usage": 1}, "messages": [{"role": "user", "content": "q"}]})")
          .param,
      "stream_options.include_usage");
}

TEST(OpenAiRequest, UsageIsEstimatedAsAQuarterOfTheBytes) {
  EXPECT_EQ(estimated_tokens(0), 0);
  EXPECT_EQ(estimated_tokens(1), 1);
  EXPECT_EQ(estimated_tokens(8), 2);
  EXPECT_EQ(estimated_tokens(9), 3);
}

}  // namespace
}  // namespace parley
