// Webhook delivery end to end: a real HTTPS receiver in the test gets signed deliveries of every
// event kind, fails the first attempts and sees the retries; signatures verify with the secret
// here and with the Standard Webhooks reference library (Node.js); a restart between a failure
// and its retry loses nothing; a name resolving to loopback at delivery time is refused.
#include <filesystem>

#include "harness.h"
#include "https_receiver.h"
#include "tarpit_server.h"
#include "webhook_support.h"

namespace parley::e2e {
namespace {

namespace fs = std::filesystem;

struct Tls {
  std::string dir;
  std::string cert() const { return dir + "/cert.pem"; }
  std::string key() const { return dir + "/key.pem"; }
};

Env delivery_env(const Tls& tls, bool allow_private, const std::string& schedule) {
  Env env = unlimited();
  env["PARLEY_WEBHOOK_EXTRA_CA_FILE"] = tls.cert();
  env["PARLEY_WEBHOOK_RETRY_SCHEDULE"] = schedule;
  env["PARLEY_WEBHOOK_POLL_MS"] = "20";
  if (allow_private) env["PARLEY_WEBHOOK_ALLOW_PRIVATE_TARGETS"] = "1";
  return env;
}

// The webhook's delivery history once every delivery in it has left `pending` (the receiver sees
// a request a moment before the server records its outcome).
Json settled_history(const Server& server, const std::string& webhook_id, size_t expected) {
  Json history;
  for (int i = 0; i < 500; ++i) {
    history = server.admin({"webhook", "deliveries", webhook_id})["data"];
    bool settled = history.size() == expected;
    for (auto& d : history) settled = settled && d["status"] != "pending";
    if (settled) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return history;
}

class WebhookDelivery : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    char tpl[] = "/tmp/parley-tls-XXXXXX";
    tls_.dir = mkdtemp(tpl);
    make_self_signed_certificate(tls_.dir);
    receiver_ = new HttpsReceiver(tls_.cert(), tls_.key());
    server_ = new Server(delivery_env(tls_, true, "300ms,300ms,300ms"));
  }
  static void TearDownTestSuite() {
    delete server_;
    delete receiver_;
    std::error_code ec;
    fs::remove_all(tls_.dir, ec);
  }
  void SetUp() override { receiver_->fail_first_attempts(0); }

  std::string url(const std::string& path) const {
    return "https://127.0.0.1:" + std::to_string(receiver_->port()) + path;
  }

