#include "api/routes.h"

#include "http/responses.h"

namespace parley {

void register_routes(Router& router, App& app) {
  router.add("GET", "/healthz", {[](Request&) { return Response::json(200, R"({"status":"ok"})"); }, Execution::kInline});
  router.add("GET", "/readyz",
             {[&app](Request&) {
                if (!app.db.ping().ok()) return error_response({ErrorCode::kUnavailable, "The database is not reachable."});
                return Response::json(200, R"({"status":"ready"})");
              },
              Execution::kPool});
  register_agent_routes(router, app);
  register_source_routes(router, app);
  register_console_routes(router, app);
  register_conversation_routes(router, app);
  register_lead_routes(router, app);
  register_contact_routes(router, app);
  register_webhook_routes(router, app);
  register_event_routes(router, app);
  register_chat_routes(router, app);
  register_widget_routes(router, app);
}

}  // namespace parley
