#include "workers/delivery_worker.h"

#include <algorithm>
#include <map>

#include "core/log.h"
#include "core/time_format.h"
#include "events/event_catalog.h"
#include "events/event_query.h"
#include "store/agent_repo.h"
#include "store/webhook_repo.h"
#include "webhooks/signer.h"

namespace parley {

Result<std::vector<int64_t>> parse_retry_schedule(std::string_view text) {
  std::vector<int64_t> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string_view item = text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item.empty()) return ApiError::invalid("The retry schedule has an empty entry.");
    size_t digits = 0;
    int64_t value = 0;
    while (digits < item.size() && item[digits] >= '0' && item[digits] <= '9') {
      value = value * 10 + (item[digits] - '0');
      ++digits;
    }
    std::string_view unit = item.substr(digits);
    int64_t factor = 0;
    if (unit.empty() || unit == "ms")
      factor = 1;
    else if (unit == "s")
      factor = 1000;
    else if (unit == "m")
      factor = 60'000;
    else if (unit == "h")
      factor = 3'600'000;
    if (digits == 0 || factor == 0) {
      return ApiError::invalid("Retry schedule entry '" + std::string(item) +
                               "' must be a number with ms, s, m or h.");
    }
    out.push_back(value * factor);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

namespace {
// "5 days", "36 hours", "90 minutes", "40 seconds": the largest unit that divides the span.
std::string span_text(int64_t ms) {
  struct Unit {
    int64_t ms;
    const char* name;
  };
  for (Unit u : {Unit{86'400'000, "day"}, Unit{3'600'000, "hour"}, Unit{60'000, "minute"},
                 Unit{1000, "second"}}) {
    if (ms >= u.ms && ms % u.ms == 0) {
      int64_t n = ms / u.ms;
      return std::to_string(n) + " " + u.name + (n == 1 ? "" : "s");
    }
  }
  return std::to_string(ms) + " ms";
}
}  // namespace

std::string disable_reason(int64_t disable_after_ms, int64_t failing_since,
                           const std::optional<std::string>& last_error,
                           std::optional<int64_t> last_status) {
  std::string last = last_error    ? *last_error
                     : last_status ? "HTTP " + std::to_string(*last_status)
                                   : "no answer";
  if (last.size() > 200) last = last.substr(0, 200) + "…";
  return "Every delivery attempt failed for " + span_text(disable_after_ms) + ", since " +
         format_timestamp(failing_since) + "; the last one: " + last + ".";
}

DeliveryWorker::DeliveryWorker(Database& db, const Clock& clock, Random& random, HttpSender& sender,
                               DeliveryOptions options, DisableListener* listener)
    : db_(db),
      clock_(clock),
      random_(random),
      sender_(sender),
      options_(std::move(options)),
      listener_(listener),
      pool_(options_.concurrency) {}

DeliveryWorker::~DeliveryWorker() { stop(); }

void DeliveryWorker::start() {
  thread_ = std::thread([this] { loop(); });
}

void DeliveryWorker::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void DeliveryWorker::loop() {
  while (true) {
    bool stopping = false;
    size_t in_flight = 0;
    {
      std::lock_guard lock(mu_);
      stopping = stopping_;
      in_flight = in_flight_;
    }
    int64_t done = 0;
    if (!stopping) done += dispatch_logged();
    size_t capacity = stopping || in_flight >= max_in_flight() ? 0 : max_in_flight() - in_flight;
    done += settle_and_claim(capacity);
    // Nothing was in flight when the round began and it recorded nothing: all is recorded.
    if (stopping && in_flight == 0 && done == 0) break;
    if (!stopping) prune();
    std::unique_lock lock(mu_);
    if (done == 0 && completed_.empty()) {
      cv_.wait_for(lock, std::chrono::milliseconds(options_.poll_ms),
                   [&] { return !completed_.empty() || (stopping_ && !stopping); });
    }
  }
}

int64_t DeliveryWorker::run_once() {
  int64_t done = dispatch_logged();
  done += settle_and_claim(static_cast<size_t>(options_.batch));
  {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return in_flight_ == 0; });
  }
  done += settle_and_claim(0);
  prune();
  return done;
}

