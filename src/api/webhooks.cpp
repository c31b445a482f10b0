// POST /api/v1/agents/{agentId}/webhooks, GET and DELETE /api/v1/webhooks/{webhookId}, and the
// webhook's operations: GET .../deliveries, POST .../deliveries/{deliveryId}/retry and
// POST .../enable. Every route needs webhooks:write and reaches only webhooks subscribed through
// the API. Subscribing also needs the scope that lists each chosen event's data (leads:read for
// lead.created, conversations:read for handoff.requested, …): a webhook hands over the same data
// as the event list, so it is guarded by the same scope (docs/security.md).
#include "api/routes.h"
#include "domain/audit_snapshots.h"
#include "events/event_catalog.h"
#include "http/responses.h"
#include "views/delivery_json.h"
#include "views/pagination.h"
#include "webhooks/delivery_operations.h"
#include "webhooks/subscriptions.h"

namespace parley {

namespace {
constexpr WebhookReach kReach = WebhookReach::kSubscribedThroughApi;

Services services(ApiCall& call) { return Services{call.db(), call.app.clock, call.app.random}; }

Response webhook_data(int status, const WebhookRecord& h) {
  JsonWriter w;
  w.begin_object().key("data");
  write_webhook_json(w, h, /*with_secret=*/false);
  w.end_object();
  return json_response(status, w);
}

Result<Response> subscribe(ApiCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto body, json_body(call.req));
  FieldReader fields(body);
  NewWebhook in;
  in.agent_id = std::string(call.param(0));
  PARLEY_ASSIGN_OR_RETURN(in.url, fields.required_string("url"));
  PARLEY_ASSIGN_OR_RETURN(in.events, read_webhook_events(fields));
  for (const auto& name : in.events) {
    auto kind = parse_event_kind(name);
    if (!kind) continue;  // subscribe_webhook names an unknown event with 400
    Scope needed = event_data_scope(*kind);
    if (!call.key.allows(needed)) {
      return ApiError{ErrorCode::kInsufficientScope,
                      "This API key lacks the '" + std::string(scope_name(needed)) +
                          "' scope needed to subscribe to '" + name + "'."};
    }
  }
  PARLEY_ASSIGN_OR_RETURN(auto source, fields.optional_string("source"));
  in.source = source.value_or("api");
  in.origin = "api";
  in.key_id = call.key.key_id;
  Services s = services(call);
  SystemResolver fallback;
  WebhookPolicy policy =
      call.app.webhook_policy ? *call.app.webhook_policy : WebhookPolicy{fallback, false};
  PARLEY_ASSIGN_OR_RETURN(auto hook,
                          subscribe_webhook(s, policy, call.account_id(), std::move(in)));
  JsonWriter w;
  write_webhook_json(w, hook, /*with_secret=*/true);
  return json_response(201, w);
}

Result<Response> get(ApiCall& call) {
  Services s = services(call);
  PARLEY_ASSIGN_OR_RETURN(auto h,
                          get_reachable_webhook(s, call.account_id(), call.param(0), kReach));
  return webhook_data(200, h);
}

Result<Response> unsubscribe(ApiCall& call) {
  Services s = services(call);
  PARLEY_TRY(unsubscribe_webhook(s, call.account_id(), call.param(0)));
  JsonWriter w;
  w.begin_object().key("id").string(call.param(0)).key("deleted").boolean(true).end_object();
  return json_response(200, w);
}

Result<Response> deliveries(ApiCall& call) {
  std::string_view webhook_id = call.param(0);
  PARLEY_ASSIGN_OR_RETURN(auto q, parse_page_query(call.req, kDeliveryList, webhook_id));
  Services s = services(call);
  PARLEY_ASSIGN_OR_RETURN(auto history,
                          list_webhook_deliveries(s, call.account_id(), webhook_id, kReach, q));
  return Response::json(200, delivery_page_json(history, call.app.clock.now_ms()));
}

Result<Response> retry(ApiCall& call) {
  Services s = services(call);
  PARLEY_ASSIGN_OR_RETURN(auto retried, retry_webhook_delivery(s, call.account_id(), call.param(0),
                                                               call.param(1), kReach));
  return Response::json(202, retried_delivery_json(retried, call.app.clock.now_ms()));
}

Result<Response> enable(ApiCall& call) {
  Services s = services(call);
  PARLEY_ASSIGN_OR_RETURN(auto h, enable_webhook(s, call.account_id(), call.param(0), kReach));
  return webhook_data(200, h);
}
}  // namespace

void register_webhook_routes(Router& router, ApiContext& app) {
  add_api_route(router, app, "POST", "/api/v1/agents/{agentId}/webhooks", Scope::kWebhooksWrite,
                Execution::kPool, subscribe,
                {.rule = {"webhook.create", "webhook", audit_webhook_snapshot},
                 .target = RouteAudit::Target::kCreated});
  add_api_route(router, app, "GET", "/api/v1/webhooks/{webhookId}", Scope::kWebhooksWrite,
                Execution::kPool, get);
  add_api_route(router, app, "DELETE", "/api/v1/webhooks/{webhookId}", Scope::kWebhooksWrite,
                Execution::kPool, unsubscribe,
                {.rule = {"webhook.delete", "webhook", audit_webhook_snapshot}});
  add_api_route(router, app, "GET", "/api/v1/webhooks/{webhookId}/deliveries",
                Scope::kWebhooksWrite, Execution::kPool, deliveries);
  add_api_route(router, app, "POST", "/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry",
                Scope::kWebhooksWrite, Execution::kPool, retry,
                {.rule = {"webhook.retry_delivery", "webhook", nullptr}});
  add_api_route(router, app, "POST", "/api/v1/webhooks/{webhookId}/enable", Scope::kWebhooksWrite,
                Execution::kPool, enable,
                {.rule = {"webhook.enable", "webhook", audit_webhook_snapshot}});
}

}  // namespace parley
