// The body of POST /openai/v1/chat/completions read into the chat request the domain takes
// (domain/chat.h): `model` is the agent, the last `user` message the question, the earlier user
// and assistant messages the history the agent sees (the last 40), `user` or
// `metadata.sessionId` the caller's session (so a client that resends the whole history each
// turn continues one stored conversation), `metadata.conversationId` a conversation to continue;
// temperature, top_p and max_tokens (or max_completion_tokens) go to an LLM engine. Parameters
// Parley cannot honour (n > 1, tools, tool_choice, functions, logprobs, audio, non-text
// modalities or content parts, response formats other than text, predictions, logit_bias, web
// search options) are refused naming them; other known harmless ones are accepted and ignored.
// docs/decisions/openai-compatible.md gives the reasons. Stateless.
#pragma once

#include <rapidjson/document.h>

#include <variant>

#include "api/openai_errors.h"
#include "domain/chat.h"

namespace parley {

struct OpenAiChatRequest {
  ChatRequest chat;  // agent_id is the model
  bool stream = false;
  bool include_usage = false;  // stream_options.include_usage
  size_t prompt_bytes = 0;     // the question and the history, for the usage estimate
};

// The request, or the 400 naming the parameter at fault.
std::variant<OpenAiChatRequest, OpenAiFault> parse_openai_chat(const rapidjson::Value& body);

// OpenAI-style token counts are not known for every engine; usage estimates them as a quarter
// of the UTF-8 bytes, rounded up (docs/decisions/openai-compatible.md).
inline int64_t estimated_tokens(size_t bytes) { return static_cast<int64_t>((bytes + 3) / 4); }

}  // namespace parley
