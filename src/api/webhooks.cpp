// POST /api/v1/agents/{agentId}/webhooks and DELETE /api/v1/webhooks/{webhookId}.
#include "http/responses.h"
#include "api/routes.h"
#include "webhooks/subscriptions.h"

namespace parley {

namespace {
Result<Response> subscribe(ApiCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto body, json_body(call.req));
  FieldReader fields(body);
  NewWebhook in;
  in.agent_id = std::string(call.param(0));
  PARLEY_ASSIGN_OR_RETURN(in.url, fields.required_string("url"));
  PARLEY_ASSIGN_OR_RETURN(in.events, read_webhook_events(fields));
  PARLEY_ASSIGN_OR_RETURN(auto source, fields.optional_string("source"));
  in.source = source.value_or("api");
  in.origin = "api";
  in.key_id = call.key.key_id;
  Services s{call.app.db, call.app.clock, call.app.random};
  SystemResolver fallback;
  WebhookPolicy policy =
      call.app.webhook_policy ? *call.app.webhook_policy : WebhookPolicy{fallback, false};
  PARLEY_ASSIGN_OR_RETURN(auto hook,
                          subscribe_webhook(s, policy, call.account_id(), std::move(in)));
  JsonWriter w;
  write_webhook_json(w, hook, /*with_secret=*/true);
  return json_response(201, w);
}

Result<Response> unsubscribe(ApiCall& call) {
  Services s{call.app.db, call.app.clock, call.app.random};
  PARLEY_TRY(unsubscribe_webhook(s, call.account_id(), call.param(0)));
  JsonWriter w;
  w.begin_object().key("id").string(call.param(0)).key("deleted").boolean(true).end_object();
  return json_response(200, w);
}
}  // namespace

void register_webhook_routes(Router& router, ApiContext& app) {
  add_api_route(router, app, "POST", "/api/v1/agents/{agentId}/webhooks", Scope::kWebhooksWrite,
                Execution::kPool, subscribe);
  add_api_route(router, app, "DELETE", "/api/v1/webhooks/{webhookId}", Scope::kWebhooksWrite,
                Execution::kPool, unsubscribe);
}

}  // namespace parley
