#include "domain/llm_check.h"

#include "domain/agent_settings.h"
#include "domain/agents.h"
#include "store/agent_repo.h"

namespace parley {

LlmSettings apply_llm_check_edits(const LlmSettings& stored, const LlmCheckEdits& edits) {
  LlmSettings llm = stored;
  if (edits.base_url) llm.base_url = *edits.base_url;
  if (edits.model) llm.model = *edits.model;
  const bool same_address = llm.base_url == stored.base_url;
  if (edits.api_key && *edits.api_key != kRedactedSecret) {
    llm.api_key = *edits.api_key;
  } else if (!same_address) {
    llm.api_key.clear();  // the stored key never travels to an address it was not saved with
  }
  return llm;
}

Result<LlmSettings> llm_settings_to_check(Connection& c, std::string_view account_id,
                                          std::string_view agent_id, const LlmCheckEdits& edits) {
  AgentRecord agent;
  if (account_id.empty()) {
    PARLEY_ASSIGN_OR_RETURN(auto found, AgentRepo::find_any(c, agent_id));
    if (!found) return ApiError::not_found("No agent " + std::string(agent_id) + ".");
    agent = std::move(*found);
  } else {
    PARLEY_ASSIGN_OR_RETURN(agent, get_agent(c, account_id, agent_id));
  }
  return apply_llm_check_edits(parse_agent_settings(agent.settings).llm, edits);
}

}  // namespace parley
