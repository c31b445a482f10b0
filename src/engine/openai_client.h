// OpenAiClient: one streamed call to an OpenAI-compatible `POST {base}/v1/chat/completions`
// (vLLM, llama.cpp server, Ollama and hosted providers speak it) over HTTP. Text deltas are
// handed to a callback as they arrive; tool calls come back assembled. The key travels only in the
// `Authorization: Bearer` header and never appears in an error or a log line.
// The call goes through the one outbound client (net/outbound.h), pinned to the provider's
// checked address when the request carries one: start() returns at once and the reply arrives on
// the outbound loop, so a reply waiting on its provider holds no thread.
// Stateless: start() and complete() are safe to call from many threads at once.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "engine/completion_stream.h"
#include "engine/generation_options.h"
#include "net/pinned_curl.h"

namespace parley {

// One message of the prompt. `tool_calls` is set on an assistant message that called tools;
// `tool_call_id` on the `tool` message that answers one of them.
struct PromptMessage {
  std::string role;  // "system" | "user" | "assistant" | "tool"
  std::string content;
  std::vector<ToolCall> tool_calls;
  std::string tool_call_id;
};

// A function the model may call; `parameters_json` is a JSON Schema object.
struct ToolSpec {
  std::string name;
  std::string description;
  std::string parameters_json = R"({"type":"object","properties":{}})";
};

struct CompletionRequest {
  std::string base_url;  // e.g. "http://127.0.0.1:8000" (a trailing "/v1" is accepted too)
  std::string model;
  std::string api_key;  // may be empty for local providers
  std::vector<PromptMessage> messages;
  std::vector<ToolSpec> tools;
  bool no_more_tools = false;     // `tool_choice: none`: the tools stay listed, none may be called
  GenerationOptions generation;  // temperature, top_p, max_tokens: sent only when set
  int64_t timeout_ms = 55000;    // the whole call, connection included
  // Set for a provider a team member configured (ApiActionCaller::provider_target): the call
  // connects only to this checked address and never resolves the host itself.
  std::optional<PinnedTarget> pin;
  // A PEM file of CAs trusted besides the system's (the server's provider, --llm-ca-file), or
  // empty.
  std::string ca_file;
};

// The server-wide provider of `openai` agents; an agent's `llm` setting overrides each field.
struct LlmDefaults {
  std::string base_url;  // --llm-base-url / PARLEY_LLM_BASE_URL
  std::string model;     // --llm-model / PARLEY_LLM_MODEL
  std::string api_key;   // PARLEY_LLM_API_KEY (environment only: never on a command line)
  std::string ca_file;   // --llm-ca-file: a private CA trusted besides the system's, or empty
};

// The request body as sent (exposed for tests and benchmarks).
std::string completion_request_body(const CompletionRequest& request);

// The endpoint address for a base URL.
std::string completions_url(std::string_view base_url);

// Receives each text delta (on the outbound loop's thread); returning false stops the call.
using CompletionText = std::function<bool(std::string_view)>;
using CompletionDone = std::function<void(Result<Completion>)>;

class OpenAiClient {
 public:
  // Starts the streamed completion and returns at once. `on_text` and then `done` (exactly once,
  // with complete()'s outcome) run on the outbound loop's thread and must not block; inside
  // `on_text`, this_transfer() (net/outbound.h) is the call, to pause it.
  void start(const CompletionRequest& request, CompletionText on_text, CompletionDone done) const;

  // Streams the completion: `on_text` receives each text delta and may return false to stop
  // (the call then ends early and returns what came so far). Errors: 504 timeout when the
  // timeout passes first; 500 internal_error with one and the same message for every provider
  // failure (no connection, an HTTP error status, a malformed or cut stream), so that the answer
  // never tells whether something listened at the address nor what it said; the kind and the
  // status go to the log.
  // The blocking form of start(), for threads that may wait.
  Result<Completion> complete(const CompletionRequest& request,
                              const std::function<bool(std::string_view)>& on_text) const;
};

}  // namespace parley
