// Faults: the server is killed with SIGKILL while clients write concurrently, a hundred times in a
// row on the same data directory. Afterwards every write that was acknowledged (201) is stored,
// the database passes PRAGMA integrity_check, and the outbox holds exactly one event per stored
// record that is an event (form submissions here) and none without its record: no event lost,
// none that would be delivered twice. Each run is short (tens of milliseconds of writes) so the
// whole test stays well under a minute.
#include <curl/curl.h>
#include <sqlite3.h>

#include <atomic>
#include <iostream>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "chat_support.h"

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

class Sqlite {
 public:
  explicit Sqlite(const std::string& path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << "cannot open " << path;
    }
  }
  ~Sqlite() { sqlite3_close(db_); }
  // Every row's columns as text.
  std::vector<std::vector<std::string>> rows(const std::string& sql) {
    std::vector<std::vector<std::string>> out;
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << sqlite3_errmsg(db_) << " in " << sql;
      return out;
    }
    while (sqlite3_step(s) == SQLITE_ROW) {
      std::vector<std::string> row;
      for (int i = 0; i < sqlite3_column_count(s); ++i) {
        auto t = sqlite3_column_text(s, i);
        row.emplace_back(t ? reinterpret_cast<const char*>(t) : "");
      }
      out.push_back(std::move(row));
    }
    sqlite3_finalize(s);
    return out;
  }
  std::set<std::string> column(const std::string& sql) {
    std::set<std::string> out;
    for (auto& r : rows(sql)) out.insert(r.at(0));
    return out;
  }

 private:
  sqlite3* db_ = nullptr;
};

TEST(KillUnderWrites, EveryAcknowledgedWriteSurvivesAndEachRecordHasExactlyOneEvent) {
  Server server(unlimited());
  auto c = chat_setup(server, kForms);
  server.admin({"account", "set-limits", c.account, R"({"contactsPerAgent": 100000000})"});
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
    std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(20, 80)(rng)));
    server.kill_hard();
    killed = true;
    for (auto& t : writers) t.join();
  }
  ASSERT_GT(acked_contacts.size(), size_t{kRuns});
  std::cout << "acknowledged: " << acked_contacts.size() << " contacts, " << acked_forms.size()
            << " form submissions over " << kRuns << " kills\n";

  Sqlite db(server.data_dir() + "/parley.db");
  auto check = db.rows("PRAGMA integrity_check");
  ASSERT_EQ(check.size(), 1u);
  EXPECT_EQ(check[0][0], "ok");

  auto contacts = db.column("SELECT email FROM contacts WHERE agent_id = '" + c.agent + "'");
  size_t missing = 0;
  for (const auto& e : acked_contacts) missing += contacts.count(e) == 0;
  EXPECT_EQ(missing, 0u) << "of " << acked_contacts.size() << " acknowledged contacts";

  auto forms = db.column("SELECT id FROM form_submissions WHERE agent_id = '" + c.agent + "'");
  size_t missing_forms = 0;
  for (const auto& f : acked_forms) missing_forms += forms.count(f) == 0;
  EXPECT_EQ(missing_forms, 0u) << "of " << acked_forms.size() << " acknowledged form submissions";

  // One outbox event per stored submission, none for a submission that was not stored.
  auto per_event = db.rows(
      "SELECT event_id, count(*) FROM event_outbox WHERE event = 'form.submitted' GROUP BY event_id");
  std::set<std::string> evented;
  for (const auto& r : per_event) {
    EXPECT_EQ(r[1], "1") << "events for " << r[0];
    EXPECT_EQ(forms.count(r[0]), 1u) << "event without its submission: " << r[0];
    evented.insert(r[0]);
  }
  EXPECT_EQ(evented, forms);
  // And no event of any kind appears twice.
  auto twice = db.rows("SELECT event, event_id FROM event_outbox GROUP BY event, event_id HAVING count(*) > 1");
  EXPECT_TRUE(twice.empty());
}

}  // namespace
}  // namespace parley::e2e
