#include "webhooks/subscriptions.h"

#include "events/event_catalog.h"
#include "store/agent_repo.h"
#include "webhooks/signer.h"

namespace parley {

Result<void> validate_webhook_fields(NewWebhook& in) {
  if (in.events.empty()) {
    return ApiError::invalid("'events' must name at least one of: " + subscribable_event_list() +
                             ".");
  }
  std::vector<std::string> unique;
  for (const auto& e : in.events) {
    auto kind = parse_event_kind(e);
    if (!kind) {
      return ApiError::invalid("'events' contains unknown event '" + e +
                               "'. Events: " + subscribable_event_list() + ".");
    }
    if (!is_subscribable(*kind)) {
      return ApiError::invalid("'events' contains '" + e +
                               "', which can be listed but not subscribed to.");
    }
    bool seen = false;
    for (const auto& u : unique) seen = seen || u == e;
    if (!seen) unique.push_back(e);
  }
  in.events = std::move(unique);
  if (in.source != "tool_a" && in.source != "tool_b" && in.source != "api") {
    return ApiError::invalid("'source' must be one of: tool_a, tool_b, api.");
  }
  return {};
}

Result<WebhookRecord> subscribe_webhook(Services& s, const WebhookPolicy& policy,
                                        std::string_view account_id, NewWebhook in) {
  PARLEY_TRY(check_webhook_url(in.url, policy.resolver, policy.allow_private_targets));
  PARLEY_TRY(validate_webhook_fields(in));
  WebhookRecord h;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    auto agent = account_id.empty() ? AgentRepo::find_any(c, in.agent_id)
                                    : AgentRepo::find(c, account_id, in.agent_id);
    if (!agent.ok()) return agent.error();
    if (!*agent) return ApiError::not_found("No agent " + in.agent_id + ".");
    bool dashboard = in.origin == "dashboard";
    int64_t cap = dashboard ? kMaxDashboardWebhooksPerAgent : kMaxApiWebhooksPerAgent;
    h.id = new_id(s.random, "whk_");
    h.account_id = (*agent)->account_id;
    h.agent_id = in.agent_id;
    h.url = in.url;
    h.events = in.events;
    h.source = in.source;
    h.origin = in.origin;
    h.key_id = dashboard ? std::nullopt : in.key_id;
    h.secret = new_webhook_secret(s.random);
    h.created_at = s.clock.now_ms();
    PARLEY_ASSIGN_OR_RETURN(bool inserted, WebhookRepo::insert_within_cap(c, h, cap));
    if (!inserted) {
      return ApiError{ErrorCode::kWebhookLimitReached,
                      dashboard
                          ? "An agent can have at most 5 webhooks added in the dashboard."
                          : "An agent can have at most 25 webhooks subscribed through the API; "
                            "unsubscribe one first."};
    }
    return {};
  }));
  return h;
}

Result<void> unsubscribe_webhook(Services& s, std::string_view account_id,
                                 std::string_view webhook_id) {
  return s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto h, WebhookRepo::find(c, account_id, webhook_id));
    if (!h || h->origin != "api")
      return ApiError::not_found("No webhook " + std::string(webhook_id) + ".");
    PARLEY_TRY(WebhookRepo::remove(c, webhook_id));
    return {};
  });
}

Result<WebhookRecord> set_webhook_paused(Services& s, std::string_view webhook_id, bool paused) {
  std::optional<WebhookRecord> h;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(h, WebhookRepo::find_any(c, webhook_id));
    if (!h) return ApiError::not_found("No webhook " + std::string(webhook_id) + ".");
    h->paused = paused;
    return WebhookRepo::set_paused(c, webhook_id, paused);
  }));
  return std::move(*h);
}

Result<WebhookRecord> set_account_webhook_paused(Services& s, std::string_view account_id,
                                                 std::string_view webhook_id, bool paused) {
  std::optional<WebhookRecord> h;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(h, WebhookRepo::find(c, account_id, webhook_id));
    if (!h) return ApiError::not_found("No webhook " + std::string(webhook_id) + ".");
    h->paused = paused;
    return WebhookRepo::set_paused(c, webhook_id, paused);
  }));
  return std::move(*h);
}

Result<void> remove_account_webhook(Services& s, std::string_view account_id,
                                    std::string_view webhook_id) {
  return s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto h, WebhookRepo::find(c, account_id, webhook_id));
    if (!h) return ApiError::not_found("No webhook " + std::string(webhook_id) + ".");
    PARLEY_TRY(WebhookRepo::remove(c, webhook_id));
    return {};
  });
}

void write_webhook_json(JsonWriter& w, const WebhookRecord& h, bool with_secret,
                        WebhookView view) {
  w.begin_object();
  w.key("id").string(h.id);
  w.key("agentId").string(h.agent_id);
  w.key("url").string(h.url);
  w.key("events").begin_array();
  for (const auto& e : h.events) w.string(e);
  w.end_array();
  w.key("source").string(h.source);
  if (view == WebhookView::kConsole) {
    w.key("addedIn").string(h.origin);
    w.key("paused").boolean(h.paused);
  }
  w.key("status").string(h.status());
  w.key("disabledReason").string_or_null(h.disabled_reason);
  w.key("disabledAt").timestamp_or_null(h.disabled_at);
  if (with_secret) w.key("secret").string(h.secret);
  w.key("createdAt").timestamp(h.created_at);
  w.end_object();
}

Result<std::vector<std::string>> read_webhook_events(const FieldReader& fields) {
  const rapidjson::Value* v = fields.get("events");
  if (v == nullptr || v->IsNull()) return ApiError::invalid("'events' is required.");
  if (!v->IsArray()) return ApiError::invalid("'events' must be an array of event names.");
  std::vector<std::string> out;
  for (const auto& e : v->GetArray()) {
    if (!e.IsString()) return ApiError::invalid("'events' must be an array of event names.");
    out.emplace_back(e.GetString(), e.GetStringLength());
  }
  return out;
}

}  // namespace parley
