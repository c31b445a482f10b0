#include "api/api_context.h"

#include "domain/agent_cache.h"

namespace parley {

Result<std::shared_ptr<const LoadedAgent>> account_agent(ApiContext& app,
                                                         std::string_view account_id,
                                                         std::string_view agent_id) {
  if (app.agent_cache != nullptr) return app.agent_cache->get(account_id, agent_id);
  PARLEY_ASSIGN_OR_RETURN(Connection & c, app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto record, get_agent(c, account_id, agent_id));
  return load_settings(std::move(record));
}

}  // namespace parley
