// Webhook subscriptions (added through the API or the dashboard), their deliveries (one per event
// and webhook, with the body frozen at fan-out) and every delivery attempt (the latest
// kAttemptsKeptPerDelivery of each delivery). Also the outbox reads the delivery worker needs and
// what disabling a failing webhook keeps. Stateless; every function runs on the connection it is
// given.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/db.h"
#include "store/keyset.h"

namespace parley {

// A delivery keeps its latest attempts only (eight automatic ones and some retries by hand).
inline constexpr int64_t kAttemptsKeptPerDelivery = 20;

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
  std::optional<int64_t> failing_since;  // first failed attempt since the last success
  std::optional<int64_t> disabled_at;    // set while disabled after failing for days
  std::optional<std::string> disabled_reason;

  bool wants(std::string_view event) const;
  // Whether the worker sends to it: neither paused nor disabled.
  bool active() const { return !paused && !disabled_at; }
  // "disabled" (after failing for days; wins over a pause), "paused" or "active".
  std::string_view status() const;
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
  // While pending: when the next attempt is due, or while an attempt is under way the end of the
  // claim's lease.
  std::optional<int64_t> next_attempt_at;
  int64_t event_created_at = 0;
  int64_t created_at = 0;
  std::optional<int64_t> completed_at;
  std::optional<int64_t> claimed_at;  // when the attempt under way was claimed
  bool manual = false;                // the next attempt was asked for by hand on a finished one

  // An attempt is under way: claimed, and the claim's lease has not run out at `now`.
  bool in_flight(int64_t now) const {
    return status == "pending" && claimed_at && next_attempt_at && *next_attempt_at > now;
  }
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
  std::optional<int64_t> failing_since;  // the webhook's, when the delivery was read
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
  // Clears the disabled state and the run of failures (a fresh start).
  static Result<void> enable(Connection& c, std::string_view id);
  // The run of failures: a failed attempt started at `at` starts one unless one is running; a
  // successful attempt started at `at` ends the run that began at or before it (a failure that
  // started later, recorded first, keeps its run).
  static Result<void> note_failure(Connection& c, std::string_view id, int64_t at);
  static Result<void> note_success(Connection& c, std::string_view id, int64_t at);
  // Disables the webhook when its run of failures began at or before `failing_before`; true
  // when this call disabled it (false when it was not failing that long, or already disabled).
  static Result<bool> disable_if_failing(Connection& c, std::string_view id, int64_t failing_before,
                                         int64_t now, std::string_view reason);
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
  // Pushes a due delivery's due time out to `until` so that no other worker takes it meanwhile,
  // noting the claim's time `now`; false when another worker claimed it first (its due time is
  // no longer `due_at`).
  static Result<bool> claim(Connection& c, std::string_view delivery_id, int64_t due_at,
                            int64_t now, int64_t until);
  // Records an attempt and moves the delivery to its new state (the claim ends); keeps the
  // delivery's latest kAttemptsKeptPerDelivery attempts. False when the delivery is gone (its
  // webhook was deleted while the attempt was in flight): then nothing is recorded.
  static Result<bool> record_attempt(Connection& c, const AttemptRecord& a, std::string_view status,
                                     std::optional<int64_t> next_attempt_at,
                                     std::optional<int64_t> completed_at);
  // Makes a delivery due at `now` again, unless it changed since it was read as `seen` (false
  // then). `manual`: that attempt alone, no retries after it.
  static Result<bool> requeue(Connection& c, const DeliveryRecord& seen, int64_t now, bool manual);
  // The webhook's latest deliveries, newest first, and one delivery's attempts in order.
  static Result<std::vector<DeliveryRecord>> list_deliveries(Connection& c,
                                                             std::string_view webhook_id,
                                                             int64_t limit);
  // A page of the webhook's deliveries, newest first (created_at, id); `since` on created_at.
  static Result<Page<DeliveryRecord>> page_deliveries(Connection& c, std::string_view webhook_id,
                                                      const PageQuery& q);
  static Result<std::optional<DeliveryRecord>> find_delivery(Connection& c,
                                                             std::string_view webhook_id,
                                                             std::string_view delivery_id);
  static Result<std::vector<AttemptRecord>> attempts_of(Connection& c,
                                                        std::string_view delivery_id);
  // The attempts of several deliveries, each delivery's in order.
  static Result<std::vector<AttemptRecord>> attempts_of_many(
      Connection& c, const std::vector<std::string>& delivery_ids);
  // Deletes outbox rows fanned out before `outbox_before` and deliveries (with their attempts)
  // finished before `history_before`.
  static Result<void> prune(Connection& c, int64_t outbox_before, int64_t history_before);
};

}  // namespace parley
