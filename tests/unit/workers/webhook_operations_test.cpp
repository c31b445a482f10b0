// Webhook operations against the real delivery worker, a real SQLite database, a fake sender and
// a manual clock: disabling after five days of failures (and telling once), a success ending the
// run of failures, enabling again, retries by hand (one attempt for a finished delivery, the next
// attempt now for one waiting to retry, refused while under way or not yet attempted), the
// attempts kept per delivery, the history's pages, and the delivery's JSON.
#include <nlohmann/json.hpp>

#include "core/time_format.h"
#include "delivery_worker_fixture.h"
#include "views/delivery_json.h"
#include "webhooks/delivery_operations.h"
#include "workers/webhook_disable_mail.h"

namespace parley {
namespace {

constexpr int64_t kDay = 86'400'000;

// Hears of disabled webhooks (on a sender thread).
class RecordingListener final : public DisableListener {
 public:
  void webhook_disabled(const std::string& webhook_id) override {
    std::lock_guard lock(mu_);
    ids_.push_back(webhook_id);
    cv_.notify_all();
  }
  // The ids heard so far, after waiting (`ms` at most) for at least `n`.
  std::vector<std::string> wait_for(size_t n, int ms = 2000) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, std::chrono::milliseconds(ms), [&] { return ids_.size() >= n; });
    return ids_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> ids_;
};

class WebhookOperationsTest : public DeliveryWorkerFixture {
 protected:
  DisableListener* listener() override { return &listener_; }

  std::string record_form() {
    Services s = services();
    FormSubmissionRecord f;
    f.agent_id = agent_;
    f.form_id = "contact";
    auto stored = record_form_submission(s, f);
    EXPECT_TRUE(stored.ok());
    return stored.ok() ? stored->id : "";
  }
  // Runs the worker through a failing delivery's whole schedule (the first attempt, then retries
  // after 1 s and 2 s), after which it has failed.
  void attempt_until_failed() {
    worker_->run_once();
    clock_.advance_ms(1000);
    worker_->run_once();
    clock_.advance_ms(2000);
    worker_->run_once();
  }
  WebhookRecord webhook(const std::string& id) {
    return **WebhookRepo::find_any(db_->read()->get(), id);
  }
  Result<RetriedDelivery> retry(const WebhookRecord& h, const std::string& delivery_id,
                                WebhookReach reach = WebhookReach::kSubscribedThroughApi,
                                std::string account = "") {
    Services s = services();
    return retry_webhook_delivery(s, account.empty() ? account_ : account, h.id, delivery_id,
                                  reach);
  }
  std::vector<AttemptRecord> attempts(const std::string& delivery_id) {
    return *WebhookRepo::attempts_of(db_->read()->get(), delivery_id);
  }
  size_t sent() {
    std::lock_guard lock(sender_.mu);
    return sender_.requests.size();
  }