int64_t DeliveryWorker::dispatch_logged() {
  auto d = dispatch();
  if (d.ok()) return *d;
  log_error("webhook dispatch failed", {{"error", std::string_view(d.error().message)}});
  return 0;
}

void DeliveryWorker::prune() {
  int64_t now = clock_.now_ms();
  if (now - last_prune_ms_ < 60'000) return;
  last_prune_ms_ = now;
  auto r = db_.write([&](Connection& c) -> Result<void> {
    return WebhookRepo::prune(c, now - options_.outbox_retention_ms,
                              now - options_.history_retention_ms);
  });
  if (!r.ok())
    log_error("webhook history pruning failed", {{"error", std::string_view(r.error().message)}});
}

Result<int64_t> DeliveryWorker::dispatch() {
  PARLEY_ASSIGN_OR_RETURN(Connection& c, db_.read());
  PARLEY_ASSIGN_OR_RETURN(auto waiting, WebhookRepo::waiting_outbox(c, 500));
  if (waiting.empty()) return int64_t{0};
  int64_t created = 0;
  PARLEY_TRY(db_.write([&](Connection& c) -> Result<void> {
    created = 0;
    std::map<std::string, std::optional<EventAgent>> agents;
    std::map<std::string, std::vector<WebhookRecord>> hooks;
    int64_t now = clock_.now_ms();
    for (const auto& row : waiting) {
      PARLEY_ASSIGN_OR_RETURN(bool mine, WebhookRepo::mark_dispatched(c, row.id, now));
      if (!mine) continue;
      auto kind = parse_event_kind(row.event);
      if (!kind || !is_subscribable(*kind)) continue;
      if (!agents.count(row.agent_id)) {
        PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find_any(c, row.agent_id));
        agents[row.agent_id] =
            agent ? std::optional<EventAgent>(EventAgent{agent->id, agent->name,
                                                             parse_agent_settings(agent->settings)})
                  : std::nullopt;
        PARLEY_ASSIGN_OR_RETURN(hooks[row.agent_id], WebhookRepo::list_for_agent(c, row.agent_id));
      }
      const auto& agent = agents[row.agent_id];
      if (!agent) continue;
      std::optional<std::string> body;
      bool built = false;
      for (const auto& h : hooks[row.agent_id]) {
        if (!h.active() || !h.wants(row.event)) continue;
        if (!built) {
          PARLEY_ASSIGN_OR_RETURN(body, event_body(c, *agent, *kind, row.event_id));
          built = true;
        }
        if (!body) break;  // the record is gone
        DeliveryRecord d;
        d.id = new_ordered_id(random_, "dlv_");
        d.webhook_id = h.id;
        d.outbox_id = row.id;
        d.event = row.event;
        d.event_id = row.event_id;
        d.payload = *body;
        d.next_attempt_at = now;
        d.event_created_at = row.created_at;
        d.created_at = now;
        PARLEY_TRY(WebhookRepo::insert_delivery(c, d));
        ++created;
      }
    }
    return {};
  }));
  return static_cast<int64_t>(waiting.size()) + created;
}

Result<std::vector<DueDelivery>> DeliveryWorker::pick(size_t capacity) {
  const auto& limits = options_.fair_share;
  PARLEY_ASSIGN_OR_RETURN(Connection& c, db_.read());
  PARLEY_ASSIGN_OR_RETURN(auto candidates,
                          WebhookRepo::due_per_webhook(c, clock_.now_ms(),
                                                       static_cast<int64_t>(limits.per_webhook)));
  InFlight in_flight;
  {
    // Only the worker's thread adds to the counts; senders finishing meanwhile only lower them.
    std::lock_guard lock(mu_);
    in_flight = in_flight_by_;
  }
  std::vector<DueDelivery> picked;
  for (size_t i : pick_fairly(candidates, in_flight, limits, capacity))
    picked.push_back(std::move(candidates[i]));
  return picked;
}

