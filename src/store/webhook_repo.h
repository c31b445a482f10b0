// Webhook subscriptions (added through the API or the dashboard), their deliveries (one per event
// and webhook, with the body frozen at fan-out) and every delivery attempt. Also the outbox reads
// the delivery worker needs. Stateless; every function runs on the connection it is given.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/db.h"

namespace parley {

struct WebhookRecord {
  std::string id;
  std::string account_id;
  std::string agent_id;
  std::string url;
  std::vector<std::string> events;
  std::string source = "api";  // "tool_a" | "tool_b" | "api"
  std::string origin = "api";  // "api" | "dashboard"
  std::optional<std::string> key_id;
  std::string secret;
  bool paused = false;
  int64_t created_at = 0;

  bool wants(std::string_view event) const;
};

struct DeliveryRecord {
  std::string id;
  std::string webhook_id;
  std::string outbox_id;
  std::string event;
  std::string event_id;
  std::string payload;
  std::string status = "pending";  // "pending" | "succeeded" | "failed"
  int64_t attempts = 0;
  std::optional<int64_t> next_attempt_at;
  int64_t event_created_at = 0;
  int64_t created_at = 0;
  std::optional<int64_t> completed_at;
};

struct AttemptRecord {
  std::string id;
  std::string delivery_id;
  std::string webhook_id;
  int64_t attempt = 0;
  int64_t started_at = 0;
  int64_t duration_ms = 0;
  std::optional<int64_t> response_code;
  std::optional<std::string> error;
  bool succeeded = false;
};

struct OutboxRow {
  std::string id;
  std::string account_id;
  std::string agent_id;
  std::string event;
  std::string event_id;
  int64_t created_at = 0;
};

// A pending delivery with what sending it needs.
struct DueDelivery {
  DeliveryRecord delivery;
  std::string url;
  std::string secret;
  std::string account_id;  // the webhook's account
};

class WebhookRepo {
 public:
  static Result<void> insert(Connection& c, const WebhookRecord& w);
  // Inserts the webhook unless its agent already has `cap` webhooks of the same origin: false
  // then, and nothing is inserted. The agent's row is locked first, so concurrent subscriptions
  // are counted in turn.
  static Result<bool> insert_within_cap(Connection& c, const WebhookRecord& w, int64_t cap);
  // The webhook when it belongs to the account.
  static Result<std::optional<WebhookRecord>> find(Connection& c, std::string_view account_id,
                                                   std::string_view id);
  static Result<std::optional<WebhookRecord>> find_any(Connection& c, std::string_view id);
  // The agent's webhooks, oldest first.
  static Result<std::vector<WebhookRecord>> list_for_agent(Connection& c,
                                                           std::string_view agent_id);
  static Result<int64_t> count_for_agent(Connection& c, std::string_view agent_id,
                                         std::string_view origin);
  static Result<void> set_paused(Connection& c, std::string_view id, bool paused);
  // Deletes the webhook with its deliveries and attempts; false when there was none.
  static Result<bool> remove(Connection& c, std::string_view id);
  // Deletes every webhook the key subscribed, with their history; returns how many.
  static Result<int64_t> remove_by_key(Connection& c, std::string_view key_id);

  // Adds an event to the outbox (inside the transaction that stores its record).
  static Result<void> add_to_outbox(Connection& c, const OutboxRow& row);
  // Outbox rows not yet fanned out, oldest first.
  static Result<std::vector<OutboxRow>> waiting_outbox(Connection& c, int64_t limit);
  // Marks the row fanned out; false when another worker already did (so it is fanned out once).
  static Result<bool> mark_dispatched(Connection& c, std::string_view outbox_id, int64_t now);

  static Result<void> insert_delivery(Connection& c, const DeliveryRecord& d);
  // The earliest `per_webhook` pending deliveries due at `now` of every unpaused webhook, all of
  // them earliest first. Bounded per webhook so that one webhook's backlog never hides another's
  // (the cost grows with the number of webhooks, not with the backlog).
  static Result<std::vector<DueDelivery>> due_per_webhook(Connection& c, int64_t now,
                                                          int64_t per_webhook);
  // Pushes a due delivery's due time out to `until` so that no other worker takes it meanwhile;
  // false when another worker claimed it first (its due time is no longer `due_at`).
  static Result<bool> claim(Connection& c, std::string_view delivery_id, int64_t due_at,
                            int64_t until);
  // Records an attempt and moves the delivery to its new state.
  static Result<void> record_attempt(Connection& c, const AttemptRecord& a, std::string_view status,
                                     std::optional<int64_t> next_attempt_at,
                                     std::optional<int64_t> completed_at);
  // The webhook's latest deliveries, newest first, and one delivery's attempts in order.
  static Result<std::vector<DeliveryRecord>> list_deliveries(Connection& c,
                                                             std::string_view webhook_id,
                                                             int64_t limit);
  static Result<std::vector<AttemptRecord>> attempts_of(Connection& c,
                                                        std::string_view delivery_id);
  // Deletes outbox rows fanned out before `outbox_before` and deliveries (with their attempts)
  // finished before `history_before`.
  static Result<void> prune(Connection& c, int64_t outbox_before, int64_t history_before);
};

}  // namespace parley
