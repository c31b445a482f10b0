// GET, POST /console/v1/agents and GET, PATCH /console/v1/agents/{agentId}: agents with their
// settings. Creation and changes go through domain/agents.h; settings merge through
// merge_agent_settings (null removes a setting).
#include "console/console_json.h"
#include "console/console_routes.h"
#include "console/gate.h"
#include "domain/agents.h"
#include "domain/audit_snapshots.h"
#include "http/responses.h"

namespace parley {

namespace {
Response agent_response(int status, const AgentRecord& a) {
  return data_response(status, [&](JsonWriter& w) { write_console_agent_json(w, a); });
}

// The "settings" member as JSON text, or nothing when absent; 400 unless an object.
Result<std::optional<std::string>> settings_of(const FieldReader& f) {
  const rapidjson::Value* v = f.get("settings");
  if (v == nullptr || v->IsNull()) return std::optional<std::string>();
  if (!v->IsObject()) return ApiError::invalid("'settings' must be an object.");
  return std::optional<std::string>(to_json(*v));
}

Result<Response> list(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto agents, AgentRepo::list(c, call.account_id()));
  JsonWriter w;
  w.begin_object().key("data").begin_array();
  for (const auto& a : agents) write_console_agent_json(w, a);
  w.end_array().end_object();
  return json_response(200, w);
}

Result<Response> get(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto agent, get_agent(c, call.account_id(), call.param(0)));
  return agent_response(200, agent);
}

Result<Response> create(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto doc, json_body(call.req));
  FieldReader f(doc);
  PARLEY_ASSIGN_OR_RETURN(std::string name, f.required_string("name"));
  PARLEY_ASSIGN_OR_RETURN(auto is_private, f.optional_bool("private"));
  PARLEY_ASSIGN_OR_RETURN(auto settings, settings_of(f));
  PARLEY_ASSIGN_OR_RETURN(
      auto agent, create_agent(call.services, call.account_id(), name, is_private.value_or(false),
                               settings.value_or("{}"), call.app.secret_box));
  return agent_response(201, agent);
}

Result<Response> update(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto doc, json_body(call.req));
  FieldReader f(doc);
  AgentChanges changes;
  PARLEY_ASSIGN_OR_RETURN(changes.name, f.optional_string("name"));
  if (f.has("name") && f.is_null("name")) return ApiError::invalid("'name' cannot be null.");
  PARLEY_ASSIGN_OR_RETURN(changes.is_private, f.optional_bool("private"));
  PARLEY_ASSIGN_OR_RETURN(changes.settings_update, settings_of(f));
  changes.secret_box = call.app.secret_box;
  // Another account's agent is a 404 before anything is written.
  PARLEY_ASSIGN_OR_RETURN(Connection & c, call.app.db.read());
  PARLEY_TRY(get_agent(c, call.account_id(), call.param(0)));
  PARLEY_ASSIGN_OR_RETURN(auto agent, update_agent(call.services, call.param(0), changes));
  return agent_response(200, agent);
}
}  // namespace

void register_console_agent_routes(Router& router, ConsoleContext& app) {
  add_console_route(router, app, "GET", "/console/v1/agents", Role::kViewer, Execution::kPool,
                    list);
  add_console_route(router, app, "POST", "/console/v1/agents", Role::kEditor, Execution::kPool,
                    create,
                    {.rule = {"agent.create", "agent", audit_agent_snapshot},
                     .target = ConsoleAudit::Target::kCreated});
  add_console_route(router, app, "GET", "/console/v1/agents/{agentId}", Role::kViewer,
                    Execution::kPool, get);
  add_console_route(router, app, "PATCH", "/console/v1/agents/{agentId}", Role::kEditor,
                    Execution::kPool, update,
                    {.rule = {"agent.update", "agent", audit_agent_snapshot}});
}

}  // namespace parley
