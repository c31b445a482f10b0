#include "webhooks/delivery_operations.h"

#include <map>

namespace parley {

namespace {
ApiError no_webhook(std::string_view id) {
  return ApiError::not_found("No webhook " + std::string(id) + ".");
}

Result<WebhookRecord> find_reachable(Connection& c, std::string_view account_id,
                                     std::string_view webhook_id, WebhookReach reach) {
  PARLEY_ASSIGN_OR_RETURN(auto h, WebhookRepo::find(c, account_id, webhook_id));
  if (!h || (reach == WebhookReach::kSubscribedThroughApi && h->origin != "api"))
    return no_webhook(webhook_id);
  return std::move(*h);
}
}  // namespace

Result<std::vector<DeliveryView>> with_attempts(Connection& c,
                                                std::vector<DeliveryRecord> deliveries) {
  // The deliveries were read by an earlier statement, and an attempt may have been recorded since:
  // a delivery's row and its attempt are written in one transaction, so attempts numbered past
  // the row's count are newer than the row and are left out.
  std::vector<std::string> ids;
  std::map<std::string, int64_t> recorded;
  for (const auto& d : deliveries) {
    ids.push_back(d.id);
    recorded[d.id] = d.attempts;
  }
  PARLEY_ASSIGN_OR_RETURN(auto attempts, WebhookRepo::attempts_of_many(c, ids));
  std::map<std::string, std::vector<AttemptRecord>> by_delivery;
  for (auto& a : attempts) {
    if (a.attempt > recorded[a.delivery_id]) continue;
    by_delivery[a.delivery_id].push_back(std::move(a));
  }
  std::vector<DeliveryView> out;
  out.reserve(deliveries.size());
  for (auto& d : deliveries) {
    auto found = by_delivery.find(d.id);
    out.push_back({std::move(d), found == by_delivery.end() ? std::vector<AttemptRecord>{}
                                                            : std::move(found->second)});
  }
  return out;
}
Result<WebhookRecord> get_reachable_webhook(Services& s, std::string_view account_id,
                                            std::string_view webhook_id, WebhookReach reach) {
  PARLEY_ASSIGN_OR_RETURN(Connection& c, s.db.read());
  return find_reachable(c, account_id, webhook_id, reach);
}

Result<DeliveryHistory> list_webhook_deliveries(Services& s, std::string_view account_id,
                                                std::string_view webhook_id, WebhookReach reach,
                                                const PageQuery& q) {
  PARLEY_ASSIGN_OR_RETURN(Connection& c, s.db.read());
  DeliveryHistory out;
  PARLEY_ASSIGN_OR_RETURN(out.webhook, find_reachable(c, account_id, webhook_id, reach));
  PARLEY_ASSIGN_OR_RETURN(auto page, WebhookRepo::page_deliveries(c, webhook_id, q));
  out.page.has_more = page.has_more;
  PARLEY_ASSIGN_OR_RETURN(out.page.items, with_attempts(c, std::move(page.items)));
  return out;
}

Result<RetriedDelivery> retry_webhook_delivery(Services& s, std::string_view account_id,
                                               std::string_view webhook_id,
                                               std::string_view delivery_id, WebhookReach reach) {
  RetriedDelivery out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(out.webhook, find_reachable(c, account_id, webhook_id, reach));
    PARLEY_ASSIGN_OR_RETURN(auto found, WebhookRepo::find_delivery(c, webhook_id, delivery_id));
    if (!found) {
      return ApiError::not_found("No delivery " + std::string(delivery_id) + " of webhook " +
                                 std::string(webhook_id) + ".");
    }
    const WebhookRecord& h = out.webhook;
    if (h.disabled_at) {
      return ApiError{ErrorCode::kWebhookDisabled,
                      "The webhook is disabled after failing; enable it before retrying."};
    }
    if (h.paused) {
      return ApiError{ErrorCode::kWebhookPaused,
                      "The webhook is paused in the dashboard; resume it before retrying."};
    }
    DeliveryRecord d = std::move(*found);
    int64_t now = s.clock.now_ms();
    if (d.in_flight(now)) {
      return ApiError{ErrorCode::kDeliveryInProgress,
                      "The delivery is being sent right now; retry once this attempt is recorded."};
    }
    if (d.status == "pending" && d.attempts == 0) {
      return ApiError{ErrorCode::kDeliveryPending,
                      "The delivery has not been attempted yet; it is about to be sent."};
    }
    bool manual = d.status != "pending";
    PARLEY_ASSIGN_OR_RETURN(bool requeued, WebhookRepo::requeue(c, d, now, manual));
    if (!requeued) {
      return ApiError{ErrorCode::kDeliveryInProgress,
                      "The delivery changed while the retry was asked for; try again."};
    }
    d.status = "pending";
    d.next_attempt_at = now;
    d.completed_at.reset();
    d.claimed_at.reset();
    d.manual = manual;
    std::vector<DeliveryRecord> one;
    one.push_back(std::move(d));
    PARLEY_ASSIGN_OR_RETURN(auto views, with_attempts(c, std::move(one)));
    out.delivery = std::move(views.front());
    return {};
  }));
  return out;
}

Result<WebhookRecord> enable_webhook(Services& s, std::string_view account_id,
                                     std::string_view webhook_id, WebhookReach reach) {
  WebhookRecord out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(out, find_reachable(c, account_id, webhook_id, reach));
    if (!out.disabled_at) return {};
    PARLEY_TRY(WebhookRepo::enable(c, webhook_id));
    out.disabled_at.reset();
    out.disabled_reason.reset();
    out.failing_since.reset();
    return {};
  }));
  return out;
}

}  // namespace parley
