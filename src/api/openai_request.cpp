#include "api/openai_request.h"

#include <optional>
#include <string>

#include "core/json.h"

namespace parley {

namespace {
using Value = rapidjson::Value;

OpenAiFault fault(std::string param, std::string code, std::string message) {
  return {ApiError::invalid(std::move(message)), std::move(param), std::move(code)};
}

OpenAiFault wrong_type(const std::string& param, std::string_view expected) {
  return fault(param, "invalid_type",
               "Invalid type for '" + param + "': expected " + std::string(expected) + ".");
}

OpenAiFault unsupported(const std::string& param, std::string_view why) {
  return fault(param, "unsupported_parameter",
               "Unsupported parameter: '" + param + "' " + std::string(why));
}

const Value* member(const Value& object, const char* name) {
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || it->value.IsNull()) return nullptr;
  return &it->value;
}

// Parameters refused when present with a value that asks for something Parley does not do.
std::optional<OpenAiFault> refused_parameter(const Value& body) {
  if (const Value* n = member(body, "n")) {
    if (!n->IsInt64()) return wrong_type("n", "an integer");
    if (n->GetInt64() != 1)
      return unsupported("n", "must be 1: an agent writes one reply per message.");
  }
  if (const Value* tools = member(body, "tools");
      tools != nullptr && !(tools->IsArray() && tools->Empty()))
    return unsupported("tools",
                       "is not supported: an agent calls only the tools its settings give it.");
  if (const Value* choice = member(body, "tool_choice");
      choice != nullptr && !(choice->IsString() && std::string_view(choice->GetString()) == "none"))
    return unsupported("tool_choice",
                       "is not supported: an agent calls only the tools its settings give it.");
  if (member(body, "functions") != nullptr)
    return unsupported("functions",
                       "is not supported: an agent calls only the tools its settings give it.");
  if (const Value* call = member(body, "function_call");
      call != nullptr && !(call->IsString() && std::string_view(call->GetString()) == "none"))
    return unsupported("function_call",
                       "is not supported: an agent calls only the tools its settings give it.");
  if (const Value* logprobs = member(body, "logprobs"); logprobs != nullptr && !logprobs->IsFalse())
    return unsupported("logprobs", "is not supported: replies carry no token probabilities.");
  if (member(body, "top_logprobs") != nullptr)
    return unsupported("top_logprobs", "is not supported: replies carry no token probabilities.");
  if (member(body, "audio") != nullptr)
    return unsupported("audio", "is not supported: agents reply in text only.");
  if (const Value* modalities = member(body, "modalities")) {
    bool text_only = modalities->IsArray();
    if (text_only) {
      for (const auto& m : modalities->GetArray())
        text_only = text_only && m.IsString() && std::string_view(m.GetString()) == "text";
    }
    if (!text_only)
      return unsupported("modalities",
                         "is not supported beyond [\"text\"]: agents reply in text only.");
  }
  if (const Value* format = member(body, "response_format")) {
    if (!format->IsObject() || string_member(*format, "type") != "text")
      return unsupported("response_format",
                         "is not supported beyond {\"type\": \"text\"}: an agent's reply is text.");
  }
  if (member(body, "prediction") != nullptr) return unsupported("prediction", "is not supported.");
  if (member(body, "web_search_options") != nullptr)
    return unsupported("web_search_options", "is not supported: web search is an agent setting.");
  if (const Value* bias = member(body, "logit_bias");
      bias != nullptr && !(bias->IsObject() && bias->MemberCount() == 0))
    return unsupported("logit_bias", "is not supported.");
  return std::nullopt;
}

// A number parameter within [low, high], or nothing when absent.
std::variant<std::optional<double>, OpenAiFault> number_in(const Value& body, const char* name,
                                                           double low, double high) {
  const Value* v = member(body, name);
  if (v == nullptr) return std::optional<double>();
  if (!v->IsNumber()) return wrong_type(name, "a number");
  double x = v->GetDouble();
  if (x < low || x > high) {
    return fault(name, "invalid_value",
                 "'" + std::string(name) + "' must be between " + to_json(Value(low)) + " and " +
                     to_json(Value(high)) + ".");
  }
  return std::optional<double>(x);
}

std::variant<std::optional<int64_t>, OpenAiFault> token_limit(const Value& body) {
  for (const char* name : {"max_completion_tokens", "max_tokens"}) {
    const Value* v = member(body, name);
    if (v == nullptr) continue;
    if (!v->IsInt64()) return wrong_type(name, "an integer");
    if (v->GetInt64() < 1)
      return fault(name, "invalid_value", "'" + std::string(name) + "' must be at least 1.");
    return std::optional<int64_t>(v->GetInt64());
  }
  return std::optional<int64_t>();
}

// The text of a message's content: a string, or the concatenated text of its parts; null counts
// as empty when `nullable`.
std::variant<std::string, OpenAiFault> content_text(const Value& message, const std::string& at,
                                                    bool nullable) {
  const std::string param = at + ".content";
  auto it = message.FindMember("content");
  if (it == message.MemberEnd() || it->value.IsNull()) {
    if (nullable) return std::string();
    return fault(param, "missing_required_parameter",
                 "Missing required parameter: '" + param + "'.");
  }
  const Value& content = it->value;
  if (content.IsString()) return std::string(content.GetString(), content.GetStringLength());
  if (!content.IsArray()) return wrong_type(param, "a string or an array of text parts");
  std::string text;
  for (rapidjson::SizeType j = 0; j < content.Size(); ++j) {
    const std::string part = param + "[" + std::to_string(j) + "]";
    const Value& p = content[j];
    if (!p.IsObject()) return wrong_type(part, "an object");
    std::string_view type = string_member(p, "type");
    if (type == "text" || type == "refusal") {
      const Value* t = member(p, type == "text" ? "text" : "refusal");
      if (t == nullptr || !t->IsString())
        return wrong_type(part + "." + std::string(type), "a string");
      text.append(t->GetString(), t->GetStringLength());
    } else if (type == "image_url" || type == "input_audio" || type == "file") {
      return fault(part + ".type", "unsupported_value",
                   "Unsupported value: '" + part + ".type' is '" + std::string(type) +
                       "'; agents read text parts only.");
    } else {
      return fault(part + ".type", "invalid_value",
                   "Invalid value for '" + part + ".type': expected 'text'.");
    }
  }
  return text;
}

struct ReadMessage {
  std::string role;
  std::string text;
};

std::variant<ReadMessage, OpenAiFault> read_message(const Value& m, size_t i) {
  const std::string at = "messages[" + std::to_string(i) + "]";
  if (!m.IsObject()) return wrong_type(at, "an object");
  const Value* role_value = member(m, "role");
  if (role_value == nullptr)
    return fault(at + ".role", "missing_required_parameter",
                 "Missing required parameter: '" + at + ".role'.");
  if (!role_value->IsString()) return wrong_type(at + ".role", "a string");
  std::string role(role_value->GetString(), role_value->GetStringLength());
  if (role == "tool" || role == "function") {
    return fault(at + ".role", "unsupported_value",
                 "Unsupported value: '" + at + ".role' is '" + role +
                     "'; this endpoint makes no tool calls for a tool message to answer.");
  }
  if (role != "system" && role != "developer" && role != "user" && role != "assistant") {
    return fault(at + ".role", "invalid_value",
                 "Invalid value for '" + at +
                     ".role': expected 'system', 'developer', 'user' or 'assistant'.");
  }
  if (role == "assistant") {
    if (const Value* calls = member(m, "tool_calls");
        calls != nullptr && !(calls->IsArray() && calls->Empty()))
      return unsupported(at + ".tool_calls",
                         "is not supported: this endpoint makes no tool calls.");
    if (member(m, "function_call") != nullptr)
      return unsupported(at + ".function_call",
                         "is not supported: this endpoint makes no tool calls.");
  }
  auto text = content_text(m, at, role == "assistant");
  if (auto* f = std::get_if<OpenAiFault>(&text)) return std::move(*f);
  return ReadMessage{std::move(role), std::move(std::get<std::string>(text))};
}

// The optional string `name` of `object` (`param` names it in a refusal), at most `max_chars`.
std::variant<std::optional<std::string>, OpenAiFault> optional_text(const Value& object,
                                                                    const char* name,
                                                                    const std::string& param,
                                                                    size_t max_chars) {
  const Value* v = member(object, name);
  if (v == nullptr) return std::optional<std::string>();
  if (!v->IsString()) return wrong_type(param, "a string");
  std::string s(v->GetString(), v->GetStringLength());
  if (s.empty() || (max_chars > 0 && utf8_length(s) > max_chars)) {
    return fault(param, "invalid_value",
                 "'" + param + "' must be 1 to " + std::to_string(max_chars) + " characters.");
  }
  return std::optional<std::string>(std::move(s));
}
}  // namespace

