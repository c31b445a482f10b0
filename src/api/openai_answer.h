// A chat turn's answer in OpenAI's Chat Completions shapes, for views/chat_answer.h's machinery:
// a `chat.completion` object (choices[0].message.content, finish_reason, usage), or a stream of
// `chat.completion.chunk` events (a first chunk with the assistant role, one per piece of text as
// the engine writes it, a last one with finish_reason, a usage chunk when the request asked with
// stream_options.include_usage, then `data: [DONE]`). The reply's conversationId, sessionId and
// blocks (sources, followUps, buttons, ... as the chat reply names them) ride in one extra
// top-level object, `parley`, on the completion and on the chunk with finish_reason. Errors are
// OpenAI's (api/openai_errors.h); one after the stream began is a `data: {"error": …}` event.
// Immutable once made; one per request.
#pragma once

#include <cstdint>
#include <string>

#include "core/json.h"
#include "views/chat_answer.h"

namespace parley {

struct CompletionMeta {
  std::string id;         // "chatcmpl-" + random
  int64_t created_s = 0;  // Unix seconds
  std::string model;      // the agent's id, as asked
  bool include_usage = false;
  int64_t prompt_tokens = 0;  // estimated (api/openai_request.h)
};

class OpenAiAnswerWriter final : public ChatAnswerWriter {
 public:
  explicit OpenAiAnswerWriter(CompletionMeta meta) : meta_(std::move(meta)) {}

  Response error(const ApiError& error) const override;
  Response json(const ChatReply& reply) const override;
  std::string opening(const ChatTurn& turn) const override;
  std::string text(std::string_view piece) const override;
  std::string closing(const ChatReply& reply) const override;
  std::string failure(const ApiError& error) const override;

 private:
  void begin_chunk(JsonWriter& w) const;
  void write_usage(JsonWriter& w, const ChatReply& reply) const;
  CompletionMeta meta_;
};

}  // namespace parley
