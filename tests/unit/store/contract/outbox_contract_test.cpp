// The event outbox: events wait in order until fanned out, and each is fanned out by exactly one
// worker even when several race for it.
#include "store/webhook_repo.h"
#include "store_contract.h"

namespace parley {
namespace {

TEST_P(StoreContract, OutboxEventsWaitOldestFirstUntilDispatched) {
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(WebhookRepo::add_to_outbox(
        c, {"obx_b", account_, agent_, "lead.created", "lead_1", now_ + 1}));
    return WebhookRepo::add_to_outbox(c,
                                      {"obx_a", account_, agent_, "form.submitted", "frm_1", now_});
  });
  auto waiting = *WebhookRepo::waiting_outbox(reader(), 10);
  ASSERT_EQ(waiting.size(), 2u);
  EXPECT_EQ(waiting[0].id, "obx_a");
  EXPECT_EQ(waiting[0].event, "form.submitted");
  EXPECT_EQ(waiting[1].event_id, "lead_1");
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(WebhookRepo::mark_dispatched(c, "obx_a", now_ + 2));
    return {};
  });
  waiting = *WebhookRepo::waiting_outbox(reader(), 10);
  ASSERT_EQ(waiting.size(), 1u);
  EXPECT_EQ(waiting[0].id, "obx_b");
}

TEST_P(StoreContract, ConcurrentWorkersDispatchEachOutboxEventOnce) {
  constexpr int kEvents = 40;
  write([&](Connection& c) -> Result<void> {
    for (int i = 0; i < kEvents; ++i) {
      PARLEY_TRY(WebhookRepo::add_to_outbox(
          c, {"obx_" + std::to_string(i), account_, agent_, "lead.created", "lead_x", now_ + i}));
    }
    return {};
  });
  std::atomic<int> dispatched{0};
  concurrently([&](int, Database& db) {
    for (int i = 0; i < kEvents; ++i) {
      bool mine = false;
      auto r = db.write([&](Connection& c) -> Result<void> {
        PARLEY_ASSIGN_OR_RETURN(mine,
                                WebhookRepo::mark_dispatched(c, "obx_" + std::to_string(i), now_));
        return {};
      });
      EXPECT_TRUE(r.ok());
      if (mine) ++dispatched;
    }
  });
  EXPECT_EQ(dispatched.load(), kEvents);
  EXPECT_TRUE(WebhookRepo::waiting_outbox(reader(), 100)->empty());
}

}  // namespace
}  // namespace parley
