// The LLM and mail options of `parley serve` (each also an environment variable): the default
// OpenAI-compatible provider of `openai` agents and the SMTP server for hand-off mail. Secrets
// (the provider key, the SMTP password) are read from the environment only, so that they never
// appear in a process list.
#pragma once

#include <CLI/CLI.hpp>

#include "engine/api_actions.h"
#include "engine/mailer.h"
#include "engine/openai_client.h"
#include "engine/openai_engine.h"

namespace parley {

struct LlmServeOptions {
  LlmDefaults llm;
  MailerOptions mail;
  int64_t action_timeout_ms = 5000;
  int64_t action_max_response_bytes = 16 * 1024;
  int64_t tool_timeout_ms = 10'000;
  int tool_max_rounds = 3;
  int64_t tool_cache_ms = 5 * 60'000;
};

void add_llm_serve_options(CLI::App& serve, LlmServeOptions& options);

// Fills the secrets from the environment (PARLEY_LLM_API_KEY, PARLEY_SMTP_PASSWORD).
void read_llm_secrets(LlmServeOptions& options);

// API actions use the webhooks' guard settings: `allow_private` and the extra CA (trusted
// besides the system's) come from the webhook options.
ApiActionOptions action_options(const LlmServeOptions& options, bool allow_private,
                                const std::string& extra_ca_file);

// How the agents' tools run (the key that opens their secrets is set by the node).
ToolRunOptions tool_options(const LlmServeOptions& options);

}  // namespace parley