void DeliveryWorker::send(std::vector<DueDelivery> due) {
  for (auto& d : due) {
    {
      std::lock_guard lock(mu_);
      ++in_flight_;
      in_flight_by_.add(d);
    }
    pool_.post([this, d = std::move(d)]() mutable {
      SentDelivery sent;
      sent.started_at = clock_.now_ms();
      int64_t ts = sent.started_at / 1000;
      auto signature = sign_webhook(d.secret, d.delivery.event_id, ts, d.delivery.payload);
      if (signature.ok()) {
        SendRequest req;
        req.url = d.url;
        req.body = d.delivery.payload;
        req.headers = {{"Content-Type", "application/json"},
                       {"User-Agent", "Parley-Webhooks/1"},
                       {"webhook-id", d.delivery.event_id},
                       {"webhook-timestamp", std::to_string(ts)},
                       {"webhook-signature", *signature}};
        sent.outcome = sender_.send(req);
      } else {
        sent.outcome.error = signature.error().message;
      }
      sent.due = std::move(d);
      // Notified under the lock so that the worker cannot see the count reach zero, and be
      // destroyed, before this task is done with it.
      std::lock_guard lock(mu_);
      in_flight_by_.remove(sent.due);
      completed_.push_back(std::move(sent));
      --in_flight_;
      cv_.notify_all();
    });
  }
}

int64_t DeliveryWorker::settle_and_claim(size_t capacity) {
  std::vector<SentDelivery> done;
  {
    std::lock_guard lock(mu_);
    while (!completed_.empty()) {
      done.push_back(std::move(completed_.front()));
      completed_.pop_front();
    }
  }
  capacity = std::min(capacity, static_cast<size_t>(options_.batch));
  // Chosen on a read: a round with nothing finished and nothing to start (every webhook with due
  // work at its cap) then costs no commit. The claims below are compare-and-set, so a delivery
  // another node took meanwhile is skipped.
  std::vector<DueDelivery> picked;
  if (capacity > 0) {
    auto p = pick(capacity);
    if (p.ok())
      picked = std::move(*p);
    else
      log_error("webhook delivery failed", {{"error", std::string_view(p.error().message)}});
  }
  if (done.empty() && picked.empty()) return 0;
  std::vector<DueDelivery> due;
  std::vector<std::string> disabled;
  // One transaction (one commit) records the finished attempts and claims the next ones, so that
  // a webhook's few slots are refilled at the cost of one commit per round.
  auto r = db_.write([&](Connection& c) -> Result<void> {
    due.clear();
    PARLEY_TRY(record(c, done, disabled));
    int64_t now = clock_.now_ms();
    for (const auto& d : picked) {
      PARLEY_ASSIGN_OR_RETURN(bool mine,
                              WebhookRepo::claim(c, d.delivery.id, *d.delivery.next_attempt_at, now,
                                                 now + options_.lease_ms));
      if (mine) due.push_back(d);
    }
    return {};
  });
  // On failure the claims' leases expire and the deliveries are sent again: at least once.
  if (!r.ok()) {
    log_error("webhook delivery round failed", {{"error", std::string_view(r.error().message)}});
    return static_cast<int64_t>(done.size());
  }
  announce_disabled(disabled);
  int64_t claimed = static_cast<int64_t>(due.size());
  send(std::move(due));
  return static_cast<int64_t>(done.size()) + claimed;
}

