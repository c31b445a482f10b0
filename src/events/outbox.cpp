#include "events/outbox.h"

#include "store/webhook_repo.h"

namespace parley {

Result<void> add_to_outbox(Connection& c, Random& random, const OutboxEvent& e) {
  return WebhookRepo::add_to_outbox(
      c, {new_ordered_id(random, "obx_"), e.account_id, e.agent_id, e.event, e.event_id, e.created_at});
}

}  // namespace parley
