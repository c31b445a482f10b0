// JSON of a webhook delivery with its attempts, as the API and the console list it:
// {id, event, eventId, status, attempts: [{at, statusCode, durationMs, error}], nextAttemptAt,
// createdAt}. Stateless.
#pragma once

#include <string>
#include <string_view>

#include "core/json.h"
#include "webhooks/delivery_operations.h"

namespace parley {

// "pending" (no attempt yet), "retrying" (attempted, another attempt due or under way),
// "succeeded" or "failed" (no more attempts unless retried by hand).
std::string_view delivery_status(const DeliveryRecord& d);

// nextAttemptAt: while pending or retrying, when the next attempt is due (the claim's time while
// one is under way); null when the delivery is finished or its webhook is paused or disabled
// (nothing is due until it is resumed or enabled).
void write_delivery_json(JsonWriter& w, const DeliveryView& v, const WebhookRecord& webhook,
                         int64_t now);

// The page envelope of a webhook's deliveries (GET …/deliveries, in the API and the console).
std::string delivery_page_json(const DeliveryHistory& history, int64_t now);
// {"data": delivery}, the answer to a retry.
std::string retried_delivery_json(const RetriedDelivery& retried, int64_t now);

}  // namespace parley
