#include "events/outbox.h"

namespace parley {

Result<void> add_to_outbox(Connection& c, Random& random, const OutboxEvent& e) {
  PARLEY_TRY(c.execute(
      "INSERT INTO event_outbox (id, account_id, agent_id, event, event_id, created_at) "
      "VALUES ($1, $2, $3, $4, $5, $6)",
      {new_id(random, "obx_"), e.account_id, e.agent_id, e.event, e.event_id, e.created_at}));
  return {};
}

}  // namespace parley
