#include "store/queue_figures.h"

namespace parley {

Result<QueueFigures> read_queue_figures(Connection& c, int64_t now) {
  QueueFigures q;
  PARLEY_TRY(c.query(
      "SELECT COUNT(*), MIN(updated_at) FROM sources WHERE status IN ('pending', 'processing')", {},
      [&](const Row& r) {
        q.training_queued = r.int64(0);
        q.training_oldest_at = r.opt_int64(1);
      }));
  PARLEY_TRY(
      c.query("SELECT COUNT(*), MIN(next_attempt_at) FROM webhook_deliveries"
              " WHERE status = 'pending' AND next_attempt_at <= $1",
              {now}, [&](const Row& r) {
                q.deliveries_due = r.int64(0);
                q.deliveries_oldest_due_at = r.opt_int64(1);
              }));
  PARLEY_ASSIGN_OR_RETURN(
      auto failed,
      c.query_int("SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'failed'", {}));
  q.deliveries_failed = failed.value_or(0);
  return q;
}

}  // namespace parley
