// Webhook subscriptions: subscribing through the API (spec section 4, "Webhook subscribe rules"),
// adding one in the dashboard, unsubscribing, pausing and the JSON shape. Each change is one
// transaction; the agent's caps are checked inside it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "store/services.h"
#include "store/webhook_repo.h"
#include "net/url_guard.h"

namespace parley {

inline constexpr int64_t kMaxApiWebhooksPerAgent = 25;
inline constexpr int64_t kMaxDashboardWebhooksPerAgent = 5;

// What URL checks may do; allow_private_targets is for tests and local development only.
struct WebhookPolicy {
  Resolver& resolver;
  bool allow_private_targets = false;
};

struct NewWebhook {
  std::string agent_id;
  std::string url;
  std::vector<std::string> events;
  std::string source = "api";
  std::string origin = "api";         // "api" | "dashboard"
  std::optional<std::string> key_id;  // the subscribing key, for origin "api"
};

// Checks the events (non-empty, subscribable, duplicates dropped) and the source; 400 otherwise.
Result<void> validate_webhook_fields(NewWebhook& in);

// Validates and stores the webhook with a new secret. `account_id` empty: any account (operator).
// 404 for another account's agent; 400 webhook_limit_reached beyond the agent's cap.
Result<WebhookRecord> subscribe_webhook(Services& s, const WebhookPolicy& policy,
                                        std::string_view account_id, NewWebhook in);

// Deletes an API-subscribed webhook of the account with its delivery history; 404 for a
// dashboard-added webhook, another account's, or one already removed.
Result<void> unsubscribe_webhook(Services& s, std::string_view account_id,
                                 std::string_view webhook_id);

// Operator tools: pause or resume any webhook.
Result<WebhookRecord> set_webhook_paused(Services& s, std::string_view webhook_id, bool paused);

// The console: pause or resume, or remove (with its delivery history), any webhook of the account,
// whichever way it was added; 404 for another account's or a missing one.
Result<WebhookRecord> set_account_webhook_paused(Services& s, std::string_view account_id,
                                                 std::string_view webhook_id, bool paused);
Result<void> remove_account_webhook(Services& s, std::string_view account_id,
                                    std::string_view webhook_id);

// The Webhook subscription resource, with `status` ("active", "paused" or "disabled"),
// `disabledReason` and `disabledAt`; the secret only when `with_secret` (right after creation).
// The console's view adds where it was added (`addedIn`) and whether it is paused.
enum class WebhookView { kApi, kConsole };
void write_webhook_json(JsonWriter& w, const WebhookRecord& h, bool with_secret,
                        WebhookView view = WebhookView::kApi);

// The `events` member of a subscribe request: a non-empty check is left to subscribe_webhook.
Result<std::vector<std::string>> read_webhook_events(const FieldReader& fields);

}  // namespace parley
