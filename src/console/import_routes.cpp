// Contact import in the console: a CSV file (and an optional column mapping) sent as
// multipart/form-data, imported row by row under the API's contact rules (domain/contact_import.h)
// and answered with the import's report. Editors import; the route takes bodies up to the
// operator's contact_import_max_bytes.
#include "console/console_routes.h"
#include "console/gate.h"
#include "domain/agents.h"
#include "domain/audit_snapshots.h"
#include "domain/contact_import.h"
#include "http/multipart.h"
#include "http/responses.h"
#include "views/contact_import_json.h"

namespace parley {

namespace {
Result<Response> import_contacts(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto boundary, multipart_boundary(call.req.header("Content-Type")));
  PARLEY_ASSIGN_OR_RETURN(auto parts, parse_multipart(call.req.body, boundary));
  PARLEY_ASSIGN_OR_RETURN(const MultipartPart* file, single_part(parts, "file"));
  PARLEY_ASSIGN_OR_RETURN(const MultipartPart* mapping, optional_part(parts, "mapping"));
  PARLEY_ASSIGN_OR_RETURN(Connection & c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto agent, get_agent(c, call.account_id(), call.param(0)));
  ImportLimits limits;
  limits.max_rows = call.app.console.options.contact_import_max_rows;
  PARLEY_ASSIGN_OR_RETURN(
      auto report, import_contacts_csv(call.services, agent, {file->body, file->content_type},
                                       mapping != nullptr ? mapping->body : "", limits));
  return data_response(200, [&](JsonWriter& w) { write_import_report_json(w, report); });
}
}  // namespace

void register_console_import_routes(Router& router, ConsoleContext& app) {
  add_console_route(router, app, "POST", "/console/v1/agents/{agentId}/contacts/import",
                    Role::kEditor, Execution::kPool, import_contacts,
                    {.rule = {"contact.import", "agent", nullptr}},
                    app.console.options.contact_import_max_bytes);
}

}  // namespace parley
