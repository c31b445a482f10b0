// Webhooks in the console: an agent's webhooks, both those added here (at most 5 per agent) and
// those subscribed through the API (shown with their source badge), pausing, resuming and
// removing any of them, a webhook's delivery history a page at a time (the API's page parameters
// and delivery shape), retrying a delivery and enabling a webhook disabled after failing for days.
// A paused or disabled webhook receives nothing: the delivery worker neither fans events out to
// it nor sends its pending deliveries. Owners and admins change webhooks, retry and enable;
// every member lists them and their deliveries.
#include "console/console_routes.h"
#include "console/gate.h"
#include "domain/agents.h"
#include "domain/audit_snapshots.h"
#include "http/responses.h"
#include "views/delivery_json.h"
#include "views/pagination.h"
#include "webhooks/delivery_operations.h"
#include "webhooks/subscriptions.h"

namespace parley {

namespace {
constexpr WebhookReach kReach = WebhookReach::kAnyOfAccount;

Response webhook_response(int status, const WebhookRecord& h, bool with_secret) {
  JsonWriter w;
  w.begin_object().key("data");
  write_webhook_json(w, h, with_secret, WebhookView::kConsole);
  w.end_object();
  Response res = json_response(status, w);
  if (with_secret) res.header("Cache-Control", "no-store");
  return res;
}

Result<Response> list(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto agent, get_agent(c, call.account_id(), call.param(0)));
  PARLEY_ASSIGN_OR_RETURN(auto hooks, WebhookRepo::list_for_agent(c, agent.id));
  JsonWriter w;
  w.begin_object().key("data").begin_array();
  // Newest first, like every list.
  for (auto it = hooks.rbegin(); it != hooks.rend(); ++it)
    write_webhook_json(w, *it, false, WebhookView::kConsole);
  w.end_array().end_object();
  return json_response(200, w);
}

Result<Response> add(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto doc, json_body(call.req));
  FieldReader f(doc);
  NewWebhook in;
  in.agent_id = std::string(call.param(0));
  PARLEY_ASSIGN_OR_RETURN(in.url, f.required_string("url"));
  PARLEY_ASSIGN_OR_RETURN(in.events, read_webhook_events(f));
  in.origin = "dashboard";
  in.source = "api";
  if (call.app.webhook_policy == nullptr) return ApiError::internal("Webhooks are not configured.");
  PARLEY_ASSIGN_OR_RETURN(auto h, subscribe_webhook(call.services, *call.app.webhook_policy,
                                                    call.account_id(), std::move(in)));
  return webhook_response(201, h, true);
}

Result<Response> change(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto doc, json_body(call.req));
  FieldReader f(doc);
  PARLEY_ASSIGN_OR_RETURN(auto paused, f.optional_bool("paused"));
  if (!paused) return ApiError::invalid("'paused' is required (true or false).");
  PARLEY_ASSIGN_OR_RETURN(
      auto h, set_account_webhook_paused(call.services, call.account_id(), call.param(0), *paused));
  return webhook_response(200, h, false);
}

Result<Response> remove(ConsoleCall& call) {
  PARLEY_TRY(remove_account_webhook(call.services, call.account_id(), call.param(0)));
  JsonWriter w;
  w.begin_object().key("data").begin_object();
  w.key("id").string(call.param(0)).key("deleted").boolean(true);
  w.end_object().end_object();
  return json_response(200, w);
}

Result<Response> deliveries(ConsoleCall& call) {
  std::string_view webhook_id = call.param(0);
  PARLEY_ASSIGN_OR_RETURN(auto q, parse_page_query(call.req, kDeliveryList, webhook_id));
  PARLEY_ASSIGN_OR_RETURN(auto history, list_webhook_deliveries(call.services, call.account_id(),
                                                                webhook_id, kReach, q));
  return Response::json(200, delivery_page_json(history, call.app.clock.now_ms()));
}

Result<Response> retry(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto retried,
                          retry_webhook_delivery(call.services, call.account_id(), call.param(0),
                                                 call.param(1), kReach));
  return Response::json(202, retried_delivery_json(retried, call.app.clock.now_ms()));
}

Result<Response> enable(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto h,
                          enable_webhook(call.services, call.account_id(), call.param(0), kReach));
  return webhook_response(200, h, false);
}
}  // namespace

void register_console_webhook_routes(Router& router, ConsoleContext& app) {
  add_console_route(router, app, "GET", "/console/v1/agents/{agentId}/webhooks", Role::kViewer,
                    Execution::kPool, list);
  add_console_route(router, app, "POST", "/console/v1/agents/{agentId}/webhooks", Role::kAdmin,
                    Execution::kPool, add,
                    {.rule = {"webhook.create", "webhook", audit_webhook_snapshot},
                     .target = ConsoleAudit::Target::kCreated});
  add_console_route(router, app, "PATCH", "/console/v1/webhooks/{webhookId}", Role::kAdmin,
                    Execution::kPool, change,
                    {.rule = {"webhook.update", "webhook", audit_webhook_snapshot}});
  add_console_route(router, app, "DELETE", "/console/v1/webhooks/{webhookId}", Role::kAdmin,
                    Execution::kPool, remove,
                    {.rule = {"webhook.delete", "webhook", audit_webhook_snapshot}});
  add_console_route(router, app, "GET", "/console/v1/webhooks/{webhookId}/deliveries",
                    Role::kViewer, Execution::kPool, deliveries);
  add_console_route(router, app, "POST",
                    "/console/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry", Role::kAdmin,
                    Execution::kPool, retry,
                    {.rule = {"webhook.retry_delivery", "webhook", nullptr}});
  add_console_route(router, app, "POST", "/console/v1/webhooks/{webhookId}/enable", Role::kAdmin,
                    Execution::kPool, enable,
                    {.rule = {"webhook.enable", "webhook", audit_webhook_snapshot}});
}

}  // namespace parley
