// The agent's conversations exported whole (GET .../conversations/export, owners and admins) and
// "Erase contact" (POST /console/v1/contacts/{contactId}/erase, owners and admins): bulk personal
// data leaving the service, and its removal, are both an administrator's act
// (docs/decisions/records.md).
#include "console/console_routes.h"
#include "console/gate.h"
#include "core/time_format.h"
#include "domain/agents.h"
#include "domain/erasure.h"
#include "http/responses.h"
#include "views/erasure_json.h"
#include "views/export_stream.h"

namespace parley {

namespace {
std::optional<std::string> query_or_none(const Request& req, std::string_view name) {
  bool found = false;
  std::string v = req.query_param(name, &found);
  return found ? std::optional<std::string>(std::move(v)) : std::nullopt;
}

Result<Response> export_conversations(ConsoleCall& call) {
  auto format = query_or_none(call.req, "format");
  auto from = query_or_none(call.req, "from");
  auto to = query_or_none(call.req, "to");
  PARLEY_ASSIGN_OR_RETURN(auto request, parse_export_request(format, from, to));
  std::string agent_id(call.param(0));
  {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, call.app.db.read());
    PARLEY_TRY(get_agent(c, call.account_id(), agent_id));
  }
  if (call.app.reply_pool == nullptr) return ApiError::internal("No pool for exports.");
  std::string day = format_timestamp(call.services.clock.now_ms()).substr(0, 10);
  std::string filename =
      "conversations-" + agent_id + "-" + day + "." + std::string(export_extension(request.format));
  return export_stream_response(call.app.db, *call.app.reply_pool, agent_id, request,
                                std::move(filename));
}

Result<Response> erase(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto report,
                          erase_contact(call.services, call.account_id(), call.param(0)));
  return data_response(200, [&](JsonWriter& w) { write_erasure_json(w, report); });
}
}  // namespace

void register_console_records_routes(Router& router, ConsoleContext& app) {
  add_console_route(router, app, "GET", "/console/v1/agents/{agentId}/conversations/export",
                    Role::kAdmin, Execution::kPool, export_conversations,
                    {.rule = {"conversation.export", "agent", nullptr}});
  // Recorded with the contact's id and no field: nothing of the person enters the log.
  add_console_route(router, app, "POST", "/console/v1/contacts/{contactId}/erase", Role::kAdmin,
                    Execution::kPool, erase, {.rule = {"contact.erase", "contact", nullptr}});
}

}  // namespace parley
