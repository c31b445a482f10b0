// The webhook delivery worker: a background thread that fans outbox events out to the matching
// webhooks (freezing each body at that moment) and sends due deliveries, signed, several at a
// time, recording every attempt and scheduling retries with backoff. All state lives in the
// database (outbox rows, deliveries with their due time), so a restart loses nothing. Claims are
// compare-and-set updates (an outbox row is marked dispatched only if it was not; a delivery's due
// time moves out by a lease only if it is still the one read), so several nodes sharing one
// database fan out and send each delivery once.
//
// A webhook whose every attempt failed for `disable_after_ms` (5 days: the run of failures starts
// with the first failed attempt after a success) is disabled in the transaction that records the
// failure that crosses the line; the node whose transaction did it tells its DisableListener once
// that is committed (the owners' mail). A disabled webhook, like a paused one, gets no new
// deliveries and its pending ones wait until it is enabled again.
//
// Sending is pipelined: up to twice `concurrency` deliveries are in flight, and each finished one
// frees a slot at once. Slots are shared fairly (webhooks/fair_share.h): each webhook and each
// account has a cap on its attempts in flight, and webhooks with due work take turns, so a slow
// or unanswering receiver holds only its own few slots, never the others' (the caps are per node).
//
// Thread-safety: start/stop from the owning thread; the worker runs on its own threads.
// run_once() is for tests and must not be called while the background loop runs.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/clock.h"
#include "core/random.h"
#include "core/thread_pool.h"
#include "store/db.h"
#include "store/webhook_repo.h"
#include "webhooks/fair_share.h"
#include "net/http_sender.h"

namespace parley {

struct DeliveryOptions {
  // Waits after a failed attempt: retry n waits retry_schedule_ms[n-1]. Eight attempts in all by
  // default (DESIGN.md section 4).
  std::vector<int64_t> retry_schedule_ms = {5'000,      300'000,    1'800'000, 7'200'000,
                                            18'000'000, 36'000'000, 36'000'000};
  int64_t poll_ms = 100;      // how often the outbox and due deliveries are looked at when idle
  int64_t lease_ms = 60'000;  // a claimed delivery is not taken again before this
  size_t concurrency = 32;    // deliveries sent at the same time
  FairShareLimits fair_share;  // attempts in flight per webhook and per account
  // Most deliveries claimed in one transaction (also bounded by the free slots). A claimed
  // delivery waits for a sender at most about twice the attempt timeout, well under the lease.
  int64_t batch = 64;
  int64_t outbox_retention_ms = 7 * 86'400'000LL;    // fanned-out outbox rows kept this long
  int64_t history_retention_ms = 30 * 86'400'000LL;  // finished deliveries and attempts kept
  int64_t disable_after_ms = 5 * 86'400'000LL;       // every attempt failing this long disables
};

// Told, on one of the worker's sender threads, that the worker disabled a webhook (once per
// disable, by the node that did it). May block for a while (it sends mail).
class DisableListener {
 public:
  virtual ~DisableListener() = default;
  virtual void webhook_disabled(const std::string& webhook_id) = 0;
};

// The reason a disabled webhook shows (`disabledReason`).
std::string disable_reason(int64_t disable_after_ms, int64_t failing_since,
                           const std::optional<std::string>& last_error,
                           std::optional<int64_t> last_status);

// Parses "5s,5m,30m,2h" (units ms, s, m, h; a bare number is milliseconds).
Result<std::vector<int64_t>> parse_retry_schedule(std::string_view text);

class DeliveryWorker {
 public:
  // `listener` (may be null) hears of the webhooks this worker disables; it must outlive the
  // worker.
  DeliveryWorker(Database& db, const Clock& clock, Random& random, HttpSender& sender,
                 DeliveryOptions options, DisableListener* listener = nullptr);
  ~DeliveryWorker();  // stops once the deliveries in flight are recorded

  void start();
  void stop();
  // One round: fan out waiting outbox events, then send what is due. Returns how much was done.
  int64_t run_once();

 private:
  struct SentDelivery {
    DueDelivery due;
    int64_t started_at = 0;
    SendOutcome outcome;
  };

  void loop();
  size_t max_in_flight() const { return options_.concurrency * 2; }
  Result<int64_t> dispatch();
  int64_t dispatch_logged();
  // One round in one write transaction: records the outcomes the senders have finished and
  // claims up to `capacity` due deliveries, picked fairly, then hands those to the senders.
  // Returns how many were recorded and claimed.
  int64_t settle_and_claim(size_t capacity);
  // Records the outcomes, moves each webhook's run of failures, and disables the webhooks that
  // failed long enough; `disabled` is set to those this transaction disabled.
  Result<void> record(Connection& c, const std::vector<SentDelivery>& done,
                      std::vector<std::string>& disabled);
  // Tells the listener (on a sender thread) and the log about webhooks just disabled.
  void announce_disabled(const std::vector<std::string>& disabled);
  // Up to `capacity` due deliveries to start, chosen fairly (webhooks/fair_share.h).
  Result<std::vector<DueDelivery>> pick(size_t capacity);
  void send(std::vector<DueDelivery> due);
  // Deletes old fanned-out outbox rows and old finished deliveries, at most once a minute.
  void prune();
  Database& db_;
  const Clock& clock_;
  Random& random_;
  HttpSender& sender_;
  DeliveryOptions options_;
  DisableListener* listener_;
  ThreadPool pool_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  size_t in_flight_ = 0;                // guarded by mu_
  InFlight in_flight_by_;               // guarded by mu_
  std::deque<SentDelivery> completed_;  // guarded by mu_
  std::thread thread_;
  int64_t last_prune_ms_ = 0;
};

}  // namespace parley