Result<void> DeliveryWorker::record(Connection& c, const std::vector<SentDelivery>& done,
                                    std::vector<std::string>& disabled) {
  disabled.clear();
  int64_t now = clock_.now_ms();
  // Each webhook's recorded outcomes, to move its run of failures once per round.
  std::map<std::string, std::vector<const SentDelivery*>> by_webhook;
  for (const auto& sent : done) {
    const auto& d = sent.due.delivery;
    const auto& o = sent.outcome;
    AttemptRecord a;
    a.id = new_ordered_id(random_, "att_");
    a.delivery_id = d.id;
    a.webhook_id = d.webhook_id;
    a.attempt = d.attempts + 1;
    a.started_at = sent.started_at;
    a.duration_ms = o.duration_ms;
    a.response_code = o.status;
    a.error = o.error;
    a.succeeded = o.succeeded();
    size_t retries_used = static_cast<size_t>(d.attempts);
    bool recorded = false;
    if (a.succeeded) {
      PARLEY_ASSIGN_OR_RETURN(recorded,
                              WebhookRepo::record_attempt(c, a, "succeeded", std::nullopt, now));
    } else if (!d.manual && retries_used < options_.retry_schedule_ms.size()) {
      PARLEY_ASSIGN_OR_RETURN(
          recorded,
          WebhookRepo::record_attempt(
              c, a, "pending", now + options_.retry_schedule_ms[retries_used], std::nullopt));
    } else {
      // The schedule is spent, or a retry by hand failed: no more attempts of its own.
      PARLEY_ASSIGN_OR_RETURN(recorded,
                              WebhookRepo::record_attempt(c, a, "failed", std::nullopt, now));
    }
    if (recorded) by_webhook[d.webhook_id].push_back(&sent);
  }
  // In webhook id order, so that nodes recording at the same time touch the rows in one order.
  for (auto& [webhook_id, outcomes] : by_webhook) {
    std::sort(outcomes.begin(), outcomes.end(), [](const SentDelivery* a, const SentDelivery* b) {
      return a->started_at < b->started_at;
    });
    // Only where the outcome changes does the run move: the first failure of a run of failures
    // may start one, the last success of a run of successes ends it.
    std::optional<int64_t> run_start = outcomes.front()->due.failing_since;  // as read, a hint
    for (size_t i = 0; i < outcomes.size(); ++i) {
      bool ok = outcomes[i]->outcome.succeeded();
      bool last_of_kind = i + 1 == outcomes.size() || outcomes[i + 1]->outcome.succeeded() != ok;
      bool first_of_kind = i == 0 || outcomes[i - 1]->outcome.succeeded() != ok;
      if (ok && last_of_kind) {
        PARLEY_TRY(WebhookRepo::note_success(c, webhook_id, outcomes[i]->started_at));
        run_start.reset();
      } else if (!ok && first_of_kind) {
        PARLEY_TRY(WebhookRepo::note_failure(c, webhook_id, outcomes[i]->started_at));
        if (!run_start) run_start = outcomes[i]->started_at;
      }
    }
    const SentDelivery& last = *outcomes.back();
    if (last.outcome.succeeded() || !run_start ||
        last.started_at - *run_start < options_.disable_after_ms) {
      continue;
    }
    // Failing long enough by what was read: read the webhook itself before disabling it.
    PARLEY_ASSIGN_OR_RETURN(auto hook, WebhookRepo::find_any(c, webhook_id));
    if (!hook || hook->disabled_at || !hook->failing_since) continue;
    std::string reason = disable_reason(options_.disable_after_ms, *hook->failing_since,
                                        last.outcome.error, last.outcome.status);
    PARLEY_ASSIGN_OR_RETURN(
        bool now_disabled,
        WebhookRepo::disable_if_failing(c, webhook_id, last.started_at - options_.disable_after_ms,
                                        now, reason));
    if (now_disabled) disabled.push_back(webhook_id);
  }
  return {};
}

void DeliveryWorker::announce_disabled(const std::vector<std::string>& disabled) {
  for (const auto& id : disabled) {
    log_warn("webhook_disabled",
             {{"webhookId", std::string_view(id)}, {"failingForMs", options_.disable_after_ms}});
    if (listener_ != nullptr) pool_.post([this, id] { listener_->webhook_disabled(id); });
  }
}

}  // namespace parley
