#include "engine/openai_client.h"

#include <curl/curl.h>

#include <memory>

#include "core/json.h"
#include "core/log.h"

namespace parley {

namespace {
// What a curl call needs while the body arrives.
struct StreamState {
  SseParser* parser = nullptr;
  CompletionAssembler* assembler = nullptr;
  std::optional<ApiError> error;
  long status = 0;
};

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* state = static_cast<StreamState*>(user);
  size_t n = size * count;
  // The body of an error status is not an event stream; it is dropped (it may quote the request).
  if (state->status < 200 || state->status >= 300) return n;
  if (state->error) return 0;
  auto fed = state->parser->feed(std::string_view(data, n));
  if (!fed.ok()) {
    state->error = std::move(fed).error();
    return 0;
  }
  // The listener left: stop reading so the provider stops generating for nobody.
  if (state->assembler->cancelled()) return 0;
  return n;
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* state = static_cast<StreamState*>(user);
  std::string_view line(data, size * count);
  // Each status line (after a 100 Continue or a redirect, the last one wins) sets the status.
  if (line.rfind("HTTP/", 0) == 0) {
    size_t sp = line.find(' ');
    if (sp != std::string_view::npos) state->status = std::atol(line.data() + sp + 1);
  }
  return size * count;
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* state = static_cast<StreamState*>(user);
  // The listener left: stop reading so the provider stops generating for nobody.
  return state->assembler->cancelled() ? 1 : 0;
}

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

struct CurlDeleter {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
};

ApiError provider_failed() {
  return ApiError::internal("The language model provider did not give a usable reply.");
}
struct SlistDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};
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
  if (!request.tools.empty()) {
    w.key("tools").begin_array();
    for (const auto& tool : request.tools) {
      w.begin_object().key("type").string("function").key("function").begin_object();
      w.key("name").string(tool.name).key("description").string(tool.description);
      w.key("parameters").raw(tool.parameters_json).end_object().end_object();
    }
    w.end_array();
  }
  w.end_object();
  return w.str();
}

Result<Completion> OpenAiClient::complete(
    const CompletionRequest& request, const std::function<bool(std::string_view)>& on_text) const {
  if (request.base_url.empty() || request.model.empty()) {
    return ApiError::internal("The language model is not configured (base URL and model).");
  }
  if (request.timeout_ms <= 0) return ApiError{ErrorCode::kTimeout, "The reply took too long."};
  std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
  if (!curl) return ApiError::internal("Could not start a request to the language model.");

  CompletionAssembler assembler(on_text);
  SseParser parser([&](std::string_view data) { return assembler.apply(data); });
  StreamState state;
  state.parser = &parser;
  state.assembler = &assembler;

  std::string url = completions_url(request.base_url);
  std::string body = completion_request_body(request);
  curl_slist* raw_headers = nullptr;
  raw_headers = curl_slist_append(raw_headers, "Content-Type: application/json");
  raw_headers = curl_slist_append(raw_headers, "Accept: text/event-stream");
  if (!request.api_key.empty()) {
    raw_headers =
        curl_slist_append(raw_headers, ("Authorization: Bearer " + request.api_key).c_str());
  }
  std::unique_ptr<curl_slist, SlistDeleter> headers(raw_headers);

  CURL* c = curl.get();
  std::optional<CurlPin> pin;
  if (request.pin) pin.emplace(c, *request.pin);
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout_ms));
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(std::min<int64_t>(request.timeout_ms, 10000)));
  curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(c, CURLOPT_XFERINFODATA, &state);
  curl_easy_setopt(c, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &state);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &state);

  CURLcode rc = curl_easy_perform(c);
  long status = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);

  if (state.error) {
    log_warn("llm_stream_malformed", {{"error", std::string_view(state.error->message)}});
    return provider_failed();
  }
  if (assembler.cancelled()) return assembler.take();
  if (rc == CURLE_OPERATION_TIMEDOUT) {
    log_warn("llm_timeout", {{"timeout_ms", request.timeout_ms}});
    return ApiError{ErrorCode::kTimeout, "The reply took longer than the deadline."};
  }
  if (rc != CURLE_OK) {
    log_warn("llm_request_failed", {{"curl_code", static_cast<int64_t>(rc)}});
    return provider_failed();
  }
  if (status < 200 || status >= 300) {
    log_warn("llm_http_error", {{"status", static_cast<int64_t>(status)}});
    return provider_failed();
  }
  auto finished = parser.finish();
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

}  // namespace parley
