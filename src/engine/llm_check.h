// The "Test connection" of an agent's language model: one small, non-streamed chat completion
// sent to the provider the agent would use (its `llm` settings over the server's default, through
// llm_target: the address guard and pinning for a provider a team member chose), and its outcome
// told in words a team member can act on: answered in N ms, 401 wrong key, 404 unknown model,
// unreachable, TLS error, timeout. The call runs on the outbound loop (net/outbound.h) and holds
// no thread while it waits. Neither the key nor the provider's own words (its response body) are
// ever part of the outcome: only its status and whether the body read as a completion.
// Stateless; start_llm_check() is safe from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "engine/api_actions.h"
#include "engine/openai_client.h"
#include "model/agent_settings.h"
#include "net/http_sender.h"

namespace parley {

// What a check found. `outcome` is one of: answered, unauthorized, unknown_model, not_found,
// http_error, bad_response, timeout, unreachable, tls_error, refused, not_configured.
struct LlmCheck {
  std::string outcome;
  std::string message;            // one sentence for a person
  std::optional<int64_t> status;  // the provider's HTTP status, when it answered
  int64_t duration_ms = 0;        // the call, connection included; 0 when none was made
  std::string base_url;           // the provider tested (never its key)
  std::string model;
  bool ok() const { return outcome == "answered"; }
};

struct LlmCheckOptions {
  LlmDefaults defaults;                    // the server's provider (--llm-base-url, …)
  const ApiActionCaller* guard = nullptr;  // checks an agent's own provider; null: refused
  int64_t timeout_ms = 15'000;
};

// The request body: the model asked for one word.
std::string llm_check_request_body(std::string_view model);

// The outcome of a call that was made (pure; for tests).
LlmCheck classify_llm_check(const SendOutcome& sent);

// Calls the provider `llm` points at and hands the outcome to `done`, exactly once, on the
// outbound loop's thread (or on the calling thread when no call is made).
void start_llm_check(const LlmSettings& llm, const LlmCheckOptions& options,
                     std::function<void(LlmCheck)> done);

}  // namespace parley