std::variant<OpenAiChatRequest, OpenAiFault> parse_openai_chat(const Value& body) {
  OpenAiChatRequest out;
  ChatRequest& chat = out.chat;
  const Value* model = member(body, "model");
  if (model == nullptr)
    return fault("model", "missing_required_parameter", "Missing required parameter: 'model'.");
  if (!model->IsString()) return wrong_type("model", "a string (an agent's id)");
  chat.agent_id.assign(model->GetString(), model->GetStringLength());
  if (chat.agent_id.empty())
    return fault("model", "invalid_value", "'model' must be an agent's id.");

  if (auto refused = refused_parameter(body)) return std::move(*refused);

  const Value* messages = member(body, "messages");
  if (messages == nullptr)
    return fault("messages", "missing_required_parameter",
                 "Missing required parameter: 'messages'.");
  if (!messages->IsArray()) return wrong_type("messages", "an array of messages");
  if (messages->Empty()) return fault("messages", "invalid_value", "'messages' must not be empty.");
  std::vector<ReadMessage> read;
  read.reserve(messages->Size());
  for (rapidjson::SizeType i = 0; i < messages->Size(); ++i) {
    auto m = read_message((*messages)[i], i);
    if (auto* f = std::get_if<OpenAiFault>(&m)) return std::move(*f);
    read.push_back(std::move(std::get<ReadMessage>(m)));
  }
  // The question is the last user message; only instructions may follow it.
  size_t question = read.size();
  for (size_t i = read.size(); i-- > 0;) {
    if (read[i].role == "user") {
      question = i;
      break;
    }
    if (read[i].role == "assistant") {
      return fault("messages", "invalid_value",
                   "'messages' must end with a user message (the question); messages[" +
                       std::to_string(i) + "] is an assistant message.");
    }
  }
  if (question == read.size())
    return fault("messages", "invalid_value",
                 "'messages' must contain a user message (the question).");
  const std::string question_param = "messages[" + std::to_string(question) + "].content";
  if (is_blank(read[question].text))
    return fault(question_param, "invalid_value", "'" + question_param + "' must not be empty.");
  if (utf8_length(read[question].text) > kMaxMessageChars) {
    return fault(question_param, "invalid_value",
                 "'" + question_param + "' must be at most 10000 characters.");
  }
  chat.message = std::move(read[question].text);
  out.prompt_bytes = chat.message.size();
  std::vector<HistoryMessage> history;
  for (size_t i = 0; i < question; ++i) {
    // Instructions are the agent's own (its settings); a client's system messages are not.
    if (read[i].role != "user" && read[i].role != "assistant") continue;
    if (read[i].text.empty()) continue;
    history.push_back({std::move(read[i].role), std::move(read[i].text)});
  }
  if (history.size() > kHistoryWindow)
    history.erase(history.begin(), history.end() - static_cast<std::ptrdiff_t>(kHistoryWindow));
  for (const auto& h : history) out.prompt_bytes += h.content.size();
  // Only the question: a conversation it continues gives the history, as on the chat endpoint.
  if (!history.empty()) chat.history = std::move(history);

  if (const Value* stream = member(body, "stream")) {
    if (!stream->IsBool()) return wrong_type("stream", "a boolean");
    out.stream = stream->GetBool();
  }
  if (const Value* options = member(body, "stream_options")) {
    if (!options->IsObject()) return wrong_type("stream_options", "an object");
    if (const Value* usage = member(*options, "include_usage")) {
      if (!usage->IsBool()) return wrong_type("stream_options.include_usage", "a boolean");
      out.include_usage = usage->GetBool();
    }
  }
  auto temperature = number_in(body, "temperature", 0, 2);
  if (auto* f = std::get_if<OpenAiFault>(&temperature)) return std::move(*f);
  chat.generation.temperature = std::get<0>(temperature);
  auto top_p = number_in(body, "top_p", 0, 1);
  if (auto* f = std::get_if<OpenAiFault>(&top_p)) return std::move(*f);
  chat.generation.top_p = std::get<0>(top_p);
  auto max_tokens = token_limit(body);
  if (auto* f = std::get_if<OpenAiFault>(&max_tokens)) return std::move(*f);
  chat.generation.max_tokens = std::get<0>(max_tokens);

  auto user = optional_text(body, "user", "user", kMaxSessionIdChars);
  if (auto* f = std::get_if<OpenAiFault>(&user)) return std::move(*f);
  chat.session_id = std::move(std::get<0>(user));
  if (const Value* metadata = member(body, "metadata")) {
    if (!metadata->IsObject()) return wrong_type("metadata", "an object of strings");
    auto session = optional_text(*metadata, "sessionId", "metadata.sessionId", kMaxSessionIdChars);
    if (auto* f = std::get_if<OpenAiFault>(&session)) return std::move(*f);
    if (std::get<0>(session)) chat.session_id = std::move(std::get<0>(session));
    auto conversation = optional_text(*metadata, "conversationId", "metadata.conversationId", 100);
    if (auto* f = std::get_if<OpenAiFault>(&conversation)) return std::move(*f);
    chat.conversation_id = std::move(std::get<0>(conversation));
  }
  return out;
}

}  // namespace parley
