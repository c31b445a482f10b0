#include "workers/queue_gauges.h"

#include <algorithm>
#include <cstdio>

#include "core/log.h"
#include "store/queue_figures.h"

namespace parley {

namespace {
std::string seconds(int64_t ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ms) / 1000.0);
  return buf;
}

void gauge(std::string& out, const char* name, const char* help, const std::string& value) {
  out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " gauge\n" + name + " " +
         value + "\n";
}
}  // namespace

QueueGauges::QueueGauges(Database& db, const Clock& clock)
    : db_(db), clock_(clock), every_five_seconds_(std::chrono::seconds(5), [this] { sample(); }) {
  sample();
}

void QueueGauges::sample() {
  const int64_t now = clock_.now_ms();
  auto read = [&]() -> Result<QueueFigures> {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, db_.read());
    return read_queue_figures(c, now);
  }();
  if (!read.ok()) {
    log_warn("queue figures not read", {{"error", std::string_view(read.error().message)}});
    return;
  }
  const QueueFigures& q = *read;
  training_queued_.store(q.training_queued, std::memory_order_relaxed);
  training_oldest_ms_.store(
      q.training_oldest_at ? std::max<int64_t>(0, now - *q.training_oldest_at) : 0,
      std::memory_order_relaxed);
  deliveries_due_.store(q.deliveries_due, std::memory_order_relaxed);
  delivery_lag_ms_.store(
      q.deliveries_oldest_due_at ? std::max<int64_t>(0, now - *q.deliveries_oldest_due_at) : 0,
      std::memory_order_relaxed);
  deliveries_failed_.store(q.deliveries_failed, std::memory_order_relaxed);
}

void QueueGauges::write(std::string& out) const {
  gauge(out, "parley_training_queue_depth",
        "Knowledge sources waiting for training or being trained.",
        std::to_string(training_queued_.load(std::memory_order_relaxed)));
  gauge(out, "parley_training_queue_oldest_age_seconds",
        "How long the longest-waiting source has been queued (0 when none).",
        seconds(training_oldest_ms_.load(std::memory_order_relaxed)));
  gauge(out, "parley_webhook_deliveries_due", "Webhook deliveries whose attempt time has come.",
        std::to_string(deliveries_due_.load(std::memory_order_relaxed)));
  gauge(out, "parley_webhook_delivery_lag_seconds",
        "How late the oldest due webhook delivery is (0 when none is due).",
        seconds(delivery_lag_ms_.load(std::memory_order_relaxed)));
  gauge(out, "parley_webhook_deliveries_failed",
        "Webhook deliveries that failed for good, as kept in the history.",
        std::to_string(deliveries_failed_.load(std::memory_order_relaxed)));
}

}  // namespace parley
