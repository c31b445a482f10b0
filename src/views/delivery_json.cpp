#include "views/delivery_json.h"

#include "views/pagination.h"

namespace parley {

std::string_view delivery_status(const DeliveryRecord& d) {
  if (d.status != "pending") return d.status;
  return d.attempts > 0 ? "retrying" : "pending";
}

void write_delivery_json(JsonWriter& w, const DeliveryView& v, const WebhookRecord& webhook,
                         int64_t now) {
  const DeliveryRecord& d = v.delivery;
  w.begin_object();
  w.key("id").string(d.id).key("event").string(d.event).key("eventId").string(d.event_id);
  w.key("status").string(delivery_status(d));
  w.key("attempts").begin_array();
  for (const auto& a : v.attempts) {
    w.begin_object().key("at").timestamp(a.started_at).key("statusCode");
    if (a.response_code)
      w.integer(*a.response_code);
    else
      w.null();
    w.key("durationMs").integer(a.duration_ms).key("error").string_or_null(a.error);
    w.end_object();
  }
  w.end_array();
  std::optional<int64_t> next;
  if (d.status == "pending" && webhook.active())
    next = d.in_flight(now) ? d.claimed_at : d.next_attempt_at;
  w.key("nextAttemptAt").timestamp_or_null(next);
  w.key("createdAt").timestamp(d.created_at);
  w.end_object();
}

std::string delivery_page_json(const DeliveryHistory& history, int64_t now) {
  return page_json<DeliveryView>(
      history.page, kDeliveryList, history.webhook.id,
      [&](JsonWriter& w, const DeliveryView& v) { write_delivery_json(w, v, history.webhook, now); },
      [](const DeliveryView& v) { return KeysetPosition{v.delivery.created_at, v.delivery.id}; });
}

std::string retried_delivery_json(const RetriedDelivery& retried, int64_t now) {
  JsonWriter w;
  w.begin_object().key("data");
  write_delivery_json(w, retried.delivery, retried.webhook, now);
  w.end_object();
  return w.str();
}

}  // namespace parley
