// What /metrics says of the work queued in the database, read by workers/queue_gauges: the
// training queue (sources pending or in training) and webhook deliveries due or failed. Each is
// one indexed aggregate. Stateless.
#pragma once

#include <optional>

#include "store/db.h"

namespace parley {

struct QueueFigures {
  int64_t training_queued = 0;
  std::optional<int64_t> training_oldest_at;  // when the longest-waiting source was queued
  int64_t deliveries_due = 0;                 // pending deliveries whose attempt time has come
  std::optional<int64_t> deliveries_oldest_due_at;
  int64_t deliveries_failed = 0;  // deliveries that failed for good, still kept
};

Result<QueueFigures> read_queue_figures(Connection& c, int64_t now);

}  // namespace parley
