#include "cli/llm_options.h"

#include <cstdlib>

#include "net/http_sender.h"

namespace parley {

void add_llm_serve_options(CLI::App& cmd, LlmServeOptions& o) {
  cmd.add_option(
         "--llm-base-url", o.llm.base_url,
         "Default OpenAI-compatible provider of `openai` agents, e.g. http://127.0.0.1:8000")
      ->envname("PARLEY_LLM_BASE_URL");
  cmd.add_option("--llm-model", o.llm.model, "Default model of `openai` agents")
      ->envname("PARLEY_LLM_MODEL");
  cmd.add_option("--llm-ca-file", o.llm.ca_file,
                 "PEM file of a private CA trusted for the default provider's https address, besides "
                 "the system's CAs")
      ->envname("PARLEY_LLM_CA_FILE")
      ->check(CLI::ExistingFile);
  cmd.add_option("--smtp-url", o.mail.smtp_url,
                 "SMTP server for hand-off mail, e.g. smtp://127.0.0.1:25")
      ->envname("PARLEY_SMTP_URL");
  cmd.add_option("--smtp-from", o.mail.from, "Sender address of hand-off mail")
      ->envname("PARLEY_SMTP_FROM");
  cmd.add_option("--smtp-username", o.mail.username,
                 "SMTP login (the password: PARLEY_SMTP_PASSWORD)")
      ->envname("PARLEY_SMTP_USERNAME");
  cmd.add_option("--action-timeout-ms", o.action_timeout_ms, "Time limit of one API action call")
      ->envname("PARLEY_ACTION_TIMEOUT_MS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--action-max-response-bytes", o.action_max_response_bytes,
                 "Bytes of an API action's response given to the model at most")
      ->envname("PARLEY_ACTION_MAX_RESPONSE_BYTES")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--tool-timeout-ms", o.tool_timeout_ms,
                 "Time limit of one call to an agent's MCP server or web search (each request)")
      ->envname("PARLEY_TOOL_TIMEOUT_MS")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option(
         "--tool-max-rounds", o.tool_max_rounds,
         "Rounds of tool calls in one reply of an `openai` agent before the model must answer")
      ->envname("PARLEY_TOOL_MAX_ROUNDS")
      ->check(CLI::Range(1, 10))
      ->capture_default_str();
  cmd.add_option("--tool-cache-ms", o.tool_cache_ms,
                 "How long an MCP server's session and tool list are kept before being asked again")
      ->envname("PARLEY_TOOL_CACHE_MS")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
}

ToolRunOptions tool_options(const LlmServeOptions& o) {
  ToolRunOptions t;
  t.agent.call_timeout_ms = o.tool_timeout_ms;
  t.agent.max_result_bytes = static_cast<size_t>(o.action_max_response_bytes);
  t.agent.session_cache_ms = o.tool_cache_ms;
  t.max_rounds = o.tool_max_rounds;
  return t;
}

ApiActionOptions action_options(const LlmServeOptions& o, bool allow_private,
                                const std::string& extra_ca_file) {
  ApiActionOptions a;
  a.allow_private_targets = allow_private;
  a.timeout_ms = o.action_timeout_ms;
  a.max_response_bytes = static_cast<size_t>(o.action_max_response_bytes);
  // An unreadable file stops the server before any action runs (the webhook service reads it too).
  if (auto bundle = read_ca_bundle(extra_ca_file); bundle.ok()) a.ca_bundle = std::move(*bundle);
  return a;
}

void read_llm_secrets(LlmServeOptions& o) {
  if (const char* key = std::getenv("PARLEY_LLM_API_KEY")) o.llm.api_key = key;
  if (const char* password = std::getenv("PARLEY_SMTP_PASSWORD")) o.mail.password = password;
}

}  // namespace parley
