// An agent's knowledge in the console: the same listing, additions and deletions as the public
// API's sources endpoints (views/source_answers.h), for a team member, and files added as
// sources (multipart/form-data, one file a request, up to the operator's file_upload_max_bytes).
// Viewers read; editors change.
#include "console/console_routes.h"
#include "console/gate.h"
#include "domain/audit_snapshots.h"
#include "domain/file_sources.h"
#include "http/multipart.h"
#include "http/responses.h"
#include "views/source_answers.h"
#include "views/source_json.h"

namespace parley {

namespace {
Result<Response> list(ConsoleCall& call) {
  return sources_listing(call.app.db, call.account_id(), call.param(0));
}

Result<Response> add(ConsoleCall& call) {
  return add_source_from(call.services, call.app.source_listener, call.account_id(), call.param(0),
                         call.req);
}

// Exactly one part, named `file`, with a file name (the dashboard sends one request per file, so
// each has its own progress).
Result<Response> add_file(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto boundary, multipart_boundary(call.req.header("Content-Type")));
  PARLEY_ASSIGN_OR_RETURN(auto parts, parse_multipart(call.req.body, boundary));
  for (const auto& part : parts) {
    if (part.name != "file")
      return ApiError::invalid("Send one part, named 'file'; the part '" + part.name +
                               "' is not expected.");
  }
  PARLEY_ASSIGN_OR_RETURN(const MultipartPart* file, single_part(parts, "file"));
  if (!file->filename || file_display_name(*file->filename).empty())
    return ApiError::invalid("The part 'file' needs a filename.");
  PARLEY_ASSIGN_OR_RETURN(
      auto added,
      add_file_source(call.services, call.account_id(), call.param(0),
                      {file->body, file->content_type, *file->filename}, call.app.source_listener));
  JsonWriter w;
  write_added_source_json(w, added);
  return json_response(201, w);
}

Result<Response> remove(ConsoleCall& call) {
  return delete_source_answer(call.services, call.app.source_listener, call.account_id(),
                              call.param(0), call.param(1));
}
}  // namespace

void register_console_knowledge_routes(Router& router, ConsoleContext& app) {
  add_console_route(router, app, "GET", "/console/v1/agents/{agentId}/sources", Role::kViewer,
                    Execution::kPool, list);
  add_console_route(router, app, "POST", "/console/v1/agents/{agentId}/sources", Role::kEditor,
                    Execution::kPool, add,
                    {.rule = {"source.create", "source", audit_source_snapshot},
                     .target = ConsoleAudit::Target::kCreated,
                     .parent_param = 0});
  add_console_route(router, app, "POST", "/console/v1/agents/{agentId}/sources/files",
                    Role::kEditor, Execution::kPool, add_file,
                    {.rule = {"source.create", "source", audit_source_snapshot},
                     .target = ConsoleAudit::Target::kCreated,
                     .parent_param = 0},
                    app.console.options.file_upload_max_bytes);
  add_console_route(
      router, app, "DELETE", "/console/v1/agents/{agentId}/sources/{sourceId}", Role::kEditor,
      Execution::kPool, remove,
      {.rule = {"source.delete", "source", audit_source_snapshot}, .param = 1, .parent_param = 0});
}

}  // namespace parley
