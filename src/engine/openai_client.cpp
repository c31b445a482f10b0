#include "engine/openai_client.h"

#include <algorithm>
#include <future>
#include <memory>

#include "core/json.h"
#include "core/log.h"
#include "engine/provider_call.h"

namespace parley {

namespace {
void write_message(JsonWriter& w, const PromptMessage& m) {
  w.begin_object().key("role").string(m.role);
  if (m.tool_calls.empty()) {
    w.key("content").string(m.content);
  } else {
    w.key("content");
    if (m.content.empty())
      w.null();
    else
      w.string(m.content);
    w.key("tool_calls").begin_array();
    for (const auto& call : m.tool_calls) {
      w.begin_object().key("id").string(call.id).key("type").string("function");
      w.key("function").begin_object().key("name").string(call.name);
      w.key("arguments").string(call.arguments).end_object().end_object();
    }
    w.end_array();
  }
  if (!m.tool_call_id.empty()) w.key("tool_call_id").string(m.tool_call_id);
  w.end_object();
}

constexpr size_t kMaxWholeBytes = 4u << 20;

ApiError provider_failed() {
  return ApiError::internal("The language model provider did not give a usable reply.");
}
}  // namespace

std::string completions_url(std::string_view base_url) {
  std::string url(base_url);
  while (!url.empty() && url.back() == '/') url.pop_back();
  if (url.size() >= 3 && url.compare(url.size() - 3, 3, "/v1") == 0)
    return url + "/chat/completions";
  return url + "/v1/chat/completions";
}

std::string completion_request_body(const CompletionRequest& request) {
  JsonWriter w;
  w.begin_object().key("model").string(request.model).key("stream").boolean(true);
  w.key("messages").begin_array();
  for (const auto& m : request.messages) write_message(w, m);
  w.end_array();
  const GenerationOptions& g = request.generation;
  if (g.temperature) w.key("temperature").number(*g.temperature);
  if (g.top_p) w.key("top_p").number(*g.top_p);
  if (g.max_tokens) w.key("max_tokens").integer(*g.max_tokens);
  if (!request.tools.empty()) {
    w.key("tools").begin_array();
    for (const auto& tool : request.tools) {
      w.begin_object().key("type").string("function").key("function").begin_object();
      w.key("name").string(tool.name).key("description").string(tool.description);
      w.key("parameters").raw(tool.parameters_json).end_object().end_object();
    }
    w.end_array();
    if (request.no_more_tools) w.key("tool_choice").string("none");
  }
  w.end_object();
  return w.str();
}

namespace {
// One call's decoding state, owned by the call until its outcome is known.
struct CompletionCall {
  explicit CompletionCall(CompletionText text, CompletionDone done, int64_t timeout_ms)
      : assembler(std::move(text)), parser([this](std::string_view data) { return assembler.apply(data); }),
        done(std::move(done)), timeout_ms(timeout_ms) {}
  CompletionAssembler assembler;
  SseParser parser;
  std::optional<ApiError> malformed;
  CompletionDone done;
  int64_t timeout_ms;
  bool decided = false;  // the first bytes said which form the answer takes
  bool whole = false;    // one JSON `chat.completion`, kept in `body`
  std::string body;

  Result<Completion> outcome(const SendOutcome& sent) {
    if (malformed) {
      log_warn("llm_stream_malformed", {{"error", std::string_view(malformed->message)}});
      return provider_failed();
    }
    if (assembler.cancelled()) return assembler.take();
    if (sent.failure == SendFailure::kStopped) {
      // Neither the listener nor the parser stopped it: the outbound loop did, for a server that
      // stops or a reader that stayed too far behind a stream it could not pause
      // (net/outbound.h Transfer::pause).
      log_warn("llm_stream_stopped", {});
      return provider_failed();
    }
    if (sent.failure == SendFailure::kTimeout) {
      log_warn("llm_timeout", {{"timeout_ms", timeout_ms}});
      return ApiError{ErrorCode::kTimeout, "The reply took longer than the deadline."};
    }
    if (!sent.status) {
      log_warn("llm_request_failed", {{"error", std::string_view(sent.error.value_or(""))}});
      return provider_failed();
    }
    if (!sent.succeeded()) {
      log_warn("llm_http_error", {{"status", *sent.status}});
      return provider_failed();
    }
    auto finished = whole ? assembler.apply_whole(body) : parser.finish();
    if (!finished.ok()) {
      log_warn("llm_stream_malformed", {{"error", std::string_view(finished.error().message)}});
      return provider_failed();
    }
    Completion completion = assembler.take();
    if (!assembler.done() && completion.finish_reason.empty()) {
      log_warn("llm_stream_cut_short", {});
      return provider_failed();
    }
    return completion;
  }
};
}  // namespace

void OpenAiClient::start(const CompletionRequest& request, CompletionText on_text,
                         CompletionDone done) const {
  if (request.base_url.empty() || request.model.empty()) {
    return done(ApiError::internal("The language model is not configured (base URL and model)."));
  }
  if (request.timeout_ms <= 0) return done(ApiError{ErrorCode::kTimeout, "The reply took too long."});
  auto state = std::make_shared<CompletionCall>(std::move(on_text), std::move(done), request.timeout_ms);

  TransferCall call = provider_transfer({completions_url(request.base_url), completion_request_body(request),
                                         "text/event-stream", request.api_key, request.timeout_ms, request.pin,
                                         request.ca_file});
  // The body of an error status is not an event stream: the client drops it (it may quote the
  // request). The listener leaving stops the call, so the provider stops generating for nobody.
  CompletionCall* decoding = state.get();  // the transfer's callbacks hold `state`
  call.request.on_body = [decoding](std::string_view piece) {
    if (!decoding->decided) {
      size_t first = piece.find_first_not_of(" \t\r\n");
      if (first == std::string_view::npos) return true;
      decoding->whole = piece[first] == '{';  // a JSON answer, not an event stream
      decoding->decided = true;
    }
    if (decoding->whole) {
      decoding->body.append(piece);
      if (decoding->body.size() <= kMaxWholeBytes) return true;
      decoding->malformed = ApiError::internal("The answer is too long.");
      return false;
    }
    auto fed = decoding->parser.feed(piece);
    if (!fed.ok()) {
      decoding->malformed = std::move(fed).error();
      return false;
    }
    return !decoding->assembler.cancelled();
  };
  call.done = [state](SendOutcome sent) {
    auto result = state->outcome(sent);
    auto done = std::move(state->done);
    done(std::move(result));
  };
  start_transfer(std::move(call));
}

Result<Completion> OpenAiClient::complete(
    const CompletionRequest& request, const std::function<bool(std::string_view)>& on_text) const {
  std::promise<Result<Completion>> finished;
  auto outcome = finished.get_future();
  start(request, on_text, [&finished](Result<Completion> r) { finished.set_value(std::move(r)); });
  return outcome.get();
}

}  // namespace parley
