// An agent's Notion workspace in the console (domain/workspace.h): connecting it with an
// integration token (owners and admins; the token is checked with Notion, stored sealed and
// never returned), its status and disconnecting, the pages shared with the integration
// (editors, who import), queuing page imports and "Refresh now", and the imports with their
// progress (every member).
#include "console/console_routes.h"
#include "console/gate.h"
#include "domain/audit_snapshots.h"
#include "domain/workspace.h"
#include "http/responses.h"

namespace parley {

namespace {
Result<WorkspaceServices*> services_of(ConsoleCall& call) {
  if (call.app.workspace == nullptr)
    return ApiError{ErrorCode::kUnavailable, "Workspace pages are off on this server."};
  return call.app.workspace;
}

Response status_response(const WorkspaceStatus& st) {
  Response r = data_response(200, [&](JsonWriter& w) {
    w.begin_object();
    w.key("connected").boolean(st.connected);
    w.key("workspaceName").string_or_null(st.workspace_name);
    w.key("connectedAt").timestamp_or_null(st.connected_at);
    w.end_object();
  });
  r.header("Cache-Control", "no-store");
  return r;
}

void write_import(JsonWriter& w, const WorkspacePageRecord& p) {
  w.begin_object();
  w.key("pageId").string(p.page_id);
  w.key("title").string_or_null(p.title);
  w.key("url").string_or_null(p.url);
  w.key("status").string(p.state);
  w.key("outcome").string_or_null(p.outcome);
  w.key("sourceId").string_or_null(p.source_id);
  w.key("error");
  if (p.error_code) {
    w.begin_object()
        .key("code")
        .string(*p.error_code)
        .key("message")
        .string(p.error_message.value_or(""));
    w.end_object();
  } else {
    w.null();
  }
  w.key("requestedAt").timestamp(p.requested_at);
  w.key("finishedAt").timestamp_or_null(p.finished_at);
  w.end_object();
}

Response imports_response(int status, const std::vector<WorkspacePageRecord>& rows) {
  return data_response(status, [&](JsonWriter& w) {
    w.begin_array();
    for (const auto& p : rows) write_import(w, p);
    w.end_array();
  });
}

Result<Response> status(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto st,
                          workspace_status(call.services, call.account_id(), call.param(0)));
  return status_response(st);
}

Result<Response> connect(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto doc, json_body(call.req));
  FieldReader f(doc);
  PARLEY_TRY(f.only({"token"}));
  PARLEY_ASSIGN_OR_RETURN(std::string token, f.required_string("token"));
  PARLEY_ASSIGN_OR_RETURN(WorkspaceServices * w, services_of(call));
  PARLEY_ASSIGN_OR_RETURN(auto st, connect_workspace(call.services, *w, call.account_id(),
                                                     call.param(0), call.who.member.id, token));
  return status_response(st);
}

Result<Response> disconnect(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto st,
                          disconnect_workspace(call.services, call.account_id(), call.param(0)));
  return status_response(st);
}

Result<Response> pages(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(WorkspaceServices * w, services_of(call));
  PARLEY_ASSIGN_OR_RETURN(
      auto listing, list_workspace_pages(call.services, *w, call.account_id(), call.param(0)));
  JsonWriter w2;
  w2.begin_object().key("data").begin_array();
  for (const auto& item : listing.pages) {
    w2.begin_object();
    w2.key("id").string(item.page.id);
    w2.key("title").string(item.page.title);
    w2.key("url").string(item.page.url);
    w2.key("lastEditedAt").string(item.page.last_edited_time);
    w2.key("imported").boolean(item.imported);
    w2.end_object();
  }
  w2.end_array().key("truncated").boolean(listing.truncated).end_object();
  return json_response(200, w2);
}

Result<std::vector<std::string>> page_ids(const FieldReader& f) {
  const rapidjson::Value* list = f.get("pageIds");
  if (list == nullptr || list->IsNull()) return ApiError::invalid("'pageIds' is required.");
  if (!list->IsArray()) return ApiError::invalid("'pageIds' must be an array of Notion page ids.");
  std::vector<std::string> out;
  for (const auto& v : list->GetArray()) {
    if (!v.IsString())
      return ApiError::invalid("'pageIds[" + std::to_string(out.size()) + "]' must be a string.");
    out.emplace_back(v.GetString(), v.GetStringLength());
  }
  return out;
}

Result<Response> import(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto doc, json_body(call.req));
  FieldReader f(doc);
  PARLEY_TRY(f.only({"pageIds"}));
  PARLEY_ASSIGN_OR_RETURN(auto ids, page_ids(f));
  PARLEY_ASSIGN_OR_RETURN(WorkspaceServices * w, services_of(call));
  PARLEY_ASSIGN_OR_RETURN(
      auto rows, queue_page_imports(call.services, *w, call.account_id(), call.param(0), ids));
  return imports_response(202, rows);
}

Result<Response> imports(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto rows,
                          list_page_imports(call.services, call.account_id(), call.param(0)));
  return imports_response(200, rows);
}

Result<Response> refresh(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(WorkspaceServices * w, services_of(call));
  PARLEY_ASSIGN_OR_RETURN(
      auto rows, queue_workspace_refresh(call.services, *w, call.account_id(), call.param(0)));
  return imports_response(202, rows);
}
}  // namespace

void register_console_workspace_routes(Router& router, ConsoleContext& app) {
  const std::string base = "/console/v1/agents/{agentId}/workspace";
  add_console_route(router, app, "GET", base, Role::kViewer, Execution::kPool, status);
  add_console_route(router, app, "PUT", base, Role::kAdmin, Execution::kPool, connect,
                    {.rule = {"workspace.connect", "workspace", audit_workspace_snapshot}});
  add_console_route(router, app, "DELETE", base, Role::kAdmin, Execution::kPool, disconnect,
                    {.rule = {"workspace.disconnect", "workspace", audit_workspace_snapshot}});
  add_console_route(router, app, "GET", base + "/pages", Role::kEditor, Execution::kPool, pages);
  add_console_route(router, app, "GET", base + "/imports", Role::kViewer, Execution::kPool,
                    imports);
  add_console_route(router, app, "POST", base + "/imports", Role::kEditor, Execution::kPool, import,
                    {.rule = {"workspace.import", "agent", nullptr}});
  add_console_route(router, app, "POST", base + "/refresh", Role::kEditor, Execution::kPool,
                    refresh, {.rule = {"workspace.refresh", "agent", nullptr}});
}

}  // namespace parley
