// Agent operations shared by the admin CLI, the console and the public API.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/intent_keywords.h"
#include "model/agent_settings.h"
#include "store/services.h"
#include "store/agent_repo.h"

namespace parley {

class SecretBox;

// An agent as the chat flow and the widget use it: its record, its settings and their intent
// keywords compiled (engine/intent_keywords.h), read once when the agent is loaded
// (domain/agent_cache.h keeps them). Immutable; shared between threads.
struct LoadedAgent {
  AgentRecord record;
  std::shared_ptr<const AgentSettings> settings;   // never null
  std::shared_ptr<const IntentKeywords> keywords;  // never null; of `settings`
};

// The record with its settings read and their keywords compiled.
std::shared_ptr<const LoadedAgent> load_settings(AgentRecord record);
// The record with the settings (and keywords) of `same` (an earlier load of the same settings
// text), read again from nothing.
std::shared_ptr<const LoadedAgent> with_settings_of(AgentRecord record, const LoadedAgent& same);

struct AgentChanges {
  std::optional<std::string> name;
  std::optional<bool> is_private;
  std::optional<std::string> settings_update;  // JSON object merged into the settings
  // Seals the tool secrets the update gives (domain/tool_settings.h); null: the server has no
  // key, and an update that gives one is refused.
  const SecretBox* secret_box = nullptr;
};

Result<AgentRecord> create_agent(Services& s, std::string_view account_id, std::string_view name,
                                 bool is_private, std::string_view settings_json,
                                 const SecretBox* secret_box = nullptr);
Result<AgentRecord> update_agent(Services& s, std::string_view agent_id, const AgentChanges& changes);
// The agent when it belongs to the account; 404 otherwise (another account's agent included).
Result<AgentRecord> get_agent(Connection& c, std::string_view account_id, std::string_view agent_id);

}  // namespace parley
