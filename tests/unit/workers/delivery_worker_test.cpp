// The delivery worker against a real SQLite database, a fake sender and a manual clock: fan-out to
// matching webhooks only, signed headers, the retry schedule to the final failure, frozen bodies,
// a webhook deleted while its delivery is due, and fair shares of the senders between accounts.
#include "workers/delivery_worker.h"

#include "delivery_worker_fixture.h"
#include "webhooks/signer.h"

namespace parley {
namespace {

class DeliveryWorkerTest : public DeliveryWorkerFixture {};

TEST_F(DeliveryWorkerTest, SendsSignedBodiesOnlyToMatchingWebhooks) {
  auto forms = add_webhook({"form.submitted"});
  auto leads = add_webhook({"lead.created"});
  Services s = services();
  FormSubmissionRecord f;
  f.agent_id = agent_;
  f.form_id = "contact";
  auto stored = record_form_submission(s, f);
  ASSERT_TRUE(stored.ok());
  worker_->run_once();
  ASSERT_EQ(sender_.requests.size(), 1u);
  const auto& r = sender_.requests[0];
  EXPECT_EQ(r.url, forms.url);
  std::map<std::string, std::string> h(r.headers.begin(), r.headers.end());
  EXPECT_EQ(h["webhook-id"], stored->id);
  EXPECT_EQ(h["webhook-timestamp"], std::to_string(clock_.now_ms() / 1000));
  EXPECT_EQ(h["webhook-signature"],
            *sign_webhook(forms.secret, stored->id, clock_.now_ms() / 1000, r.body));
  EXPECT_NE(r.body.find("\"event\":\"form.submitted\""), std::string::npos);
  EXPECT_EQ(deliveries(forms.id)[0].status, "succeeded");
  EXPECT_TRUE(deliveries(leads.id).empty());
  worker_->run_once();
  EXPECT_EQ(sender_.requests.size(), 1u) << "a succeeded delivery is not sent again";
}

TEST_F(DeliveryWorkerTest, RetriesOnTheScheduleThenFails) {
  auto hook = add_webhook({"booking.created"});
  sender_.fail = true;
  Services s = services();
  BookingRecord b;
  b.agent_id = agent_;
  b.provider = "calendar";
  ASSERT_TRUE(record_booking(s, b).ok());
  worker_->run_once();
  ASSERT_EQ(sender_.requests.size(), 1u);
  auto d = deliveries(hook.id)[0];
  EXPECT_EQ(d.status, "pending");
  EXPECT_EQ(d.attempts, 1);
  EXPECT_EQ(*d.next_attempt_at, clock_.now_ms() + 1000);
  clock_.advance_ms(999);
  worker_->run_once();
  EXPECT_EQ(sender_.requests.size(), 1u) << "not due yet";
  clock_.advance_ms(1);
  worker_->run_once();
  EXPECT_EQ(sender_.requests.size(), 2u);
  EXPECT_EQ(*deliveries(hook.id)[0].next_attempt_at, clock_.now_ms() + 2000);
  clock_.advance_ms(2000);
  worker_->run_once();
  ASSERT_EQ(sender_.requests.size(), 3u);
  d = deliveries(hook.id)[0];
  EXPECT_EQ(d.status, "failed");
  EXPECT_EQ(d.attempts, 3);
  auto attempts = *WebhookRepo::attempts_of(db_->read()->get(), d.id);
  ASSERT_EQ(attempts.size(), 3u);
  EXPECT_EQ(*attempts[2].error, "connection refused");
  EXPECT_EQ(sender_.requests[0].body, sender_.requests[2].body);
  clock_.advance_ms(100'000);
  worker_->run_once();
  EXPECT_EQ(sender_.requests.size(), 3u);
}

TEST_F(DeliveryWorkerTest, DeletedWebhookTakesItsPendingDeliveriesAlong) {
  auto hook = add_webhook({"return.requested"});
  sender_.fail = true;
  Services s = services();
  ReturnRequestRecord r;
  r.agent_id = agent_;
  ASSERT_TRUE(record_return_request(s, r).ok());
  worker_->run_once();
  ASSERT_EQ(sender_.requests.size(), 1u);
  ASSERT_TRUE(unsubscribe_webhook(s, account_, hook.id).ok());
  EXPECT_TRUE(deliveries(hook.id).empty());
  clock_.advance_ms(10'000);
  worker_->run_once();
  EXPECT_EQ(sender_.requests.size(), 1u);
}

TEST_F(DeliveryWorkerTest, OldHistoryAndOutboxRowsArePruned) {
  auto hook = add_webhook({"form.submitted"});
  Services s = services();
  FormSubmissionRecord f;
  f.agent_id = agent_;
  f.form_id = "contact";
  ASSERT_TRUE(record_form_submission(s, f).ok());
  worker_->run_once();
  ASSERT_EQ(deliveries(hook.id).size(), 1u);
  clock_.advance_ms(29LL * 86'400'000);
  worker_->run_once();
  EXPECT_EQ(deliveries(hook.id).size(), 1u);
  EXPECT_EQ(*db_->read()->get().query_int("SELECT COUNT(*) FROM event_outbox", {}), 0) << "kept 7 days";
  clock_.advance_ms(2LL * 86'400'000);
  worker_->run_once();
  EXPECT_TRUE(deliveries(hook.id).empty());
  EXPECT_EQ(*db_->read()->get().query_int("SELECT COUNT(*) FROM webhook_attempts", {}), 0);
}

TEST_F(DeliveryWorkerTest, ASlowReceiverDoesNotHoldOthersBack) {
  auto slow = add_webhook({"form.submitted"}, "https://slow.example.com/x");
  auto fast = add_webhook({"form.submitted"}, "https://fast.example.com/x");
  Services s = services();
  FormSubmissionRecord f;
  f.agent_id = agent_;
  f.form_id = "contact";
  ASSERT_TRUE(record_form_submission(s, f).ok());
  worker_->start();
  bool fast_done = first_delivery_succeeds(fast.id);
  EXPECT_TRUE(fast_done) << "the fast receiver waited for the slow one";
  EXPECT_EQ(deliveries(slow.id)[0].attempts, 0);
  release_slow();
  worker_->stop();  // records the slow one before returning
  EXPECT_EQ(deliveries(slow.id)[0].status, "succeeded");
}

TEST_F(DeliveryWorkerTest, ABacklogAtSlowWebhooksHoldsOnlyItsAccountsShareOfTheSenders) {
  DeliveryOptions options;
  options.concurrency = 8;
  options.fair_share = {/*per_webhook=*/2, /*per_account=*/4};
  worker_ = std::make_unique<DeliveryWorker>(*db_, clock_, random_, sender_, options);
  // This account: three slow webhooks and 15 deliveries, all due before the other account's.
  for (int i = 0; i < 3; ++i)
    add_webhook({"form.submitted"}, "https://slow.example.com/" + std::to_string(i));
  Services s = services();
  FormSubmissionRecord f;
  f.agent_id = agent_;
  f.form_id = "contact";
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(record_form_submission(s, f).ok());
  std::string other = create_account(s, "Other", "starter")->id;
  std::string other_agent = create_agent(s, other, "Other helper", false, "{}")->id;
  auto fast = add_webhook({"form.submitted"}, "https://fast.example.com/x", other, other_agent);
  worker_->start();
  for (int i = 0; i < 1000; ++i) {
    {
      std::lock_guard lock(sender_.mu);
      if (sender_.slow_now >= 4) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  // The other account's event comes later: its delivery is due after all of the slow ones.
  clock_.advance_ms(1);
  f.agent_id = other_agent;
  ASSERT_TRUE(record_form_submission(s, f).ok());
  bool fast_done = first_delivery_succeeds(fast.id);
  EXPECT_TRUE(fast_done) << "the other account waited for the slow webhooks";
  {
    std::lock_guard lock(sender_.mu);
    EXPECT_EQ(sender_.slow_most, 4) << "the slow account's attempts in flight exceed its share";
  }
  release_slow();
  worker_->stop();
}

TEST(RetrySchedule, ParsesUnits) {
  auto s = parse_retry_schedule("5s, 5m,30m,2h,250ms,40");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, (std::vector<int64_t>{5000, 300000, 1800000, 7200000, 250, 40}));
  EXPECT_FALSE(parse_retry_schedule("5x").ok());
  EXPECT_FALSE(parse_retry_schedule("5s,,1m").ok());
  EXPECT_FALSE(parse_retry_schedule("s").ok());
}

}  // namespace
}  // namespace parley
