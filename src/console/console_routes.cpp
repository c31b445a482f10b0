// register_console_routes: every /console/v1 route.
#include "console/console_routes.h"

namespace parley {

void register_console_routes(Router& router, ConsoleContext& app) {
  register_console_session_routes(router, app);
  register_console_member_routes(router, app);
  register_console_account_routes(router, app);
  register_console_key_routes(router, app);
  register_console_agent_routes(router, app);
  register_console_live_chat_routes(router, app);
  register_console_webhook_routes(router, app);
  register_console_knowledge_routes(router, app);
  register_console_crawl_routes(router, app);
  register_console_records_routes(router, app);  // before data: .../conversations/export
  register_console_data_routes(router, app);
  register_console_import_routes(router, app);
  register_console_inbox_routes(router, app);
  register_console_try_routes(router, app);
  register_console_llm_check_routes(router, app);
  register_console_workspace_routes(router, app);
  register_console_audit_routes(router, app);
  register_console_analytics_routes(router, app);
  register_console_identity_routes(router, app);
  register_console_gap_routes(router, app);
}

}  // namespace parley
