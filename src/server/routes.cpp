#include "server/routes.h"

#include "api/openapi_document.h"
#include "api/routes.h"
#include "console/console_routes.h"
#include "http/responses.h"
#include "server/web_routes.h"
#include "widget/widget_routes.h"

namespace parley {

void register_routes(Router& router, Fronts& fronts, const std::string& web_dir) {
  router.add("GET", "/healthz", {[](Request&) { return Response::json(200, R"({"status":"ok"})"); }, Execution::kInline});
  // The contract as built, for client generators; no key needed.
  router.add("GET", "/api/v1/openapi.json",
             {[](Request&) { return Response::json(200, std::string(openapi_json())); }, Execution::kInline});
  Database& db = fronts.api.db;
  router.add("GET", "/readyz",
             {[&db](Request&) {
                if (!db.ping().ok()) return error_response({ErrorCode::kUnavailable, "The database is not reachable."});
                return Response::json(200, R"({"status":"ready"})");
              },
              Execution::kPool});
  register_api_routes(router, fronts.api);
  register_openai_routes(router, fronts.api);
  register_console_routes(router, fronts.console);
  register_widget_routes(router, fronts.widget);
  register_web_routes(router, web_dir);
}

}  // namespace parley
