#include "engine/completion_stream.h"

#include <rapidjson/document.h>

#include "core/json.h"

namespace parley {

namespace {
// No provider sends a chunk, or a whole reply, anywhere near these; a stream past them is not a
// chat completion, and holding it would let one agent's provider take the server's memory.
constexpr size_t kMaxLineBytes = 1u << 20;
constexpr size_t kMaxEventBytes = 1u << 20;
constexpr size_t kMaxCompletionBytes = 4u << 20;

ApiError malformed(std::string_view what) {
  return ApiError::internal("The language model provider sent a malformed stream (" +
                            std::string(what) + ").");
}

}  // namespace

Result<void> SseParser::feed(std::string_view bytes) {
  while (!bytes.empty()) {
    size_t nl = bytes.find('\n');
    if (nl == std::string_view::npos) {
      pending_.append(bytes);
      // A line longer than any chunk a provider sends means the body is not an event stream.
      if (pending_.size() > kMaxLineBytes) return malformed("line too long");
      return ok_result();
    }
    std::string_view part = bytes.substr(0, nl);
    bytes.remove_prefix(nl + 1);
    if (pending_.empty()) {
      PARLEY_TRY(line(part));
    } else {
      pending_.append(part);
      std::string whole = std::move(pending_);
      pending_.clear();
      PARLEY_TRY(line(whole));
    }
  }
  return ok_result();
}

Result<void> SseParser::finish() {
  if (!pending_.empty()) {
    std::string last = std::move(pending_);
    pending_.clear();
    PARLEY_TRY(line(last));
  }
  return dispatch();
}

Result<void> SseParser::line(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.empty()) return dispatch();
  if (line.front() == ':') return ok_result();  // a comment (keep-alive)
  size_t colon = line.find(':');
  std::string_view field = line.substr(0, colon);
  std::string_view value =
      colon == std::string_view::npos ? std::string_view{} : line.substr(colon + 1);
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  if (field != "data") return ok_result();  // event, id, retry: not used by the protocol
  if (data_.size() + value.size() + 1 > kMaxEventBytes) return malformed("event too long");
  if (has_data_) data_ += '\n';
  data_.append(value);
  has_data_ = true;
  return ok_result();
}

Result<void> SseParser::dispatch() {
  if (!has_data_) return ok_result();
  std::string data = std::move(data_);
  data_.clear();
  has_data_ = false;
  return on_data_(data);
}

Result<void> CompletionAssembler::apply(std::string_view data) {
  if (done_ || cancelled_) return ok_result();
  if (data == "[DONE]") {
    done_ = true;
    return ok_result();
  }
  auto parsed = parse_json_value(data);
  if (!parsed.ok() || !parsed->IsObject()) return malformed("a chunk is not a JSON object");
  const rapidjson::Document& chunk = *parsed;
  if (chunk.HasMember("error")) {
    return ApiError::internal("The language model provider reported an error during the reply.");
  }
  auto choices = chunk.FindMember("choices");
  if (choices == chunk.MemberEnd()) return ok_result();  // e.g. a usage-only chunk
  if (!choices->value.IsArray()) return malformed("'choices' is not an array");
  for (const auto& choice : choices->value.GetArray()) {
    if (!choice.IsObject()) return malformed("a choice is not an object");
    auto index = choice.FindMember("index");
    if (index != choice.MemberEnd() && index->value.IsInt() && index->value.GetInt() != 0) continue;
    std::string_view finish = string_member(choice, "finish_reason");
    if (!finish.empty()) completion_.finish_reason = finish;
    auto delta = choice.FindMember("delta");
    if (delta == choice.MemberEnd() || delta->value.IsNull()) continue;
    if (!delta->value.IsObject()) return malformed("'delta' is not an object");
    std::string_view text = string_member(delta->value, "content");
    if (!text.empty()) {
      if (size() + text.size() > kMaxCompletionBytes) return malformed("reply too long");
      completion_.text.append(text);
      if (!on_text_(text)) {
        cancelled_ = true;
        return ok_result();
      }
    }
    auto calls = delta->value.FindMember("tool_calls");
    if (calls == delta->value.MemberEnd() || calls->value.IsNull()) continue;
    if (!calls->value.IsArray()) return malformed("'tool_calls' is not an array");
    for (const auto& call : calls->value.GetArray()) {
      if (!call.IsObject()) return malformed("a tool call is not an object");
      // Fragments of one call share its index; providers that omit it send one call at a time.
      size_t at = completion_.tool_calls.empty() ? 0 : completion_.tool_calls.size() - 1;
      auto idx = call.FindMember("index");
      if (idx != call.MemberEnd()) {
        if (!idx->value.IsUint() || idx->value.GetUint() > 64)
          return malformed("bad tool call index");
        at = idx->value.GetUint();
      } else if (!string_member(call, "id").empty()) {
        at = completion_.tool_calls.size();
      }
      if (completion_.tool_calls.size() <= at) completion_.tool_calls.resize(at + 1);
      ToolCall& target = completion_.tool_calls[at];
      std::string_view id = string_member(call, "id");
      if (!id.empty()) target.id = id;
      auto fn = call.FindMember("function");
      if (fn != call.MemberEnd() && fn->value.IsObject()) {
        std::string_view name = string_member(fn->value, "name");
        std::string_view arguments = string_member(fn->value, "arguments");
        if (size() + name.size() + arguments.size() > kMaxCompletionBytes) return malformed("reply too long");
        target.name.append(name);
        target.arguments.append(arguments);
      }
    }
  }
  return ok_result();
}

Result<void> CompletionAssembler::apply_whole(std::string_view body) {
  if (body.size() > kMaxCompletionBytes) return malformed("reply too long");
  auto parsed = parse_json_value(body);
  if (!parsed.ok() || !parsed->IsObject()) return malformed("the answer is not a JSON object");
  const rapidjson::Document& doc = *parsed;
  if (doc.HasMember("error"))
    return ApiError::internal("The language model provider reported an error during the reply.");
  auto choices = doc.FindMember("choices");
  if (choices == doc.MemberEnd() || !choices->value.IsArray() || choices->value.Empty())
    return malformed("no choices");
  const rapidjson::Value& choice = choices->value[0];
  if (!choice.IsObject()) return malformed("a choice is not an object");
  completion_.finish_reason = string_member(choice, "finish_reason");
  auto message = choice.FindMember("message");
  if (message == choice.MemberEnd() || !message->value.IsObject()) return malformed("no message");
  auto calls = message->value.FindMember("tool_calls");
  if (calls != message->value.MemberEnd() && calls->value.IsArray()) {
    for (const auto& call : calls->value.GetArray()) {
      if (!call.IsObject()) return malformed("a tool call is not an object");
      ToolCall t;
      t.id = string_member(call, "id");
      auto fn = call.FindMember("function");
      if (fn != call.MemberEnd() && fn->value.IsObject()) {
        t.name = string_member(fn->value, "name");
        t.arguments = string_member(fn->value, "arguments");
      }
      completion_.tool_calls.push_back(std::move(t));
    }
  }
  done_ = true;
  std::string_view text = string_member(message->value, "content");
  if (!text.empty()) {
    completion_.text.append(text);
    if (!on_text_(text)) cancelled_ = true;
  }
  return ok_result();
}

size_t CompletionAssembler::size() const {
  size_t n = completion_.text.size();
  for (const auto& call : completion_.tool_calls) n += call.id.size() + call.name.size() + call.arguments.size();
  return n;
}

}  // namespace parley
