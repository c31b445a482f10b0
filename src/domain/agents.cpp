#include "domain/agents.h"

#include "core/json.h"
#include "core/secret_box.h"
#include "domain/agent_settings.h"
#include "store/account_repo.h"

namespace parley {

namespace {
Result<void> check_name(std::string_view name) {
  if (name.empty() || utf8_length(name) > 200) return ApiError::invalid("'name' must be 1 to 200 characters.");
  return {};
}

// Seals a tool secret for `agent_id` (the context binds it to that agent).
SecretSealer sealer_for(Services& s, const SecretBox* box, const std::string& agent_id) {
  return [&s, box, agent_id](std::string_view plaintext) {
    return box->seal(plaintext, agent_id, s.random);
  };
}
}  // namespace

std::shared_ptr<const LoadedAgent> load_settings(AgentRecord record) {
  auto settings = std::make_shared<const AgentSettings>(parse_agent_settings(record.settings));
  auto keywords = std::make_shared<const IntentKeywords>(settings);
  return std::make_shared<const LoadedAgent>(
      LoadedAgent{std::move(record), std::move(settings), std::move(keywords)});
}

std::shared_ptr<const LoadedAgent> with_settings_of(AgentRecord record, const LoadedAgent& same) {
  return std::make_shared<const LoadedAgent>(
      LoadedAgent{std::move(record), same.settings, same.keywords});
}

Result<AgentRecord> create_agent(Services& s, std::string_view account_id, std::string_view name,
                                 bool is_private, std::string_view settings_json,
                                 const SecretBox* secret_box) {
  PARLEY_TRY(check_name(name));
  AgentRecord a;
  a.id = new_id(s.random, "agt_");
  SecretSealer sealer = sealer_for(s, secret_box, a.id);
  PARLEY_ASSIGN_OR_RETURN(std::string settings,
                          merge_agent_settings("{}", settings_json.empty() ? "{}" : settings_json,
                                               secret_box ? &sealer : nullptr));
  a.account_id = std::string(account_id);
  a.name = std::string(name);
  a.is_private = is_private;
  a.settings = std::move(settings);
  a.created_at = a.updated_at = s.clock.now_ms();
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto account, AccountRepo::find(c, account_id));
    if (!account) return ApiError::not_found("No account " + std::string(account_id) + ".");
    return AgentRepo::insert(c, a);
  }));
  return a;
}

Result<AgentRecord> update_agent(Services& s, std::string_view agent_id, const AgentChanges& changes) {
  if (changes.name) PARLEY_TRY(check_name(*changes.name));
  std::optional<AgentRecord> out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(AgentRepo::lock(c, agent_id));  // read-modify-write
    PARLEY_ASSIGN_OR_RETURN(auto a, AgentRepo::find_any(c, agent_id));
    if (!a) return ApiError::not_found("No agent " + std::string(agent_id) + ".");
    if (changes.name) a->name = *changes.name;
    if (changes.is_private) a->is_private = *changes.is_private;
    if (changes.settings_update) {
      SecretSealer sealer = sealer_for(s, changes.secret_box, a->id);
      PARLEY_ASSIGN_OR_RETURN(a->settings,
                              merge_agent_settings(a->settings, *changes.settings_update,
                                                   changes.secret_box ? &sealer : nullptr));
    }
    a->updated_at = s.clock.now_ms();
    PARLEY_TRY(AgentRepo::update(c, *a));
    out = std::move(a);
    return {};
  }));
  return std::move(*out);
}

Result<AgentRecord> get_agent(Connection& c, std::string_view account_id, std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(auto a, AgentRepo::find(c, account_id, agent_id));
  if (!a) return ApiError::not_found("No agent " + std::string(agent_id) + " in this account.");
  return std::move(*a);
}

}  // namespace parley
