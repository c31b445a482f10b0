// Faults: the server is killed with SIGKILL while clients write concurrently, a hundred times in a
// row on the same data directory, with webhook delivery running. Afterwards every write that was
// acknowledged (201) is stored, the database passes PRAGMA integrity_check, the outbox holds
// exactly one event per stored record that is an event (form submissions here) and none without
// its record, each event has exactly one delivery for the subscribed webhook, and once the server
// runs again the receiver gets every one of them: no event lost, none fanned out twice. Each run
// is short (tens of milliseconds of writes) so the whole test stays well under a minute.
#include <curl/curl.h>

#include <atomic>
#include <iostream>
#include <mutex>
#include <random>
#include <set>
#include <thread>


#include "chat_support.h"
#include "https_receiver.h"

namespace parley::e2e {
namespace {

constexpr int kRuns = 100;
constexpr int kContactWriters = 3;

const char* kForms = R"({"forms": [{"id": "form_1", "name": "Quote", "fields": [{"id": "f1", "label": "Company"}]}]})";

// A POST whose connection may be cut by the kill: status 0 then, without failing the test (the
// harness's client reports every transport error as a failure).
struct Poster {
  Poster() : curl(curl_easy_init()) {}
  ~Poster() { curl_easy_cleanup(curl); }
  HttpResponse post(const std::string& url, const std::vector<std::string>& headers, const std::string& body) {
    HttpResponse res;
    curl_slist* list = curl_slist_append(nullptr, "Content-Type: application/json");
    for (const auto& h : headers) list = curl_slist_append(list, h.c_str());
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 10000L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, +[](char* p, size_t size, size_t n, void* out) {
      static_cast<std::string*>(out)->append(p, size * n);
      return size * n;
    });
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &res.body);
    if (curl_easy_perform(curl) == CURLE_OK) curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &res.status);
    curl_slist_free_all(list);
    return res;
  }
  CURL* curl;
};

// Rows and a column of a query on a server's database.
std::set<std::string> column(const Server& server, const std::string& sql) {
  std::set<std::string> out;
  for (auto& r : server.sql(sql)) out.insert(r.at(0));
  return out;
}

