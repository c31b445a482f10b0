#include "api/routes.h"

namespace parley {

void register_api_routes(Router& router, ApiContext& app) {
  register_agent_routes(router, app);
  register_source_routes(router, app);
  register_conversation_routes(router, app);
  register_lead_routes(router, app);
  register_contact_routes(router, app);
  register_webhook_routes(router, app);
  register_event_routes(router, app);
  register_chat_routes(router, app);
  register_mcp_routes(router, app);
}

}  // namespace parley
