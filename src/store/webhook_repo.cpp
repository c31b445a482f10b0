#include "store/webhook_repo.h"
#include "store/placeholders.h"

namespace parley {

namespace {
#define WEBHOOK_COLUMNS                                                                         \
  "id, account_id, agent_id, url, events, source, origin, key_id, secret, paused, created_at, " \
  "failing_since, disabled_at, disabled_reason"
#define DELIVERY_COLUMNS                                                                     \
  "id, webhook_id, outbox_id, event, event_id, payload, status, attempts, next_attempt_at, " \
  "event_created_at, created_at, completed_at, claimed_at, manual"
#define ATTEMPT_COLUMNS \
  "id, delivery_id, webhook_id, attempt, started_at, duration_ms, response_code, error, succeeded"

std::vector<std::string> split_events(std::string_view s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < s.size()) {
    size_t comma = s.find(',', start);
    if (comma == std::string_view::npos) comma = s.size();
    if (comma > start) out.emplace_back(s.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

std::string join_events(const std::vector<std::string>& events) {
  std::string out;
  for (const auto& e : events) out += (out.empty() ? "" : ",") + e;
  return out;
}

WebhookRecord read_webhook(const Row& r) {
  WebhookRecord w;
  w.id = r.text(0);
  w.account_id = r.text(1);
  w.agent_id = r.text(2);
  w.url = r.text(3);
  w.events = split_events(r.text_view(4));
  w.source = r.text(5);
  w.origin = r.text(6);
  w.key_id = r.opt_text(7);
  w.secret = r.text(8);
  w.paused = r.boolean(9);
  w.created_at = r.int64(10);
  w.failing_since = r.opt_int64(11);
  w.disabled_at = r.opt_int64(12);
  w.disabled_reason = r.opt_text(13);
  return w;
}

DeliveryRecord read_delivery(const Row& r, int first = 0) {
  DeliveryRecord d;
  d.id = r.text(first + 0);
  d.webhook_id = r.text(first + 1);
  d.outbox_id = r.text(first + 2);
  d.event = r.text(first + 3);
  d.event_id = r.text(first + 4);
  d.payload = r.text(first + 5);
  d.status = r.text(first + 6);
  d.attempts = r.int64(first + 7);
  d.next_attempt_at = r.opt_int64(first + 8);
  d.event_created_at = r.int64(first + 9);
  d.created_at = r.int64(first + 10);
  d.completed_at = r.opt_int64(first + 11);
  d.claimed_at = r.opt_int64(first + 12);
  d.manual = r.boolean(first + 13);
  return d;
}

AttemptRecord read_attempt(const Row& r) {
  AttemptRecord a;
  a.id = r.text(0);
  a.delivery_id = r.text(1);
  a.webhook_id = r.text(2);
  a.attempt = r.int64(3);
  a.started_at = r.int64(4);
  a.duration_ms = r.int64(5);
  a.response_code = r.opt_int64(6);
  a.error = r.opt_text(7);
  a.succeeded = r.boolean(8);
  return a;
}
}  // namespace

bool WebhookRecord::wants(std::string_view event) const {
  for (const auto& e : events)
    if (e == event) return true;
  return false;
}

std::string_view WebhookRecord::status() const {
  if (disabled_at) return "disabled";
  return paused ? "paused" : "active";
}

Result<void> WebhookRepo::insert(Connection& c, const WebhookRecord& w) {
  PARLEY_TRY(
      c.execute("INSERT INTO webhooks (" WEBHOOK_COLUMNS
                ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
                {w.id, w.account_id, w.agent_id, w.url, join_events(w.events), w.source, w.origin,
                 db_opt(w.key_id), w.secret, int64_t{w.paused ? 1 : 0}, w.created_at,
                 db_opt(w.failing_since), db_opt(w.disabled_at), db_opt(w.disabled_reason)}));
  return {};
}

Result<bool> WebhookRepo::insert_within_cap(Connection& c, const WebhookRecord& w, int64_t cap) {
  // Counted after the agent's row is held: a concurrent insert either committed before (and is
  // counted) or waits for this transaction to end.
  PARLEY_ASSIGN_OR_RETURN(bool agent, c.lock_row("agents", w.agent_id));
  if (!agent) return false;
  PARLEY_ASSIGN_OR_RETURN(int64_t count, count_for_agent(c, w.agent_id, w.origin));
  if (count >= cap) return false;
  PARLEY_TRY(insert(c, w));
  return true;
}

Result<std::optional<WebhookRecord>> WebhookRepo::find(Connection& c, std::string_view account_id,
                                                       std::string_view id) {
  std::optional<WebhookRecord> out;
  PARLEY_TRY(c.query("SELECT " WEBHOOK_COLUMNS " FROM webhooks WHERE account_id = $1 AND id = $2",
                     {account_id, id}, [&](const Row& r) { out = read_webhook(r); }));
  return out;
}

Result<std::optional<WebhookRecord>> WebhookRepo::find_any(Connection& c, std::string_view id) {
  std::optional<WebhookRecord> out;
  PARLEY_TRY(c.query("SELECT " WEBHOOK_COLUMNS " FROM webhooks WHERE id = $1", {id},
                     [&](const Row& r) { out = read_webhook(r); }));
  return out;
}

Result<std::vector<WebhookRecord>> WebhookRepo::list_for_agent(Connection& c,
                                                               std::string_view agent_id) {
  std::vector<WebhookRecord> out;
  PARLEY_TRY(c.query("SELECT " WEBHOOK_COLUMNS
                     " FROM webhooks WHERE agent_id = $1 ORDER BY created_at, id",
                     {agent_id}, [&](const Row& r) { out.push_back(read_webhook(r)); }));
  return out;
}

Result<int64_t> WebhookRepo::count_for_agent(Connection& c, std::string_view agent_id,
                                             std::string_view origin) {
  PARLEY_ASSIGN_OR_RETURN(
      auto n, c.query_int("SELECT COUNT(*) FROM webhooks WHERE agent_id = $1 AND origin = $2",
                          {agent_id, origin}));
  return n.value_or(0);
}

Result<void> WebhookRepo::set_paused(Connection& c, std::string_view id, bool paused) {
  PARLEY_TRY(
      c.execute("UPDATE webhooks SET paused = $2 WHERE id = $1", {id, int64_t{paused ? 1 : 0}}));
  return {};
}

Result<void> WebhookRepo::enable(Connection& c, std::string_view id) {
  PARLEY_TRY(
      c.execute("UPDATE webhooks SET disabled_at = NULL, disabled_reason = NULL, "
                "failing_since = NULL WHERE id = $1",
                {id}));
  return {};
}

Result<void> WebhookRepo::note_failure(Connection& c, std::string_view id, int64_t at) {
  PARLEY_TRY(c.execute(
      "UPDATE webhooks SET failing_since = $2 WHERE id = $1 AND failing_since IS NULL", {id, at}));
  return {};
}

Result<void> WebhookRepo::note_success(Connection& c, std::string_view id, int64_t at) {
  PARLEY_TRY(
      c.execute("UPDATE webhooks SET failing_since = NULL "
                "WHERE id = $1 AND failing_since IS NOT NULL AND failing_since <= $2",
                {id, at}));
  return {};
}

Result<bool> WebhookRepo::disable_if_failing(Connection& c, std::string_view id,
                                             int64_t failing_before, int64_t now,
                                             std::string_view reason) {
  PARLEY_ASSIGN_OR_RETURN(
      int64_t n, c.execute("UPDATE webhooks SET disabled_at = $3, disabled_reason = $4 "
                           "WHERE id = $1 AND disabled_at IS NULL AND failing_since IS NOT NULL "
                           "AND failing_since <= $2",
                           {id, failing_before, now, reason}));
  return n > 0;
}

Result<bool> WebhookRepo::remove(Connection& c, std::string_view id) {
  PARLEY_TRY(c.execute("DELETE FROM webhook_attempts WHERE webhook_id = $1", {id}));
  PARLEY_TRY(c.execute("DELETE FROM webhook_deliveries WHERE webhook_id = $1", {id}));
  PARLEY_ASSIGN_OR_RETURN(int64_t n, c.execute("DELETE FROM webhooks WHERE id = $1", {id}));
  return n > 0;
}

Result<int64_t> WebhookRepo::remove_by_key(Connection& c, std::string_view key_id) {
  std::vector<std::string> ids;
  PARLEY_TRY(c.query("SELECT id FROM webhooks WHERE key_id = $1", {key_id},
                     [&](const Row& r) { ids.push_back(r.text(0)); }));
  for (const auto& id : ids) PARLEY_TRY(remove(c, id));
  return static_cast<int64_t>(ids.size());
}

Result<void> WebhookRepo::add_to_outbox(Connection& c, const OutboxRow& row) {
  PARLEY_TRY(
      c.execute("INSERT INTO event_outbox (id, account_id, agent_id, event, event_id, created_at) "
                "VALUES ($1, $2, $3, $4, $5, $6)",
                {row.id, row.account_id, row.agent_id, row.event, row.event_id, row.created_at}));
  return {};
}

Result<std::vector<OutboxRow>> WebhookRepo::waiting_outbox(Connection& c, int64_t limit) {
  std::vector<OutboxRow> out;
  PARLEY_TRY(
      c.query("SELECT id, account_id, agent_id, event, event_id, created_at FROM event_outbox "
              "WHERE dispatched_at IS NULL ORDER BY created_at, id LIMIT $1",
              {limit}, [&](const Row& r) {
                out.push_back({r.text(0), r.text(1), r.text(2), r.text(3), r.text(4), r.int64(5)});
              }));
  return out;
}

Result<bool> WebhookRepo::mark_dispatched(Connection& c, std::string_view outbox_id, int64_t now) {
  PARLEY_ASSIGN_OR_RETURN(int64_t n, c.execute("UPDATE event_outbox SET dispatched_at = $2 "
                                               "WHERE id = $1 AND dispatched_at IS NULL",
                                               {outbox_id, now}));
  return n > 0;
}

Result<void> WebhookRepo::insert_delivery(Connection& c, const DeliveryRecord& d) {
  PARLEY_TRY(c.execute("INSERT INTO webhook_deliveries (" DELIVERY_COLUMNS
                       ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) "
                       "ON CONFLICT (webhook_id, outbox_id) DO NOTHING",
                       {d.id, d.webhook_id, d.outbox_id, d.event, d.event_id, d.payload, d.status,
                        d.attempts, db_opt(d.next_attempt_at), d.event_created_at, d.created_at,
                        db_opt(d.completed_at), db_opt(d.claimed_at), int64_t{d.manual ? 1 : 0}}));
  return {};
}

Result<std::vector<DueDelivery>> WebhookRepo::due_per_webhook(Connection& c, int64_t now,
                                                              int64_t per_webhook) {
  std::vector<DueDelivery> out;
  // For each webhook, a probe of the partial index of pending deliveries; the cross join keeps
  // SQLite from reading a webhook's whole history to match the subquery's ids.
  PARLEY_TRY(c.query(
      "SELECT d.id, d.webhook_id, d.outbox_id, d.event, d.event_id, d.payload, d.status, "
      "d.attempts, d.next_attempt_at, d.event_created_at, d.created_at, d.completed_at, "
      "d.claimed_at, d.manual, w.url, w.secret, w.account_id, w.failing_since "
      "FROM webhooks w CROSS JOIN webhook_deliveries d "
      "WHERE w.paused = 0 AND w.disabled_at IS NULL AND d.id IN (SELECT x.id "
      "FROM webhook_deliveries x "
      "WHERE x.webhook_id = w.id AND x.status = 'pending' AND x.next_attempt_at <= $1 "
      "ORDER BY x.next_attempt_at, x.id LIMIT $2) "
      "ORDER BY d.next_attempt_at, d.id",
      {now, per_webhook}, [&](const Row& r) {
        out.push_back({read_delivery(r), r.text(14), r.text(15), r.text(16), r.opt_int64(17)});
      }));
  return out;
}

Result<bool> WebhookRepo::claim(Connection& c, std::string_view delivery_id, int64_t due_at,
                                int64_t now, int64_t until) {
  PARLEY_ASSIGN_OR_RETURN(int64_t n,
                          c.execute("UPDATE webhook_deliveries SET next_attempt_at = $3, "
                                    "claimed_at = $4 "
                                    "WHERE id = $1 AND status = 'pending' AND next_attempt_at = $2",
                                    {delivery_id, due_at, until, now}));
  return n > 0;
}

Result<bool> WebhookRepo::record_attempt(Connection& c, const AttemptRecord& a,
                                         std::string_view status,
                                         std::optional<int64_t> next_attempt_at,
                                         std::optional<int64_t> completed_at) {
  // The webhook may have been deleted while the attempt was in flight: then nothing is recorded.
  PARLEY_ASSIGN_OR_RETURN(
      int64_t n,
      c.execute("UPDATE webhook_deliveries SET status = $2, attempts = $3, "
                "next_attempt_at = $4, completed_at = $5, claimed_at = NULL, manual = 0 "
                "WHERE id = $1",
                {a.delivery_id, status, a.attempt, db_opt(next_attempt_at), db_opt(completed_at)}));
  if (n == 0) return false;
  PARLEY_TRY(c.execute("INSERT INTO webhook_attempts (" ATTEMPT_COLUMNS
                       ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                       {a.id, a.delivery_id, a.webhook_id, a.attempt, a.started_at, a.duration_ms,
                        db_opt(a.response_code), db_opt(a.error), int64_t{a.succeeded ? 1 : 0}}));
  if (a.attempt > kAttemptsKeptPerDelivery) {
    PARLEY_TRY(c.execute("DELETE FROM webhook_attempts WHERE delivery_id = $1 AND attempt <= $2",
                         {a.delivery_id, a.attempt - kAttemptsKeptPerDelivery}));
  }
  return true;
}

Result<bool> WebhookRepo::requeue(Connection& c, const DeliveryRecord& seen, int64_t now,
                                  bool manual) {
  // Compare-and-set on what a claim or a recorded attempt changes.
  PARLEY_ASSIGN_OR_RETURN(
      int64_t n,
      c.execute("UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $5, "
                "completed_at = NULL, claimed_at = NULL, manual = $6 "
                "WHERE id = $1 AND status = $2 AND attempts = $3 "
                "AND COALESCE(next_attempt_at, -1) = $4",
                {seen.id, seen.status, seen.attempts, seen.next_attempt_at.value_or(-1), now,
                 int64_t{manual ? 1 : 0}}));
  return n > 0;
}

Result<std::vector<DeliveryRecord>> WebhookRepo::list_deliveries(Connection& c,
                                                                 std::string_view webhook_id,
                                                                 int64_t limit) {
  std::vector<DeliveryRecord> out;
  PARLEY_TRY(c.query("SELECT " DELIVERY_COLUMNS " FROM webhook_deliveries WHERE webhook_id = $1 "
                     "ORDER BY created_at DESC, id DESC LIMIT $2",
                     {webhook_id, limit}, [&](const Row& r) { out.push_back(read_delivery(r)); }));
  return out;
}

Result<Page<DeliveryRecord>> WebhookRepo::page_deliveries(Connection& c,
                                                          std::string_view webhook_id,
                                                          const PageQuery& q) {
  const KeysetTable table{"webhook_deliveries", DELIVERY_COLUMNS, "created_at", "created_at"};
  std::vector<DeliveryRecord> rows;
  PARLEY_TRY(query_keyset_page(c, table, "webhook_id = $1", {std::string(webhook_id)}, q,
                               [&](const Row& r) { rows.push_back(read_delivery(r)); }));
  return finish_page(std::move(rows), q.limit);
}

Result<std::optional<DeliveryRecord>> WebhookRepo::find_delivery(Connection& c,
                                                                 std::string_view webhook_id,
                                                                 std::string_view delivery_id) {
  std::optional<DeliveryRecord> out;
  PARLEY_TRY(c.query("SELECT " DELIVERY_COLUMNS
                     " FROM webhook_deliveries WHERE id = $1 AND webhook_id = $2",
                     {delivery_id, webhook_id}, [&](const Row& r) { out = read_delivery(r); }));
  return out;
}

Result<std::vector<AttemptRecord>> WebhookRepo::attempts_of_many(
    Connection& c, const std::vector<std::string>& delivery_ids) {
  std::vector<AttemptRecord> out;
  if (delivery_ids.empty()) return out;
  // One statement for a page: placeholders $1..$n, every id a parameter.
  std::vector<DbValue> params(delivery_ids.begin(), delivery_ids.end());
  const std::string sql = "SELECT " ATTEMPT_COLUMNS
                          " FROM webhook_attempts WHERE delivery_id IN (" +
                          placeholders(1, params.size()) + ") ORDER BY delivery_id, attempt";
  PARLEY_TRY(c.query(sql, params, [&](const Row& r) { out.push_back(read_attempt(r)); }));
  return out;
}

Result<std::vector<AttemptRecord>> WebhookRepo::attempts_of(Connection& c,
                                                            std::string_view delivery_id) {
  std::vector<AttemptRecord> out;
  PARLEY_TRY(c.query("SELECT " ATTEMPT_COLUMNS
                     " FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt",
                     {delivery_id}, [&](const Row& r) { out.push_back(read_attempt(r)); }));
  return out;
}

Result<void> WebhookRepo::prune(Connection& c, int64_t outbox_before, int64_t history_before) {
  PARLEY_TRY(
      c.execute("DELETE FROM event_outbox WHERE dispatched_at IS NOT NULL AND dispatched_at < $1",
                {outbox_before}));
  PARLEY_TRY(c.execute(
      "DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries "
      "WHERE status <> 'pending' AND completed_at < $1)",
      {history_before}));
  PARLEY_TRY(
      c.execute("DELETE FROM webhook_deliveries WHERE status <> 'pending' AND completed_at < $1",
                {history_before}));
  return {};
}

}  // namespace parley