  RecordingListener listener_;
};

TEST_F(WebhookOperationsTest, FiveDaysOfFailuresDisableTheWebhookAndEnablingResumesIt) {
  auto hook = add_webhook({"form.submitted"});
  sender_.fail_status = 500;
  const int64_t t0 = clock_.now_ms();
  record_form();
  worker_->run_once();
  EXPECT_EQ(webhook(hook.id).failing_since, t0);
  // The schedule of the first event runs out ({1 s, 2 s}): failed, the webhook still on.
  clock_.advance_ms(1000);
  worker_->run_once();
  clock_.advance_ms(2000);
  worker_->run_once();
  ASSERT_EQ(deliveries(hook.id)[0].status, "failed");
  EXPECT_EQ(webhook(hook.id).status(), "active");

  // A failure one millisecond short of five days after the first does not disable it.
  clock_.set_ms(t0 + 5 * kDay - 1);
  auto second = record_form();
  worker_->run_once();
  EXPECT_EQ(webhook(hook.id).status(), "active");
  EXPECT_EQ(webhook(hook.id).failing_since, t0);
  // The next one, past five days, does.
  clock_.advance_ms(1000);
  worker_->run_once();
  auto h = webhook(hook.id);
  EXPECT_EQ(h.status(), "disabled");
  EXPECT_EQ(h.disabled_at, clock_.now_ms());
  EXPECT_EQ(h.disabled_reason, "Every delivery attempt failed for 5 days, since " +
                                   format_timestamp(t0) + "; the last one: HTTP 500.");
  EXPECT_EQ(listener_.wait_for(1), std::vector<std::string>{hook.id});

  // Disabled: the waiting delivery is not sent, new events get no delivery, a retry is refused.
  size_t before = sent();
  auto waiting = deliveries(hook.id)[0];
  ASSERT_EQ(waiting.event_id, second);
  EXPECT_EQ(waiting.status, "pending");
  EXPECT_EQ(waiting.attempts, 2);
  record_form();
  clock_.advance_ms(10'000);
  worker_->run_once();
  EXPECT_EQ(sent(), before);
  EXPECT_EQ(deliveries(hook.id).size(), 2u);
  auto refused = retry(h, waiting.id);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kWebhookDisabled);

  // Enabled: the waiting delivery goes out, the run of failures starts afresh.
  Services s = services();
  auto enabled = enable_webhook(s, account_, hook.id, WebhookReach::kSubscribedThroughApi);
  ASSERT_TRUE(enabled.ok()) << enabled.error().message;
  EXPECT_EQ(enabled->status(), "active");
  EXPECT_FALSE(enabled->disabled_reason);
  sender_.fail_status = 0;
  worker_->run_once();
  EXPECT_EQ(sent(), before + 1);
  EXPECT_EQ(deliveries(hook.id)[0].status, "succeeded");
  EXPECT_FALSE(webhook(hook.id).failing_since);
  EXPECT_EQ(listener_.wait_for(2, 100).size(), 1u) << "told once";
  // Enabling a webhook that is not disabled changes nothing.
  EXPECT_EQ(enable_webhook(s, account_, hook.id, WebhookReach::kAnyOfAccount)->status(), "active");
}

TEST_F(WebhookOperationsTest, ASuccessEndsTheRunOfFailures) {
  auto hook = add_webhook({"form.submitted"});
  const int64_t t0 = clock_.now_ms();
  sender_.fail_status = 503;
  record_form();
  worker_->run_once();
  EXPECT_EQ(webhook(hook.id).failing_since, t0);
  clock_.set_ms(t0 + kDay);
  sender_.fail_status = 0;
  record_form();
  worker_->run_once();
  EXPECT_FALSE(webhook(hook.id).failing_since);
  clock_.set_ms(t0 + 2 * kDay);
  sender_.fail_status = 503;
  record_form();
  worker_->run_once();
  EXPECT_EQ(webhook(hook.id).failing_since, t0 + 2 * kDay);
  clock_.set_ms(t0 + 6 * kDay);  // six days after the first failure, four after the run began
  record_form();
  worker_->run_once();
  EXPECT_EQ(webhook(hook.id).status(), "active");
  clock_.set_ms(t0 + 7 * kDay);
  record_form();
  worker_->run_once();
  EXPECT_EQ(webhook(hook.id).status(), "disabled");
}

TEST_F(WebhookOperationsTest, ARetryOfAFinishedDeliveryIsOneAttemptWithTheSameIdAndBody) {
  auto hook = add_webhook({"form.submitted"});
  sender_.fail = true;
  auto event = record_form();
  attempt_until_failed();
  auto d = deliveries(hook.id)[0];
  ASSERT_EQ(d.status, "failed");
  ASSERT_EQ(sent(), 3u);

  // Failed again: one attempt, no schedule after it.
  auto r = retry(hook, d.id);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(delivery_status(r->delivery.delivery), "retrying");
  EXPECT_EQ(r->delivery.delivery.next_attempt_at, clock_.now_ms());
  EXPECT_EQ(r->delivery.attempts.size(), 3u);
  worker_->run_once();
  EXPECT_EQ(sent(), 4u);
  d = deliveries(hook.id)[0];
  EXPECT_EQ(d.status, "failed");
  EXPECT_EQ(d.attempts, 4);
  clock_.advance_ms(100'000);
  worker_->run_once();
  EXPECT_EQ(sent(), 4u);

  // The receiver is back: the retry succeeds; a retry of a succeeded delivery is sent once more.
  sender_.fail = false;
  ASSERT_TRUE(retry(hook, d.id).ok());
  worker_->run_once();
  EXPECT_EQ(deliveries(hook.id)[0].status, "succeeded");
  ASSERT_TRUE(retry(hook, d.id).ok());
  worker_->run_once();
  d = deliveries(hook.id)[0];
  EXPECT_EQ(d.status, "succeeded");
  EXPECT_EQ(d.attempts, 6);
  ASSERT_EQ(sent(), 6u);
  for (const auto& req : sender_.requests) {
    std::map<std::string, std::string> h(req.headers.begin(), req.headers.end());
    EXPECT_EQ(h["webhook-id"], event);
    EXPECT_EQ(req.body, sender_.requests[0].body);
  }
  auto all = attempts(d.id);
  ASSERT_EQ(all.size(), 6u);
  EXPECT_EQ(all[3].error, "connection refused");
  EXPECT_EQ(all[5].response_code, 204);
  EXPECT_FALSE(all[5].error);
}

TEST_F(WebhookOperationsTest, ARetryOfADeliveryWaitingToRetryIsItsNextAttemptNow) {
  auto hook = add_webhook({"form.submitted"});
  sender_.fail = true;
  record_form();
  worker_->run_once();
  auto d = deliveries(hook.id)[0];
  ASSERT_EQ(d.next_attempt_at, clock_.now_ms() + 1000);
  ASSERT_TRUE(retry(hook, d.id).ok());
  worker_->run_once();  // no time has passed
  EXPECT_EQ(sent(), 2u);
  d = deliveries(hook.id)[0];
  EXPECT_EQ(d.status, "pending");
  EXPECT_EQ(d.attempts, 2);
  EXPECT_EQ(d.next_attempt_at, clock_.now_ms() + 2000) << "the schedule goes on";
}

TEST_F(WebhookOperationsTest,
       RetriesAreRefusedWhileUnderWayNotYetAttemptedOrPausedAndElsewhere404) {
  auto slow = add_webhook({"form.submitted"}, "https://slow.example.com/x");
  record_form();
  worker_->start();
  for (int i = 0; i < 1000; ++i) {
    {
      std::lock_guard lock(sender_.mu);
      if (sender_.slow_now == 1) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  auto d = deliveries(slow.id)[0];
  auto busy = retry(slow, d.id);
  ASSERT_FALSE(busy.ok());
  EXPECT_EQ(busy.error().code, ErrorCode::kDeliveryInProgress);
  EXPECT_EQ(http_status(busy.error().code), 409);
  EXPECT_EQ(error_code_name(busy.error().code), "delivery_in_progress");
  release_slow();
  worker_->stop();

  // Not attempted yet (written here, so that no worker sends it).
  auto other = add_webhook({"lead.created"});
  DeliveryRecord waiting;
  waiting.id = "dlv_waiting";
  waiting.webhook_id = other.id;
  waiting.outbox_id = "obx_x";
  waiting.event = "lead.created";
  waiting.event_id = "lead_x";
  waiting.payload = "{}";
  waiting.next_attempt_at = clock_.now_ms();
  ASSERT_TRUE(
      db_->write([&](Connection& c) { return WebhookRepo::insert_delivery(c, waiting); }).ok());
  auto pending = retry(other, waiting.id);
  ASSERT_FALSE(pending.ok());
  EXPECT_EQ(pending.error().code, ErrorCode::kDeliveryPending);
  EXPECT_EQ(error_code_name(pending.error().code), "delivery_pending");

  Services s = services();
  ASSERT_TRUE(set_account_webhook_paused(s, account_, other.id, true).ok());
  auto paused = retry(other, waiting.id);
  ASSERT_FALSE(paused.ok());
  EXPECT_EQ(paused.error().code, ErrorCode::kWebhookPaused);

  // A delivery of another webhook, another account, a dashboard webhook through the API: 404.
  EXPECT_EQ(retry(other, d.id).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(retry(slow, "dlv_missing").error().code, ErrorCode::kNotFound);
  std::string stranger = create_account(s, "Other", "starter")->id;
  EXPECT_EQ(retry(slow, d.id, WebhookReach::kAnyOfAccount, stranger).error().code,
            ErrorCode::kNotFound);
  auto dashboard = subscribe_webhook(s, {resolver_, false}, account_,
                                     {agent_,
                                      "https://hooks.example.com/d",
                                      {"form.submitted"},
                                      "api",
                                      "dashboard",
                                      std::nullopt});
  ASSERT_TRUE(dashboard.ok());
  PageQuery q;
  EXPECT_EQ(
      list_webhook_deliveries(s, account_, dashboard->id, WebhookReach::kSubscribedThroughApi, q)
          .error()
          .code,
      ErrorCode::kNotFound);
  EXPECT_TRUE(
      list_webhook_deliveries(s, account_, dashboard->id, WebhookReach::kAnyOfAccount, q).ok());
  EXPECT_EQ(
      enable_webhook(s, account_, dashboard->id, WebhookReach::kSubscribedThroughApi).error().code,
      ErrorCode::kNotFound);
}

TEST_F(WebhookOperationsTest, ADeliveryKeepsItsLatestTwentyAttempts) {
  auto hook = add_webhook({"form.submitted"});
  sender_.fail = true;
  record_form();
  attempt_until_failed();
  auto d = deliveries(hook.id)[0];
  for (int i = 0; i < 22; ++i) {
    ASSERT_TRUE(retry(hook, d.id).ok()) << i;
    worker_->run_once();
  }
  d = deliveries(hook.id)[0];
  EXPECT_EQ(d.attempts, 25);
  auto kept = attempts(d.id);
  ASSERT_EQ(kept.size(), static_cast<size_t>(kAttemptsKeptPerDelivery));
  EXPECT_EQ(kept.front().attempt, 6);
  EXPECT_EQ(kept.back().attempt, 25);
}

TEST_F(WebhookOperationsTest, TheHistoryIsPagedNewestFirstWithAttempts) {
  auto hook = add_webhook({"form.submitted"});
  std::vector<std::string> events;
  for (int i = 0; i < 3; ++i) {
    events.push_back(record_form());
    worker_->run_once();
    clock_.advance_ms(10);
  }
  Services s = services();
  PageQuery q;
  q.limit = 2;
  auto first =
      list_webhook_deliveries(s, account_, hook.id, WebhookReach::kSubscribedThroughApi, q);
  ASSERT_TRUE(first.ok()) << first.error().message;
  ASSERT_EQ(first->page.items.size(), 2u);
  EXPECT_TRUE(first->page.has_more);
  EXPECT_EQ(first->page.items[0].delivery.event_id, events[2]);
  EXPECT_EQ(first->page.items[1].delivery.event_id, events[1]);
  ASSERT_EQ(first->page.items[0].attempts.size(), 1u);
  EXPECT_EQ(first->page.items[0].attempts[0].response_code, 204);
  const auto& last = first->page.items.back().delivery;
  q.after = KeysetPosition{last.created_at, last.id};
  auto second = list_webhook_deliveries(s, account_, hook.id, WebhookReach::kAnyOfAccount, q);
  ASSERT_TRUE(second.ok());
  ASSERT_EQ(second->page.items.size(), 1u);
  EXPECT_FALSE(second->page.has_more);
  EXPECT_EQ(second->page.items[0].delivery.event_id, events[0]);
}

// A history read takes the deliveries, then their attempts, in two statements; an attempt
// recorded in between is not shown with the row that does not count it yet, so a delivery never
// shows an attempt beside the status and next attempt time of before it.
TEST_F(WebhookOperationsTest, AnAttemptRecordedAfterTheRowWasReadIsNotShownWithIt) {
  auto hook = add_webhook({"form.submitted"});
  sender_.fail_status = 500;
  record_form();
  worker_->run_once();
  auto before = deliveries(hook.id);
  ASSERT_EQ(before[0].attempts, 1);
  clock_.advance_ms(1000);
  worker_->run_once();
  ASSERT_EQ(attempts(before[0].id).size(), 2u);

  auto views = with_attempts(db_->read()->get(), before);
  ASSERT_TRUE(views.ok()) << views.error().message;
  ASSERT_EQ(views->size(), 1u);
  EXPECT_EQ((*views)[0].delivery.next_attempt_at, before[0].next_attempt_at);
  ASSERT_EQ((*views)[0].attempts.size(), 1u);
  EXPECT_EQ((*views)[0].attempts[0].attempt, 1);
  auto now = with_attempts(db_->read()->get(), deliveries(hook.id));
  ASSERT_TRUE(now.ok());
  EXPECT_EQ((*now)[0].attempts.size(), 2u);
}

TEST(DeliveryJson, StatusAttemptsAndNextAttempt) {
  WebhookRecord hook;
  DeliveryView v;
  v.delivery.id = "dlv_1";
  v.delivery.event = "lead.created";
  v.delivery.event_id = "lead_1";
  v.delivery.created_at = 1'000;
  v.delivery.next_attempt_at = 9'000;
  auto json = [&](int64_t now) {
    JsonWriter w;
    write_delivery_json(w, v, hook, now);
    return nlohmann::json::parse(w.str());
  };
  auto j = json(2'000);
  EXPECT_EQ(j["status"], "pending");
  EXPECT_EQ(j["nextAttemptAt"], "1970-01-01T00:00:09.000Z");
  EXPECT_EQ(j["attempts"], nlohmann::json::array());
  EXPECT_EQ(j.size(), 7u);

  v.delivery.attempts = 1;
  v.attempts.push_back({"att_1", "dlv_1", "whk_1", 1, 1'500, 31, 500, "HTTP 500", false});
  v.delivery.claimed_at = 8'000;  // under way until the lease (9 s) runs out
  j = json(8'500);
  EXPECT_EQ(j["status"], "retrying");
  EXPECT_EQ(j["nextAttemptAt"], "1970-01-01T00:00:08.000Z");
  EXPECT_EQ(j["attempts"],
            nlohmann::json::parse(R"([{"at":"1970-01-01T00:00:01.500Z","statusCode":500,)"
                                  R"("durationMs":31,"error":"HTTP 500"}])"));
  hook.paused = true;
  EXPECT_TRUE(json(8'500)["nextAttemptAt"].is_null()) << "nothing is due while paused";
  hook.paused = false;
  hook.disabled_at = 7'000;
  EXPECT_TRUE(json(8'500)["nextAttemptAt"].is_null()) << "nothing is due while disabled";

  v.delivery.status = "succeeded";
  v.attempts.push_back({"att_2", "dlv_1", "whk_1", 2, 8'000, 12, 204, std::nullopt, true});
  j = json(8'500);
  EXPECT_EQ(j["status"], "succeeded");
  EXPECT_TRUE(j["nextAttemptAt"].is_null());
  EXPECT_TRUE(j["attempts"][1]["error"].is_null());
  v.delivery.status = "failed";
  EXPECT_EQ(json(8'500)["status"], "failed");
}

TEST(DisableReason, NamesTheSpanTheStartAndTheLastError) {
  EXPECT_EQ(disable_reason(5 * kDay, 0, std::string("HTTP 502"), 502),
            "Every delivery attempt failed for 5 days, since 1970-01-01T00:00:00.000Z; the last "
            "one: HTTP 502.");
  EXPECT_EQ(disable_reason(36 * 3'600'000, 0, std::nullopt, 500),
            "Every delivery attempt failed for 36 hours, since 1970-01-01T00:00:00.000Z; the last "
            "one: HTTP 500.");
  EXPECT_EQ(disable_reason(kDay, 0, std::nullopt, std::nullopt),
            "Every delivery attempt failed for 1 day, since 1970-01-01T00:00:00.000Z; the last "
            "one: no answer.");
}

TEST(DisabledWebhookMail, TellsWhatWhyAndHowToEnableWithoutTheSecret) {
  WebhookRecord h;
  h.id = "whk_1";
  h.url = "https://hooks.example.com/in";
  h.origin = "api";
  h.secret = "whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0";
  h.failing_since = 0;
  h.disabled_at = 5 * kDay;
  h.disabled_reason = "Every delivery attempt failed for 5 days.";
  auto m = compose_webhook_disabled_mail({"owner@example.com", "Help desk", h});
  EXPECT_EQ(m.to, "owner@example.com");
  EXPECT_EQ(m.subject, "Webhook disabled: Help desk");
  EXPECT_EQ(m.date_ms, 5 * kDay);
  for (std::string part :
       {"Webhook: whk_1\n", "URL: https://hooks.example.com/in\n",
        "Failing since: 1970-01-01T00:00:00.000Z\n", "Disabled at: 1970-01-06T00:00:00.000Z\n",
        "Reason: Every delivery attempt failed for 5 days.\n",
        "POST /api/v1/webhooks/whk_1/enable"}) {
    EXPECT_NE(m.body.find(part), std::string::npos) << part << "\n" << m.body;
  }
  EXPECT_EQ(m.body.find("whsec_"), std::string::npos);
  h.origin = "dashboard";
  EXPECT_EQ(compose_webhook_disabled_mail({"o@example.com", "Help desk", h}).body.find("/enable"),
            std::string::npos);
}

}  // namespace
}  // namespace parley
