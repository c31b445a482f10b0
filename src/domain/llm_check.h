// Which provider an agent's "Test connection" tests (engine/llm_check.h makes the call): the
// agent's stored `llm` settings, with the values a team member has typed but not saved yet laid
// over them, so the dashboard can test a form before it is saved. The stored API key goes only to
// the stored base URL: a test aimed at another address uses the key typed with it, or none, as
// saving does (domain/agent_settings.cpp keeps a redacted key only while `baseUrl` is unchanged).
// Stateless; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"
#include "model/agent_settings.h"
#include "store/db.h"

namespace parley {

// Unsaved values of the `llm` settings; nothing: the stored value. An empty string clears one
// (the server's default then applies); an apiKey equal to the redaction marker is the stored key.
struct LlmCheckEdits {
  std::optional<std::string> base_url;
  std::optional<std::string> model;
  std::optional<std::string> api_key;
};

// The agent's `llm` settings with `edits` applied. 404 not_found when the agent does not belong
// to `account_id` (another account's agent included); an empty `account_id` finds any agent (the
// operators' CLI).
Result<LlmSettings> llm_settings_to_check(Connection& c, std::string_view account_id,
                                          std::string_view agent_id, const LlmCheckEdits& edits);

// The same, for settings already loaded (pure; for tests).
LlmSettings apply_llm_check_edits(const LlmSettings& stored, const LlmCheckEdits& edits);

}  // namespace parley
