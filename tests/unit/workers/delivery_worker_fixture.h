// The delivery worker's test bench: a real SQLite database in a temporary folder, a fake sender
// (answers 204, or fails every request; "slow" URLs wait for a release), a manual clock, and an
// account with an agent. Shared by the worker's and the webhook operations' unit tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

#include "domain/accounts.h"
#include "domain/agents.h"
#include "domain/records.h"
#include "store/webhook_repo.h"
#include "webhooks/subscriptions.h"
#include "workers/delivery_worker.h"

namespace parley {

class FakeSender final : public HttpSender {
 public:
  SendOutcome send(const SendRequest& r) override {
    std::unique_lock lock(mu);
    if (r.url.find("slow") != std::string::npos) {
      ++slow_now;
      slow_most = std::max(slow_most, slow_now);
      released.wait(lock, [&] { return release; });
      --slow_now;
    }
    requests.push_back(r);
    SendOutcome o;
    o.duration_ms = 7;
    if (fail_status != 0) {
      o.status = fail_status;
      o.error = "HTTP " + std::to_string(fail_status);
    } else if (fail) {
      o.error = "connection refused";
    } else {
      o.status = 204;
    }
    return o;
  }
  std::mutex mu;
  std::condition_variable released;
  bool release = false;
  std::vector<SendRequest> requests;
  bool fail = false;    // no answer: "connection refused"
  int fail_status = 0;  // answer with this status instead of 204
  int slow_now = 0;     // slow sends waiting for the release
  int slow_most = 0;    // the most of them at once
};

class NoResolver final : public Resolver {
 public:
  Result<std::vector<IpAddress>> resolve(const std::string&) override {
    return ApiError::invalid("offline");
  }
};

class DeliveryWorkerFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("parley-worker-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    auto db = open_database({"sqlite:" + (dir_ / "parley.db").string(), Durability::kNormal});
    ASSERT_TRUE(db.ok()) << db.error().message;
    db_ = std::move(*db);
    Services s = services();
    account_ = create_account(s, "Acme", "starter")->id;
    agent_ = create_agent(s, account_, "Helper", false, "{}")->id;
    DeliveryOptions options;
    options.retry_schedule_ms = {1000, 2000};
    options.concurrency = 2;
    worker_ = std::make_unique<DeliveryWorker>(*db_, clock_, random_, sender_, options, listener());
  }
  // What hears of disabled webhooks: none unless a test's fixture says otherwise.
  virtual DisableListener* listener() { return nullptr; }
  void TearDown() override {
    worker_.reset();
    db_.reset();
    std::filesystem::remove_all(dir_);
  }
  Services services() { return Services{*db_, clock_, random_}; }
  WebhookRecord add_webhook(const std::vector<std::string>& events,
                            const std::string& url = "https://hooks.example.com/x",
                            std::string account = "", std::string agent = "") {
    Services s = services();
    if (account.empty()) account = account_;
    if (agent.empty()) agent = agent_;
    auto h = subscribe_webhook(s, {resolver_, false}, account, {agent, url, events});
    EXPECT_TRUE(h.ok()) << h.error().message;
    return *h;
  }
  std::vector<DeliveryRecord> deliveries(const std::string& webhook_id) {
    return *WebhookRepo::list_deliveries(db_->read()->get(), webhook_id, 100);
  }
  // Waits (5 s at most) until the webhook's first delivery succeeded.
  bool first_delivery_succeeds(const std::string& webhook_id) {
    for (int i = 0; i < 1000; ++i) {
      auto d = deliveries(webhook_id);
      if (!d.empty() && d[0].status == "succeeded") return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }
  // Lets the slow receivers answer.
  void release_slow() {
    {
      std::lock_guard lock(sender_.mu);
      sender_.release = true;
    }
    sender_.released.notify_all();
  }

  std::filesystem::path dir_;
  std::unique_ptr<Database> db_;
  ManualClock clock_{1'795'000'000'000};
  SecureRandom random_;
  FakeSender sender_;
  NoResolver resolver_;
  std::unique_ptr<DeliveryWorker> worker_;
  std::string account_, agent_;
};

}  // namespace parley