TEST(KillUnderWrites, EveryAcknowledgedWriteSurvivesAndEachRecordHasExactlyOneEvent) {
  LocalWebhookReceiver local;
  HttpsReceiver& receiver = local.receiver();
  Env env = unlimited();
  env.merge(local.server_env());
  env["PARLEY_WEBHOOK_RETRY_SCHEDULE"] = "100ms";
  Server server(env);
  auto c = chat_setup(server, kForms);
  server.admin({"account", "set-limits", c.account, R"({"contactsPerAgent": 100000000})"});
  auto hook = server.post("/api/v1/agents/" + c.agent + "/webhooks", c.key,
                          Json{{"url", local.url("/hook")},
                               {"events", {"form.submitted"}}}
                              .dump());
  ASSERT_EQ(hook.status, 201) << hook.body;
  auto first = server.request({"POST", "/widget/v1/agents/" + c.agent + "/messages",
                               Json{{"message", "Hi"}, {"visitorId", "v-1"}}.dump(),
                               {"Origin: https://shop.example.com"}});
  ASSERT_EQ(first.status, 200) << first.body;
  std::string conv = first.json()["conversationId"];

  std::mutex mu;
  std::set<std::string> acked_contacts;  // emails answered 201
  std::set<std::string> acked_forms;     // submission ids answered 201
  std::atomic<int64_t> next{0};
  std::mt19937 rng(13);
  for (int run = 0; run < kRuns; ++run) {
    if (run > 0) server.restart();
    std::atomic<bool> killed{false};
    std::vector<std::thread> writers;
    for (int w = 0; w < kContactWriters; ++w) {
      writers.emplace_back([&] {
        Poster client;
        while (!killed) {
          std::string email = "c" + std::to_string(next++) + "@kill.example";
          auto r = client.post(server.base_url() + "/api/v1/agents/" + c.agent + "/contacts",
                               {bearer(c.key)}, Json{{"email", email}}.dump());
          if (r.status == 201) {
            std::lock_guard lock(mu);
            acked_contacts.insert(email);
          } else if (r.status == 0) {
            break;  // the server is gone
          }
        }
      });
    }
    writers.emplace_back([&] {
      Poster client;
      while (!killed) {
        auto r = client.post(
            server.base_url() + "/widget/v1/conversations/" + conv + "/form", {"Origin: https://shop.example.com"},
            Json{{"visitorId", "v-1"}, {"formId", "form_1"}, {"fields", {{{"id", "f1"}, {"value", "Acme"}}}}}.dump());
        if (r.status == 201) {
          std::lock_guard lock(mu);
          acked_forms.insert(r.json()["data"]["id"].get<std::string>());
        } else if (r.status == 0) {
          break;
        }
      }
    });
    // Killed while writes are under way: once this run has had one acknowledged (however long a
    // loaded machine takes to get there), then 20-80 ms later.
    size_t acked_before = 0;
    {
      std::lock_guard lock(mu);
      acked_before = acked_contacts.size();
    }
    for (int wait = 0; wait < 500; ++wait) {
      {
        std::lock_guard lock(mu);
        if (acked_contacts.size() > acked_before) break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(20, 80)(rng)));
    server.kill_hard();
    killed = true;
    for (auto& t : writers) t.join();
  }
  ASSERT_GT(acked_contacts.size(), size_t{kRuns});

  // Once running again, the server delivers every event that was waiting, except those a killed
  // process had claimed: they are sent again when the claim's lease ends (at least once).
  server.restart();
  auto unsettled = [&] {
    auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
                   .count();
    auto waiting = server.sql(
        "SELECT count(*) FROM event_outbox WHERE event = 'form.submitted' AND dispatched_at IS NULL");
    auto due = server.sql("SELECT count(*) FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at < " +
                       std::to_string(now + 5000));
    return waiting.at(0).at(0) != "0" || due.at(0).at(0) != "0";
  };
  for (int i = 0; i < 200 && unsettled(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(unsettled()) << "events still waiting for delivery";
  server.kill_hard();
  std::set<std::string> received_ids;
  size_t repeats = 0;  // at least once: a kill between sending and recording sends again
  for (const auto& r : receiver.received()) {
    std::string id = r.headers.count("webhook-id") ? r.headers.at("webhook-id") : "";
    if (!received_ids.insert(id).second) ++repeats;
  }

  if (!on_postgres()) {
    auto check = server.sql("PRAGMA integrity_check");
    ASSERT_EQ(check.size(), 1u);
    EXPECT_EQ(check[0][0], "ok");
  }

  auto contacts = column(server, "SELECT email FROM contacts WHERE agent_id = '" + c.agent + "'");
  size_t missing = 0;
  for (const auto& e : acked_contacts) missing += contacts.count(e) == 0;
  EXPECT_EQ(missing, 0u) << "of " << acked_contacts.size() << " acknowledged contacts";

  auto forms = column(server, "SELECT id FROM form_submissions WHERE agent_id = '" + c.agent + "'");
  size_t missing_forms = 0;
  for (const auto& f : acked_forms) missing_forms += forms.count(f) == 0;
  EXPECT_EQ(missing_forms, 0u) << "of " << acked_forms.size() << " acknowledged form submissions";

  // One outbox event per stored submission, none for a submission that was not stored.
  auto per_event = server.sql(
      "SELECT event_id, count(*) FROM event_outbox WHERE event = 'form.submitted' GROUP BY event_id");
  std::set<std::string> evented;
  for (const auto& r : per_event) {
    EXPECT_EQ(r[1], "1") << "events for " << r[0];
    EXPECT_EQ(forms.count(r[0]), 1u) << "event without its submission: " << r[0];
    evented.insert(r[0]);
  }
  EXPECT_EQ(evented, forms);
  // And no event of any kind appears twice.
  auto twice = server.sql("SELECT event, event_id FROM event_outbox GROUP BY event, event_id HAVING count(*) > 1");
  EXPECT_TRUE(twice.empty());
  // Every event was fanned out to the webhook exactly once; each delivery was received or is
  // still queued (a lease of a killed process), and nothing reached the receiver without its record.
  auto deliveries = server.sql(
      "SELECT o.event_id, (SELECT count(*) FROM webhook_deliveries d WHERE d.outbox_id = o.id) "
      "FROM event_outbox o WHERE o.event = 'form.submitted'");
  for (const auto& r : deliveries) EXPECT_EQ(r[1], "1") << "deliveries of " << r[0];
  size_t queued = 0;
  for (const auto& r : server.sql("SELECT event_id, status, next_attempt_at FROM webhook_deliveries")) {
    if (r[1] == "succeeded") {
      EXPECT_EQ(received_ids.count(r[0]), 1u) << "recorded as delivered, never received: " << r[0];
    } else {
      EXPECT_EQ(r[1], "pending") << r[0];
      EXPECT_FALSE(r[2].empty()) << "pending without a next attempt: " << r[0];
      ++queued;
    }
  }
  for (const auto& id : received_ids) EXPECT_EQ(forms.count(id), 1u) << "an event for a submission never stored: " << id;
  std::cout << "acknowledged: " << acked_contacts.size() << " contacts, " << acked_forms.size()
            << " form submissions over " << kRuns << " kills; " << forms.size()
            << " submissions stored; " << received_ids.size() << " events received (" << repeats
            << " sent again after a kill), " << queued << " queued behind a killed process's lease\n";
}

}  // namespace
}  // namespace parley::e2e