  static Tls tls_;
  static HttpsReceiver* receiver_;
  static Server* server_;
};
Tls WebhookDelivery::tls_;
HttpsReceiver* WebhookDelivery::receiver_ = nullptr;
Server* WebhookDelivery::server_ = nullptr;

TEST_F(WebhookDelivery, EveryEventKindArrivesSignedAfterFailedAttempts) {
  receiver_->fail_first_attempts(2);
  auto account = server_->create_account();
  auto agent = server_->create_agent(account);
  auto key = server_->create_key(account);
  const std::string path = "/all-kinds";
  auto sub = server_->post("/api/v1/agents/" + agent + "/webhooks", key,
                           Json{{"url", url(path)},
                                {"events",
                                 {"lead.created", "handoff.requested", "form.submitted",
                                  "booking.created", "live_chat.requested", "return.requested"}}}
                               .dump());
  ASSERT_EQ(sub.status, 201) << sub.body;
  std::string secret = sub.json()["secret"];
  std::string webhook_id = sub.json()["id"];

  auto conv = server_->admin({"record", "conversation", "--agent", agent})["id"].get<std::string>();
  std::map<std::string, std::string> expected = {
      {server_->admin({"record", "lead", "--agent", agent, "--email", "x@example.com",
                       "--conversation", conv})["id"],
       "lead.created"},
      {server_->admin({"record", "form", "--agent", agent, "--form", "contact"})["id"],
       "form.submitted"},
      {server_->admin({"record", "booking", "--agent", agent, "--status", "pending"})["id"],
       "booking.created"},
      {server_->admin({"record", "return", "--agent", agent, "--order", "9"})["id"],
       "return.requested"},
      {server_->admin({"record", "handoff", "--conversation", conv, "--ticket", "T-7"})["eventId"],
       "handoff.requested"},
      {server_->admin({"record", "live-chat-request", "--conversation", conv})["eventId"],
       "live_chat.requested"},
  };
  bool all = receiver_->wait_until([&](const std::vector<CapturedRequest>& rs) {
    for (auto& [id, event] : expected)
      if (count_id(rs, id) < 3) return false;
    return true;
  });
  ASSERT_TRUE(all) << "deliveries missing; received " << receiver_->received_on(path).size();

  auto got = receiver_->received_on(path);
  std::vector<CapturedRequest> captured;
  for (auto& [id, event] : expected) {
    std::vector<CapturedRequest> attempts;
    for (auto& r : got)
      if (r.headers["webhook-id"] == id) attempts.push_back(r);
    ASSERT_EQ(attempts.size(), 3u) << id;
    EXPECT_EQ(attempts[0].answered, 500);
    EXPECT_EQ(attempts[1].answered, 500);
    EXPECT_EQ(attempts[2].answered, 200);
    for (auto& a : attempts) {
      EXPECT_TRUE(signature_valid(secret, a)) << id;
      EXPECT_EQ(a.body, attempts[0].body) << "every retry sends the same body";
      EXPECT_EQ(a.headers["content-type"], "application/json");
      captured.push_back(a);
    }
    auto body = Json::parse(attempts[2].body);
    EXPECT_EQ(body["id"], id);
    EXPECT_EQ(body["event"], event);
    EXPECT_EQ(body.size(), 5u);
    EXPECT_EQ(body["agent"], (Json{{"id", agent}, {"name", "Test agent"}}));
    // The same builder serves the events API: the delivered body is the listed record.
    auto listed = server_->get("/api/v1/agents/" + agent + "/events/" + event, key).json()["data"];
    bool found = false;
    for (auto& e : listed)
      if (e["id"] == id) {
        found = true;
        if (event != "return.requested") EXPECT_EQ(e, body) << event;
      }
    EXPECT_TRUE(found) << event;
  }
  EXPECT_EQ(Json::parse(got[0].body)["event"].is_string(), true);

  // The delivery history records every attempt.
  auto history = settled_history(*server_, webhook_id, 6);
  ASSERT_EQ(history.size(), 6u);
  for (auto& d : history) {
    EXPECT_EQ(d["status"], "succeeded") << d.dump();
    EXPECT_EQ(d["attempts"], 3);
    ASSERT_EQ(d["history"].size(), 3u);
    EXPECT_EQ(d["history"][0]["responseCode"], 500);
    EXPECT_EQ(d["history"][0]["succeeded"], false);
    EXPECT_EQ(d["history"][0]["error"], "HTTP 500");
    EXPECT_EQ(d["history"][2]["responseCode"], 200);
    EXPECT_EQ(d["history"][2]["succeeded"], true);
  }

  // The Standard Webhooks reference library verifies every captured delivery.
  auto reference = verify_with_reference_library(secret, captured, tls_.dir);
  if (!reference.ran) GTEST_SKIP() << "npm install failed (offline?)";
  EXPECT_EQ(reference.exit_code, 0) << reference.output;
  EXPECT_NE(reference.output.find("\"verified\":18"), std::string::npos) << reference.output;
}

TEST_F(WebhookDelivery, OnlySubscribedEventsOfUnpausedWebhooksAreSent) {
  auto account = server_->create_account();
  auto agent = server_->create_agent(account);
  auto leads_only = server_
                        ->admin({"webhook", "add", "--agent", agent, "--url", url("/leads-only"),
                                 "--events", "lead.created"})["id"]
                        .get<std::string>();
  auto paused = server_
                    ->admin({"webhook", "add", "--agent", agent, "--url", url("/paused"),
                             "--events", "form.submitted"})["id"]
                    .get<std::string>();
  server_->admin({"webhook", "pause", paused});
  server_->admin({"record", "form", "--agent", agent, "--form", "f"});
  auto lead =
      server_->admin({"record", "lead", "--agent", agent, "--email", "y@example.com"})["id"];
  ASSERT_TRUE(receiver_->wait_until([&](auto& rs) { return count_id(rs, lead) == 1; }));
  // The lead was recorded after the form, so the form's event has been fanned out by now.
  EXPECT_EQ(receiver_->received_on("/leads-only").size(), 1u);
  EXPECT_EQ(receiver_->received_on("/paused").size(), 0u);
  // Events while paused are not kept for it; events after resuming are sent.
  server_->admin({"webhook", "resume", paused});
  auto after = server_->admin({"record", "form", "--agent", agent, "--form", "f"})["id"];
  ASSERT_TRUE(receiver_->wait_until([&](auto& rs) { return count_id(rs, after) == 1; }));
  EXPECT_EQ(receiver_->received_on("/paused").size(), 1u);
  (void)leads_only;
}

TEST(WebhookDeliveryRestart, RestartBetweenFailureAndRetryLosesNothing) {
  char tpl[] = "/tmp/parley-tls-XXXXXX";
  Tls tls{mkdtemp(tpl)};
  make_self_signed_certificate(tls.dir);
  HttpsReceiver receiver(tls.cert(), tls.key());
  receiver.fail_first_attempts(1);
  Server server(delivery_env(tls, true, "1500ms"));
  auto account = server.create_account();
  auto agent = server.create_agent(account);
  auto hook = server.admin({"webhook", "add", "--agent", agent, "--url",
                            "https://127.0.0.1:" + std::to_string(receiver.port()) + "/restart",
                            "--events", "form.submitted,booking.created"});
  auto form =
      server.admin({"record", "form", "--agent", agent, "--form", "f"})["id"].get<std::string>();
  ASSERT_TRUE(receiver.wait_until([&](auto& rs) { return count_id(rs, form) == 1; }));
  server.stop();
  auto before = server.admin({"webhook", "deliveries", hook["id"].get<std::string>()})["data"];
  ASSERT_EQ(before.size(), 1u);
  EXPECT_EQ(before[0]["status"], "pending");
  EXPECT_EQ(before[0]["attempts"], 1);
  server.restart();
  ASSERT_TRUE(receiver.wait_until([&](auto& rs) { return count_id(rs, form) == 2; }));
  // A later event arriving shows the worker has moved on; the succeeded one is not sent again.
  auto booking = server.admin({"record", "booking", "--agent", agent})["id"].get<std::string>();
  ASSERT_TRUE(receiver.wait_until([&](auto& rs) { return count_id(rs, booking) == 2; }));
  EXPECT_EQ(count_id(receiver.received(), form), 2);
  auto after = settled_history(server, hook["id"].get<std::string>(), 2);
  ASSERT_EQ(after.size(), 2u);
  for (auto& d : after) EXPECT_EQ(d["status"], "succeeded");
  std::error_code ec;
  fs::remove_all(tls.dir, ec);
}

TEST(WebhookDeliveryTimeout, AnAttemptThatTimesOutIsRetried) {
  char tpl[] = "/tmp/parley-tls-XXXXXX";
  Tls tls{mkdtemp(tpl)};
  make_self_signed_certificate(tls.dir);
  HttpsReceiver receiver(tls.cert(), tls.key());
  // The timeout leaves a loaded machine time to connect and send before it ends the attempt.
  receiver.stall_first_attempts(1, 2000);
  Env env = delivery_env(tls, true, "100ms");
  env["PARLEY_WEBHOOK_TIMEOUT_MS"] = "1000";
  Server server(env);
  auto account = server.create_account();
  auto agent = server.create_agent(account);
  auto hook = server
                  .admin({"webhook", "add", "--agent", agent, "--url",
                          "https://127.0.0.1:" + std::to_string(receiver.port()) + "/slow",
                          "--events", "return.requested"})["id"]
                  .get<std::string>();
  auto ret = server.admin({"record", "return", "--agent", agent})["id"].get<std::string>();
  ASSERT_TRUE(receiver.wait_until([&](auto& rs) { return count_id(rs, ret) == 2; }));
  auto history = settled_history(server, hook, 1);
  ASSERT_EQ(history.size(), 1u);
  EXPECT_EQ(history[0]["status"], "succeeded");
  ASSERT_EQ(history[0]["history"].size(), 2u);
  auto first = history[0]["history"][0];
  EXPECT_EQ(first["succeeded"], false);
  EXPECT_TRUE(first["responseCode"].is_null());
  EXPECT_NE(first["error"].get<std::string>().find("imeout"), std::string::npos) << first.dump();
  EXPECT_EQ(history[0]["history"][1]["responseCode"], 200);
  std::error_code ec;
  fs::remove_all(tls.dir, ec);
}

TEST(WebhookDeliveryGuard, NameResolvingToLoopbackAtDeliveryTimeIsRefused) {
  char tpl[] = "/tmp/parley-tls-XXXXXX";
  Tls tls{mkdtemp(tpl)};
  make_self_signed_certificate(tls.dir);
  HttpsReceiver receiver(tls.cert(), tls.key());
  Server server(delivery_env(tls, /*allow_private=*/false, "1h"));
  auto account = server.create_account();
  auto agent = server.create_agent(account);
  // Stored as a name that was public when it was checked (DNS rebinding): here `localhost`, added
  // by an operator process allowed to skip the check, while the server itself is not allowed.
  auto add = run_process(
      {PARLEY_BINARY, "admin", "webhook", "add", "--agent", agent, "--url",
       "https://localhost:" + std::to_string(receiver.port()) + "/rebound", "--events",
       "form.submitted"},
      [&] {
        Env env = server.database_env();
        env["PARLEY_WEBHOOK_ALLOW_PRIVATE_TARGETS"] = "1";
        return env;
      }());
  ASSERT_EQ(add.exit_code, 0) << add.err;
  std::string hook = Json::parse(add.out)["id"];
  server.admin({"record", "form", "--agent", agent, "--form", "f"});
  Json history;
  for (int i = 0; i < 500; ++i) {
    history = server.admin({"webhook", "deliveries", hook})["data"];
    if (!history.empty() && history[0]["attempts"] == 1) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(history.size(), 1u);
  ASSERT_EQ(history[0]["history"].size(), 1u);
  auto attempt = history[0]["history"][0];
  EXPECT_EQ(attempt["succeeded"], false);
  EXPECT_TRUE(attempt["responseCode"].is_null());
  EXPECT_NE(attempt["error"].get<std::string>().find("non-public"), std::string::npos)
      << attempt.dump();
  EXPECT_EQ(history[0]["status"],
            "pending");  // retried later: the name may point elsewhere by then
  EXPECT_TRUE(receiver.received().empty());
  // The API refuses the same URL outright.
  auto key = server.create_key(account);
  auto r = server.post("/api/v1/agents/" + agent + "/webhooks", key,
                       Json{{"url", "https://localhost:" + std::to_string(receiver.port()) + "/x"},
                            {"events", {"form.submitted"}}}
                           .dump());
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.error_code(), "invalid_request");
  std::error_code ec;
  fs::remove_all(tls.dir, ec);
}

TEST(WebhookDeliveryFairness, ATarpitEndpointOfOneAccountDoesNotDelayAnother) {
  char tpl[] = "/tmp/parley-tls-XXXXXX";
  Tls tls{mkdtemp(tpl)};
  make_self_signed_certificate(tls.dir);
  HttpsReceiver receiver(tls.cert(), tls.key());
  Env env = delivery_env(tls, true, "1h");
  env["PARLEY_WEBHOOK_TIMEOUT_MS"] = "30000";  // the tarpit holds each attempt this long
  Server server(env);
  // Declared after the server so that it closes its connections first and the server then stops
  // without waiting out the attempts in flight.
  TarpitServer tarpit;

  // Account A: five webhooks at the tarpit and a backlog of 40 deliveries due before B's.
  auto a = server.create_account();
  auto a_agent = server.create_agent(a);
  for (int i = 0; i < 5; ++i) {
    server.admin({"webhook", "add", "--agent", a_agent, "--url",
                  "https://127.0.0.1:" + std::to_string(tarpit.port()) + "/h" + std::to_string(i),
                  "--events", "form.submitted"});
  }
  server.admin({"record", "form", "--agent", a_agent, "--form", "f", "--repeat", "8"});
  // A's attempts reach the tarpit, at most the per-account share of them (default 8) at once.
  ASSERT_TRUE(tarpit.wait_accepted(8, 10000)) << tarpit.accepted();

  // Account B: one webhook at a receiver that answers at once.
  auto b = server.create_account();
  auto b_agent = server.create_agent(b);
  server.admin({"webhook", "add", "--agent", b_agent, "--url",
                "https://127.0.0.1:" + std::to_string(receiver.port()) + "/fast", "--events",
                "form.submitted"});
  auto started = std::chrono::steady_clock::now();
  auto form =
      server.admin({"record", "form", "--agent", b_agent, "--form", "f"})["id"].get<std::string>();
  bool arrived =
      receiver.wait_until([&](auto& rs) { return count_id(rs, form) == 1; }, /*timeout_ms=*/2000);
  auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::steady_clock::now() - started)
                    .count();
  EXPECT_TRUE(arrived) << "B's delivery waited behind A's tarpit for " << waited << " ms";
  EXPECT_EQ(tarpit.accepted(), 8u) << "A's attempts in flight exceed its share";
  std::error_code ec;
  fs::remove_all(tls.dir, ec);
}

}  // namespace
}  // namespace parley::e2e
