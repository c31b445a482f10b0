// Webhook operations end to end, against a real HTTPS receiver that fails and then recovers:
// GET /api/v1/webhooks/{id}/deliveries (every attempt with its status code, duration and error,
// kept across a restart, paged like the other lists), POST .../deliveries/{id}/retry (sent again
// with the same webhook-id and a signature the Standard Webhooks reference library verifies;
// 409 while an attempt is under way, before the first one, or while the webhook is paused or
// disabled), disabling after five days of failures on the test clock with mail to the account's
// owners (or a log line without mail), POST .../enable resuming deliveries, the console's same
// operations by role, and 404 for other accounts' and unknown ids, 403 without the scope.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <set>

#include "fake_smtp_server.h"
#include "harness.h"
#include "https_receiver.h"
#include "webhook_support.h"

namespace parley::e2e {
namespace {

constexpr int64_t kHour = 3'600'000;
constexpr int64_t kDay = 24 * kHour;

// Milliseconds since the epoch of "2026-01-31T12:00:00.123Z".
int64_t ms_of(const std::string& ts) {
  std::tm tm{};
  int ms = 0;
  if (sscanf(ts.c_str(), "%d-%d-%dT%d:%d:%d.%dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
             &tm.tm_min, &tm.tm_sec, &ms) != 7) {
    ADD_FAILURE() << "not a timestamp: " << ts;
    return 0;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<int64_t>(timegm(&tm)) * 1000 + ms;
}

// A server delivering to `local` on the test clock; with `smtp`, mail goes there.
Env operations_env(const LocalWebhookReceiver& local, const std::string& schedule,
                   const FakeSmtpServer* smtp = nullptr) {
  Env env = unlimited();
  for (const auto& [k, v] : local.server_env()) env[k] = v;
  env["PARLEY_WEBHOOK_RETRY_SCHEDULE"] = schedule;
  if (smtp != nullptr) {
    env["PARLEY_SMTP_URL"] = smtp->url();
    env["PARLEY_SMTP_FROM"] = "parley@example.com";
  }
  return env;
}

struct Subscribed {
  std::string account, agent, key, webhook, secret;
};

Subscribed subscribe(const Server& s, const std::string& url) {
  Subscribed out;
  out.account = s.create_account();
  out.agent = s.create_agent(out.account);
  out.key = s.create_key(out.account);
  auto r = s.post("/api/v1/agents/" + out.agent + "/webhooks", out.key,
                  Json{{"url", url}, {"events", {"form.submitted"}}}.dump());
  EXPECT_EQ(r.status, 201) << r.body;
  out.webhook = r.json().value("id", "");
  out.secret = r.json().value("secret", "");
  return out;
}

std::string record_form(const Server& s, const std::string& agent) {
  return s.admin({"record", "form", "--agent", agent, "--form", "contact"})["id"];
}

std::string deliveries_path(const std::string& webhook) {
  return "/api/v1/webhooks/" + webhook + "/deliveries";
}

std::string retry_path(const std::string& webhook, const std::string& delivery) {
  return "/api/v1/webhooks/" + webhook + "/deliveries/" + delivery + "/retry";
}

// The first page of the webhook's deliveries once `done` holds for it (10 s at most).
Json history_when(const Server& s, const std::string& key, const std::string& webhook,
                  const std::function<bool(const Json&)>& done,
                  const std::string& prefix = "/api/v1") {
  Json page;
  for (int i = 0; i < 500; ++i) {
    auto r = s.get(prefix + "/webhooks/" + webhook + "/deliveries", key);
    EXPECT_EQ(r.status, 200) << r.body;
    page = r.json();
    if (done(page)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return page;
}

// The delivery of the page's first item has `n` attempts recorded and `status`.
std::function<bool(const Json&)> first_has(size_t n, const std::string& status) {
  return [n, status](const Json& page) {
    return !page["data"].empty() && page["data"][0]["attempts"].size() == n &&
           page["data"][0]["status"] == status;
  };
}

void expect_error(const HttpResponse& r, long status, const std::string& code) {
  EXPECT_EQ(r.status, status) << r.body;
  EXPECT_EQ(r.error_code(), code) << r.body;
}

std::string scratch_dir() {
  char tpl[] = "/tmp/parley-ops-XXXXXX";
  return mkdtemp(tpl);
}

TEST(WebhookOperations, EveryAttemptIsListedAndARetryIsDeliveredSignedWithTheSameWebhookId) {
  LocalWebhookReceiver local;
  HttpsReceiver& receiver = local.receiver();
  Server server(operations_env(local, "200ms,1h"));
  auto sub = subscribe(server, local.url("/ops"));
  receiver.fail_all(500);
  auto form = record_form(server, sub.agent);

  // Two attempts fail at once; the third waits an hour: "retrying".
  auto page = history_when(server, sub.key, sub.webhook, first_has(2, "retrying"));
  ASSERT_EQ(page["data"].size(), 1u) << page.dump();
  EXPECT_EQ(page["hasMore"], false);
  EXPECT_TRUE(page["nextCursor"].is_null());
  auto d = page["data"][0];
  std::string delivery = d["id"];
  EXPECT_EQ(delivery.rfind("dlv_", 0), 0u);
  EXPECT_EQ(d["event"], "form.submitted");
  EXPECT_EQ(d["eventId"], form);
  EXPECT_EQ(d["status"], "retrying");
  ASSERT_EQ(d["attempts"].size(), 2u);
  for (const auto& a : d["attempts"]) {
    EXPECT_EQ(a.size(), 4u) << a.dump();
    EXPECT_EQ(a["statusCode"], 500);
    EXPECT_EQ(a["error"], "HTTP 500");
    ASSERT_TRUE(a["durationMs"].is_number_integer());
    EXPECT_GE(a["durationMs"].get<int64_t>(), 0);
    EXPECT_LT(a["durationMs"].get<int64_t>(), 10'000);
  }
  int64_t second_at = ms_of(d["attempts"][1]["at"]);
  EXPECT_GE(second_at - ms_of(d["attempts"][0]["at"]), 200);
  int64_t wait = ms_of(d["nextAttemptAt"]) - second_at;
  EXPECT_GE(wait, kHour);
  EXPECT_LT(wait, kHour + 5000);
  EXPECT_LE(ms_of(d["createdAt"]), ms_of(d["attempts"][0]["at"]));
  EXPECT_EQ(d.size(), 7u) << d.dump();

  // A retry now, instead of in an hour, is the last attempt of the schedule: it fails too, and the
  // delivery has failed, nothing due.
  auto now = server.post(retry_path(sub.webhook, delivery), sub.key, "");
  ASSERT_EQ(now.status, 202) << now.body;
  EXPECT_EQ(now.json()["data"]["status"], "retrying");
  EXPECT_LT(ms_of(now.json()["data"]["nextAttemptAt"]), ms_of(d["nextAttemptAt"]) - kHour + 60'000);
  page = history_when(server, sub.key, sub.webhook, first_has(3, "failed"));
  d = page["data"][0];
  ASSERT_EQ(d["status"], "failed") << d.dump();
  EXPECT_EQ(d["attempts"][2]["statusCode"], 500);
  EXPECT_TRUE(d["nextAttemptAt"].is_null());

  // The receiver recovers; a retry sends the failed delivery again now.
  receiver.fail_all(0);
  auto retried = server.post(retry_path(sub.webhook, delivery), sub.key, "");
  ASSERT_EQ(retried.status, 202) << retried.body;
  auto data = retried.json()["data"];
  EXPECT_EQ(data["id"], delivery);
  EXPECT_EQ(data["eventId"], form);
  EXPECT_EQ(data["status"], "retrying");
  EXPECT_EQ(data["attempts"].size(), 3u);
  EXPECT_TRUE(data["nextAttemptAt"].is_string());
  ASSERT_TRUE(receiver.wait_until([&](auto& rs) { return count_id(rs, form) == 4; }));
  page = history_when(server, sub.key, sub.webhook, first_has(4, "succeeded"));
  d = page["data"][0];
  ASSERT_EQ(d["status"], "succeeded") << d.dump();
  EXPECT_EQ(d["attempts"][3]["statusCode"], 200);
  EXPECT_TRUE(d["attempts"][3]["error"].is_null());
  EXPECT_TRUE(d["nextAttemptAt"].is_null());

  // A succeeded delivery can be sent again too.
  auto again = server.post(retry_path(sub.webhook, delivery), sub.key, "");
  ASSERT_EQ(again.status, 202) << again.body;
  ASSERT_TRUE(receiver.wait_until([&](auto& rs) { return count_id(rs, form) == 5; }));
  page = history_when(server, sub.key, sub.webhook, first_has(5, "succeeded"));
  EXPECT_EQ(page["data"][0]["status"], "succeeded");

  // Every request, the retries included, carries the event's id, the same body and a valid
  // signature.
  auto got = receiver.received_on("/ops");
  ASSERT_EQ(got.size(), 5u);
  for (const auto& r : got) {
    EXPECT_EQ(r.headers.at("webhook-id"), form);
    EXPECT_EQ(r.body, got[0].body);
    EXPECT_TRUE(signature_valid(sub.secret, r));
  }
  EXPECT_EQ(got[3].answered, 200);
  auto dir = scratch_dir();
  auto reference = verify_with_reference_library(sub.secret, got, dir);
  std::filesystem::remove_all(dir);
  if (reference.ran) {
    EXPECT_EQ(reference.exit_code, 0) << reference.output;
    EXPECT_NE(reference.output.find("\"verified\":5"), std::string::npos) << reference.output;
  }

  // The history is in the database: the same after a restart. No secret in it or in the log.
  std::string before = server.get(deliveries_path(sub.webhook), sub.key).body;
  server.restart();
  auto after = server.get(deliveries_path(sub.webhook), sub.key);
  ASSERT_EQ(after.status, 200) << after.body;
  EXPECT_EQ(after.json()["data"], Json::parse(before)["data"]);
  EXPECT_EQ(before.find(sub.secret), std::string::npos);
  EXPECT_EQ(server.log().find(sub.secret), std::string::npos);
  if (!reference.ran) GTEST_SKIP() << "npm install failed (offline?): reference check not run";
}

TEST(WebhookOperations, FiveDaysOfFailuresDisableTheWebhookMailTheOwnersAndEnablingResumes) {
  FakeSmtpServer smtp;
  LocalWebhookReceiver local;
  HttpsReceiver& receiver = local.receiver();
  TestClock clock;
  Server server(operations_env(local, "200ms,1h,1h", &smtp), clock.args());
  auto sub = subscribe(server, local.url("/down"));
  auto owner = create_member(server, sub.account, "owner");
  auto second_owner = create_member(server, sub.account, "owner");
  auto admin = create_member(server, sub.account, "admin");
  receiver.fail_all(503);
  auto first = record_form(server, sub.agent);
  auto page = history_when(server, sub.key, sub.webhook, first_has(2, "retrying"));
  std::string delivery = page["data"][0]["id"];
  std::string failing_since = page["data"][0]["attempts"][0]["at"];
  auto hook = server.get("/api/v1/webhooks/" + sub.webhook, sub.key);
  ASSERT_EQ(hook.status, 200) << hook.body;
  EXPECT_EQ(hook.json()["data"]["status"], "active");
  EXPECT_TRUE(hook.json()["data"]["disabledReason"].is_null());
  EXPECT_FALSE(hook.json()["data"].contains("secret"));

  // Five days on, the retry due fails too: every attempt failed for five days.
  clock.advance_ms(5 * kDay);
  ASSERT_TRUE(receiver.wait_until([&](auto& rs) { return count_id(rs, first) == 3; }));
  Json disabled;
  for (int i = 0; i < 500; ++i) {
    disabled = server.get("/api/v1/webhooks/" + sub.webhook, sub.key).json()["data"];
    if (disabled["status"] == "disabled") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(disabled["status"], "disabled") << disabled.dump();
  EXPECT_EQ(disabled["disabledReason"], "Every delivery attempt failed for 5 days, since " +
                                            failing_since + "; the last one: HTTP 503.");
  EXPECT_GE(ms_of(disabled["disabledAt"]), ms_of(failing_since) + 5 * kDay);

  // Each owner is told, the admin is not; the mail names the webhook and how to enable it.
  ASSERT_TRUE(smtp.wait_for(2, 10000));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto mails = smtp.mails();
  ASSERT_EQ(mails.size(), 2u);
  std::set<std::string> to;
  for (const auto& m : mails) {
    ASSERT_EQ(m.to.size(), 1u);
    to.insert(m.to[0]);
    EXPECT_EQ(m.from, "parley@example.com");
    EXPECT_NE(m.data.find("Subject: Webhook disabled: Test agent"), std::string::npos) << m.data;
    EXPECT_NE(m.data.find("Webhook: " + sub.webhook), std::string::npos) << m.data;
    EXPECT_NE(m.data.find("URL: " + local.url("/down")), std::string::npos) << m.data;
    EXPECT_NE(m.data.find("Failing since: " + failing_since), std::string::npos) << m.data;
    EXPECT_NE(m.data.find("POST /api/v1/webhooks/" + sub.webhook + "/enable"), std::string::npos);
    EXPECT_EQ(m.data.find(sub.secret), std::string::npos);
  }
  EXPECT_EQ(to, (std::set<std::string>{owner["email"].get<std::string>(),
                                       second_owner["email"].get<std::string>()}));
  EXPECT_EQ(to.count(admin["email"].get<std::string>()), 0u);

  // Disabled: the delivery waiting for its last retry has nothing due, a retry is refused, and an
  // event now gets no delivery. The console shows the same state.
  page = server.get(deliveries_path(sub.webhook), sub.key).json();
  ASSERT_EQ(page["data"].size(), 1u);
  EXPECT_EQ(page["data"][0]["status"], "retrying");
  EXPECT_EQ(page["data"][0]["attempts"].size(), 3u);
  EXPECT_TRUE(page["data"][0]["nextAttemptAt"].is_null());
  expect_error(server.post(retry_path(sub.webhook, delivery), sub.key, ""), 409,
               "webhook_disabled");
  auto missed = record_form(server, sub.agent);
  // Deliveries are made when an event is fanned out: wait for that before enabling.
  for (int i = 0; i < 500; ++i) {
    auto rows =
        server.sql("SELECT dispatched_at FROM event_outbox WHERE event_id = '" + missed + "'");
    if (!rows.empty() && !rows[0][0].empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  auto listed = server.get("/console/v1/agents/" + sub.agent + "/webhooks",
                           owner["token"].get<std::string>());
  ASSERT_EQ(listed.status, 200) << listed.body;
  EXPECT_EQ(listed.json()["data"][0]["status"], "disabled");
  EXPECT_EQ(listed.json()["data"][0]["disabledReason"], disabled["disabledReason"]);

  // Enabled: the waiting delivery is sent when its retry is due, new events are delivered.
  receiver.fail_all(0);
  auto enabled = server.post("/api/v1/webhooks/" + sub.webhook + "/enable", sub.key, "");
  ASSERT_EQ(enabled.status, 200) << enabled.body;
  auto e = enabled.json()["data"];
  EXPECT_EQ(e["id"], sub.webhook);
  EXPECT_EQ(e["status"], "active");
  EXPECT_TRUE(e["disabledReason"].is_null());
  EXPECT_TRUE(e["disabledAt"].is_null());
  EXPECT_FALSE(e.contains("secret"));
  auto after = record_form(server, sub.agent);
  ASSERT_TRUE(receiver.wait_until([&](auto& rs) { return count_id(rs, after) == 1; }));
  clock.advance_ms(kHour);
  ASSERT_TRUE(receiver.wait_until([&](auto& rs) { return count_id(rs, first) == 4; }));
  page = history_when(server, sub.key, sub.webhook, [&](const Json& p) {
    return p["data"].size() == 2 && p["data"][0]["status"] == "succeeded" &&
           p["data"][1]["status"] == "succeeded";
  });
  ASSERT_EQ(page["data"].size(), 2u) << "the event while disabled got no delivery";
  EXPECT_EQ(page["data"][0]["eventId"], after);
  EXPECT_EQ(page["data"][1]["eventId"], first);
  EXPECT_EQ(page["data"][1]["attempts"][3]["statusCode"], 200);
  EXPECT_EQ(count_id(receiver.received(), missed), 0);
  // Enabling again changes nothing.
  EXPECT_EQ(server.post("/api/v1/webhooks/" + sub.webhook + "/enable", sub.key, "")
                .json()["data"]["status"],
            "active");
  // Info lines reach the log within a moment.
  std::string log;
  for (int i = 0; i < 250; ++i) {
    log = server.log();
    if (log.find("webhook_disabled_mail_sent") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_NE(log.find("\"msg\":\"webhook_disabled\",\"webhookId\":\"" + sub.webhook + "\""),
            std::string::npos);
  EXPECT_NE(log.find("\"msg\":\"webhook_disabled_mail_sent\",\"webhookId\":\"" + sub.webhook +
                     "\",\"accountId\":\"" + sub.account + "\",\"owners\":2"),
            std::string::npos)
      << log;
  EXPECT_EQ(log.find(sub.secret), std::string::npos);
}

TEST(WebhookOperations, WithoutMailTheDisableStillHappensAndIsLogged) {
  LocalWebhookReceiver local;
  HttpsReceiver& receiver = local.receiver();
  TestClock clock;
  Server server(operations_env(local, "1h"), clock.args());
  auto sub = subscribe(server, local.url("/quiet"));
  create_member(server, sub.account, "owner");
  receiver.fail_all(500);
  auto form = record_form(server, sub.agent);
  history_when(server, sub.key, sub.webhook, first_has(1, "retrying"));
  clock.advance_ms(5 * kDay);
  ASSERT_TRUE(receiver.wait_until([&](auto& rs) { return count_id(rs, form) == 2; }));
  Json hook;
  for (int i = 0; i < 500; ++i) {
    hook = server.get("/api/v1/webhooks/" + sub.webhook, sub.key).json()["data"];
    if (hook["status"] == "disabled") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(hook["status"], "disabled");
  std::string log;
  for (int i = 0; i < 250; ++i) {
    log = server.log();
    if (log.find("webhook_disabled_mail_not_sent") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_NE(log.find("\"msg\":\"webhook_disabled\",\"webhookId\":\"" + sub.webhook + "\""),
            std::string::npos)
      << log;
  EXPECT_NE(
      log.find("\"msg\":\"webhook_disabled_mail_not_sent\",\"webhookId\":\"" + sub.webhook +
               "\",\"accountId\":\"" + sub.account + "\",\"reason\":\"mail is not configured\""),
      std::string::npos)
      << log;
  EXPECT_EQ(history_when(server, sub.key, sub.webhook, first_has(2, "failed"))["data"][0]["status"],
            "failed");
}

TEST(WebhookOperations, ARetryWhileSendingBeforeTheFirstAttemptOrWhilePausedIs409) {
  LocalWebhookReceiver local;
  HttpsReceiver& receiver = local.receiver();
  Env env = operations_env(local, "1h");
  env["PARLEY_WEBHOOK_CONCURRENCY_PER_ENDPOINT"] = "1";  // one attempt at a time: the next waits
  Server server(env);
  auto sub = subscribe(server, local.url("/slow"));
  receiver.stall_first_attempts(1, 2500);
  auto sending = record_form(server, sub.agent);
  auto waiting = record_form(server, sub.agent);
  ASSERT_TRUE(receiver.wait_until([&](auto& rs) { return count_id(rs, sending) == 1; }));
  auto page = history_when(server, sub.key, sub.webhook,
                           [](const Json& p) { return p["data"].size() == 2; });
  ASSERT_EQ(page["data"].size(), 2u);
  auto by_event = [&](const Json& p, const std::string& event) {
    for (const auto& d : p["data"])
      if (d["eventId"] == event) return d;
    ADD_FAILURE() << "no delivery of " << event << " in " << p.dump();
    return Json();
  };
  // Neither has an attempt recorded: one is under way, the other waits for its turn.
  for (const auto& event : {sending, waiting}) {
    EXPECT_EQ(by_event(page, event)["status"], "pending");
    EXPECT_TRUE(by_event(page, event)["attempts"].empty());
    EXPECT_TRUE(by_event(page, event)["nextAttemptAt"].is_string());
  }
  std::string waiting_id = by_event(page, waiting)["id"];
  std::string sending_id = by_event(page, sending)["id"];
  auto busy = server.post(retry_path(sub.webhook, sending_id), sub.key, "");
  expect_error(busy, 409, "delivery_in_progress");
  EXPECT_FALSE(busy.header("x-ratelimit-limit").empty());
  expect_error(server.post(retry_path(sub.webhook, waiting_id), sub.key, ""), 409,
               "delivery_pending");

  // Both delivered in turn; the console pauses the webhook: a retry is refused until resumed.
  page = history_when(server, sub.key, sub.webhook, [](const Json& p) {
    return p["data"].size() == 2 && p["data"][0]["status"] == "succeeded" &&
           p["data"][1]["status"] == "succeeded";
  });
  ASSERT_EQ(by_event(page, sending)["status"], "succeeded") << page.dump();
  ASSERT_EQ(by_event(page, waiting)["status"], "succeeded") << page.dump();
  auto owner = create_member(server, sub.account, "owner")["token"].get<std::string>();
  ASSERT_EQ(
      server.patch("/console/v1/webhooks/" + sub.webhook, owner, R"({"paused": true})").status,
      200);
  expect_error(server.post(retry_path(sub.webhook, sending_id), sub.key, ""), 409,
               "webhook_paused");
  auto paused = server.get("/api/v1/webhooks/" + sub.webhook, sub.key).json()["data"];
  EXPECT_EQ(paused["status"], "paused");
  // Enabling does not lift a pause set in the dashboard.
  EXPECT_EQ(server.post("/api/v1/webhooks/" + sub.webhook + "/enable", sub.key, "")
                .json()["data"]["status"],
            "paused");
  ASSERT_EQ(
      server.patch("/console/v1/webhooks/" + sub.webhook, owner, R"({"paused": false})").status,
      200);
  EXPECT_EQ(server.post(retry_path(sub.webhook, sending_id), sub.key, "").status, 202);
  ASSERT_TRUE(receiver.wait_until([&](auto& rs) { return count_id(rs, sending) == 2; }));
}

TEST(WebhookOperations, OtherAccountsUnknownIdsDashboardWebhooksAndMissingScopes) {
  LocalWebhookReceiver local;
  Server server(operations_env(local, "1h"));
  auto a = subscribe(server, local.url("/a"));
  auto b = subscribe(server, local.url("/b"));
  record_form(server, a.agent);
  record_form(server, b.agent);
  auto a_page = history_when(server, a.key, a.webhook, first_has(1, "succeeded"));
  auto b_page = history_when(server, b.key, b.webhook, first_has(1, "succeeded"));
  std::string a_delivery = a_page["data"][0]["id"], b_delivery = b_page["data"][0]["id"];

  // Another account's webhook or delivery looks missing: 404, the same as an unknown id.
  expect_error(server.get("/api/v1/webhooks/" + a.webhook, b.key), 404, "not_found");
  expect_error(server.get(deliveries_path(a.webhook), b.key), 404, "not_found");
  expect_error(server.post(retry_path(a.webhook, a_delivery), b.key, ""), 404, "not_found");
  expect_error(server.post("/api/v1/webhooks/" + a.webhook + "/enable", b.key, ""), 404,
               "not_found");
  expect_error(server.post(retry_path(b.webhook, a_delivery), b.key, ""), 404, "not_found");
  expect_error(server.post(retry_path(a.webhook, b_delivery), a.key, ""), 404, "not_found");
  expect_error(server.get(deliveries_path("whk_unknown"), a.key), 404, "not_found");
  expect_error(server.get("/api/v1/webhooks/whk_unknown", a.key), 404, "not_found");
  expect_error(server.post(retry_path("whk_unknown", a_delivery), a.key, ""), 404, "not_found");
  expect_error(server.post(retry_path(a.webhook, "dlv_unknown"), a.key, ""), 404, "not_found");
  expect_error(server.post("/api/v1/webhooks/whk_unknown/enable", a.key, ""), 404, "not_found");

  // A webhook added in the dashboard is not the API's: 404 there, as for DELETE.
  std::string dashboard = server.admin({"webhook", "add", "--agent", a.agent, "--url",
                                        local.url("/dash"), "--events", "lead.created"})["id"];
  expect_error(server.get("/api/v1/webhooks/" + dashboard, a.key), 404, "not_found");
  expect_error(server.get(deliveries_path(dashboard), a.key), 404, "not_found");
  expect_error(server.post("/api/v1/webhooks/" + dashboard + "/enable", a.key, ""), 404,
               "not_found");

  // A key without webhooks:write: 403 before anything is looked up.
  auto reader = server.create_key(a.account, "agents:read");
  expect_error(server.get(deliveries_path(a.webhook), reader), 403, "insufficient_scope");
  expect_error(server.get(deliveries_path("whk_unknown"), reader), 403, "insufficient_scope");
  expect_error(server.get("/api/v1/webhooks/" + a.webhook, reader), 403, "insufficient_scope");
  expect_error(server.post(retry_path(a.webhook, a_delivery), reader, ""), 403,
               "insufficient_scope");
  expect_error(server.post("/api/v1/webhooks/" + a.webhook + "/enable", reader, ""), 403,
               "insufficient_scope");
  expect_error(server.get(deliveries_path(a.webhook), ""), 401, "unauthorized");
}

TEST(WebhookOperations, TheHistoryIsPagedNewestFirstLikeTheOtherLists) {
  LocalWebhookReceiver local;
  Server server(operations_env(local, "1h"));
  auto a = subscribe(server, local.url("/paged"));
  std::vector<std::string> events;
  for (int i = 0; i < 3; ++i) {
    events.push_back(record_form(server, a.agent));
    history_when(server, a.key, a.webhook, [&](const Json& p) {
      return p["data"].size() == events.size() && p["data"][0]["status"] == "succeeded";
    });
  }
  auto first = server.get(deliveries_path(a.webhook) + "?limit=2", a.key);
  ASSERT_EQ(first.status, 200) << first.body;
  auto p1 = first.json();
  ASSERT_EQ(p1["data"].size(), 2u);
  EXPECT_EQ(p1["hasMore"], true);
  EXPECT_EQ(p1["data"][0]["eventId"], events[2]);
  EXPECT_EQ(p1["data"][1]["eventId"], events[1]);
  std::string cursor = p1["nextCursor"];
  auto p2 = server.get(deliveries_path(a.webhook) + "?limit=2&cursor=" + cursor, a.key).json();
  ASSERT_EQ(p2["data"].size(), 1u);
  EXPECT_EQ(p2["data"][0]["eventId"], events[0]);
  EXPECT_EQ(p2["hasMore"], false);
  EXPECT_TRUE(p2["nextCursor"].is_null());

  for (std::string bad : {"?limit=0", "?limit=101", "?limit=x", "?cursor=nonsense"}) {
    auto r = server.get(deliveries_path(a.webhook) + bad, a.key);
    expect_error(r, 400, "invalid_request");
    EXPECT_NE(
        r.error_message().find(bad.find("limit") != std::string::npos ? "'limit'" : "'cursor'"),
        std::string::npos)
        << r.body;
  }
  // A cursor of another webhook's list is refused, not read.
  auto b = subscribe(server, local.url("/other"));
  expect_error(server.get(deliveries_path(b.webhook) + "?cursor=" + cursor, b.key), 400,
               "invalid_request");
}

TEST(WebhookOperations, TheConsoleListsRetriesAndEnablesForMembersWhoManageWebhooks) {
  LocalWebhookReceiver local;
  HttpsReceiver& receiver = local.receiver();
  Server server(operations_env(local, "1h"));
  auto account = server.create_account();
  auto agent = server.create_agent(account);
  auto owner = create_member(server, account, "owner")["token"].get<std::string>();
  auto admin = create_member(server, account, "admin")["token"].get<std::string>();
  auto editor = create_member(server, account, "editor")["token"].get<std::string>();
  auto viewer = create_member(server, account, "viewer")["token"].get<std::string>();
  auto added =
      server.post("/console/v1/agents/" + agent + "/webhooks", owner,
                  Json{{"url", local.url("/console")}, {"events", {"form.submitted"}}}.dump());
  ASSERT_EQ(added.status, 201) << added.body;
  std::string webhook = added.json()["data"]["id"];
  EXPECT_EQ(added.json()["data"]["status"], "active");
  receiver.fail_all(502);
  auto form = record_form(server, agent);
  auto page = history_when(server, viewer, webhook, first_has(1, "retrying"), "/console/v1");
  ASSERT_EQ(page["data"].size(), 1u) << page.dump();
  auto d = page["data"][0];
  EXPECT_EQ(d["eventId"], form);
  EXPECT_EQ(d["attempts"][0]["statusCode"], 502);
  EXPECT_EQ(d["attempts"][0]["error"], "HTTP 502");
  EXPECT_EQ(page["hasMore"], false);
  std::string delivery = d["id"];
  std::string retry = "/console/v1/webhooks/" + webhook + "/deliveries/" + delivery + "/retry";
  std::string enable = "/console/v1/webhooks/" + webhook + "/enable";

  // Editors and viewers read; owners and admins retry and enable.
  expect_error(server.post(retry, editor, ""), 403, "forbidden");
  expect_error(server.post(retry, viewer, ""), 403, "forbidden");
  expect_error(server.post(enable, editor, ""), 403, "forbidden");
  receiver.fail_all(0);
  auto retried = server.post(retry, admin, "");
  ASSERT_EQ(retried.status, 202) << retried.body;
  EXPECT_EQ(retried.json()["data"]["id"], delivery);
  EXPECT_EQ(retried.json()["data"]["status"], "retrying");
  ASSERT_TRUE(receiver.wait_until([&](auto& rs) { return count_id(rs, form) == 2; }));
  page = history_when(server, editor, webhook, first_has(2, "succeeded"), "/console/v1");
  EXPECT_EQ(page["data"][0]["attempts"][1]["statusCode"], 200);
  auto enabled = server.post(enable, owner, "");
  ASSERT_EQ(enabled.status, 200) << enabled.body;
  EXPECT_EQ(enabled.json()["data"]["status"], "active");
  EXPECT_EQ(enabled.json()["data"]["addedIn"], "dashboard");
  EXPECT_FALSE(enabled.json()["data"].contains("secret"));

  // Another account's member, or unknown ids: 404.
  auto outsider =
      create_member(server, server.create_account(), "owner")["token"].get<std::string>();
  expect_error(server.get("/console/v1/webhooks/" + webhook + "/deliveries", outsider), 404,
               "not_found");
  expect_error(server.post(retry, outsider, ""), 404, "not_found");
  expect_error(server.post(enable, outsider, ""), 404, "not_found");
  expect_error(
      server.post("/console/v1/webhooks/" + webhook + "/deliveries/dlv_unknown/retry", owner, ""),
      404, "not_found");
  expect_error(server.get("/console/v1/webhooks/" + webhook + "/deliveries?limit=500", owner), 400,
               "invalid_request");
}

}  // namespace
}  // namespace parley::e2e
