// Operating a webhook from the API and the console: its delivery history a page at a time (each
// delivery with its latest attempts), sending a delivery again now, reading the webhook, and
// enabling a webhook that the delivery worker disabled after it failed for days. The API reaches
// only the webhooks subscribed through it (a dashboard-added one is 404 there, as for DELETE);
// the console reaches every webhook of the account. Another account's webhook or delivery is 404,
// the same as a missing one. Each change is one transaction. Stateless; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "store/keyset.h"
#include "store/services.h"
#include "store/webhook_repo.h"

namespace parley {

enum class WebhookReach {
  kSubscribedThroughApi,  // the API: webhooks with origin "api"
  kAnyOfAccount,          // the console: dashboard-added ones too
};

// A delivery with its attempts (oldest first; the latest kAttemptsKeptPerDelivery).
struct DeliveryView {
  DeliveryRecord delivery;
  std::vector<AttemptRecord> attempts;
};

struct DeliveryHistory {
  WebhookRecord webhook;
  Page<DeliveryView> page;
};

struct RetriedDelivery {
  WebhookRecord webhook;
  DeliveryView delivery;
};

// Each delivery with its attempts, read in one statement, as the commit that wrote the delivery's
// row left them (an attempt recorded after the row was read is not shown).
Result<std::vector<DeliveryView>> with_attempts(Connection& c,
                                                std::vector<DeliveryRecord> deliveries);

// The webhook when the account has it within `reach`; 404 not_found otherwise.
Result<WebhookRecord> get_reachable_webhook(Services& s, std::string_view account_id,
                                            std::string_view webhook_id, WebhookReach reach);

// A page of the webhook's deliveries, newest first.
Result<DeliveryHistory> list_webhook_deliveries(Services& s, std::string_view account_id,
                                                std::string_view webhook_id, WebhookReach reach,
                                                const PageQuery& q);

// Makes the delivery due now, to be sent with the same webhook-id (the event's id) and body,
// signed afresh. A finished delivery (succeeded or failed) gets that one attempt, its outcome
// becoming the delivery's; a delivery waiting for an automatic retry gets that retry now (the
// schedule goes on after it). Checked in this order: the webhook (404), the delivery (404), a
// disabled webhook (409 webhook_disabled), a paused one (409 webhook_paused), an attempt under
// way (409 delivery_in_progress), no attempt yet (409 delivery_pending: it is about to be sent).
Result<RetriedDelivery> retry_webhook_delivery(Services& s, std::string_view account_id,
                                               std::string_view webhook_id,
                                               std::string_view delivery_id, WebhookReach reach);

// Turns a disabled webhook back on: its waiting deliveries resume (at once when due), new events
// are sent, and the count of days of failures starts afresh. Enabling a webhook that is not
// disabled changes nothing. A pause set in the dashboard stays: that is the owner's to lift.
Result<WebhookRecord> enable_webhook(Services& s, std::string_view account_id,
                                     std::string_view webhook_id, WebhookReach reach);

}  // namespace parley
