#include "api/openai_answer.h"

#include "api/openai_errors.h"
#include "api/openai_request.h"
#include "http/responses.h"
#include "views/chat_json.h"

namespace parley {

namespace {
std::string data_line(std::string_view json) {
  std::string out;
  out.reserve(json.size() + 8);
  out.append("data: ").append(json).append("\n\n");
  return out;
}

std::string_view finish_reason(const ChatReply& reply) {
  return reply.blocks.cut_at_length ? "length" : "stop";
}

// What OpenAI clients ignore and Parley's callers read: the conversation and the reply's blocks.
void write_parley(JsonWriter& w, const ChatReply& reply) {
  w.key("parley").begin_object();
  w.key("conversationId").string(reply.conversation_id);
  w.key("sessionId").string(reply.session_id);
  write_reply_block_fields(w, reply);
  w.end_object();
}
}  // namespace

void OpenAiAnswerWriter::begin_chunk(JsonWriter& w) const {
  w.begin_object();
  w.key("id").string(meta_.id);
  w.key("object").string("chat.completion.chunk");
  w.key("created").integer(meta_.created_s);
  w.key("model").string(meta_.model);
}

void OpenAiAnswerWriter::write_usage(JsonWriter& w, const ChatReply& reply) const {
  int64_t completion = estimated_tokens(reply.reply.size());
  w.key("usage").begin_object();
  w.key("prompt_tokens").integer(meta_.prompt_tokens);
  w.key("completion_tokens").integer(completion);
  w.key("total_tokens").integer(meta_.prompt_tokens + completion);
  w.end_object();
}

Response OpenAiAnswerWriter::error(const ApiError& error) const {
  return openai_error_response(error);
}

Response OpenAiAnswerWriter::json(const ChatReply& reply) const {
  JsonWriter w;
  w.begin_object();
  w.key("id").string(meta_.id);
  w.key("object").string("chat.completion");
  w.key("created").integer(meta_.created_s);
  w.key("model").string(meta_.model);
  w.key("choices").begin_array().begin_object();
  w.key("index").integer(0);
  w.key("message").begin_object();
  w.key("role").string("assistant").key("content").string(reply.reply).key("refusal").null();
  w.end_object();
  w.key("logprobs").null();
  w.key("finish_reason").string(finish_reason(reply));
  w.end_object().end_array();
  write_usage(w, reply);
  write_parley(w, reply);
  w.end_object();
  return json_response(200, w);
}

std::string OpenAiAnswerWriter::opening(const ChatTurn&) const {
  JsonWriter w;
  begin_chunk(w);
  w.key("choices").begin_array().begin_object().key("index").integer(0);
  w.key("delta").begin_object().key("role").string("assistant").key("content").string("");
  w.end_object();
  w.key("logprobs").null().key("finish_reason").null().end_object().end_array();
  if (meta_.include_usage) w.key("usage").null();
  w.end_object();
  return data_line(w.view());
}

std::string OpenAiAnswerWriter::text(std::string_view piece) const {
  JsonWriter w;
  begin_chunk(w);
  w.key("choices").begin_array().begin_object().key("index").integer(0);
  w.key("delta").begin_object().key("content").string(piece).end_object();
  w.key("logprobs").null().key("finish_reason").null().end_object().end_array();
  if (meta_.include_usage) w.key("usage").null();
  w.end_object();
  return data_line(w.view());
}

std::string OpenAiAnswerWriter::closing(const ChatReply& reply) const {
  JsonWriter last;
  begin_chunk(last);
  last.key("choices").begin_array().begin_object().key("index").integer(0);
  last.key("delta").begin_object().end_object();
  last.key("logprobs").null().key("finish_reason").string(finish_reason(reply));
  last.end_object().end_array();
  if (meta_.include_usage) last.key("usage").null();
  write_parley(last, reply);
  last.end_object();
  std::string out = data_line(last.view());
  if (meta_.include_usage) {
    JsonWriter usage;
    begin_chunk(usage);
    usage.key("choices").begin_array().end_array();
    write_usage(usage, reply);
    usage.end_object();
    out += data_line(usage.view());
  }
  out += "data: [DONE]\n\n";
  return out;
}

std::string OpenAiAnswerWriter::failure(const ApiError& error) const {
  return data_line(openai_error_body(error));
}

}  // namespace parley
