// "Erase contact" (POST /console/v1/contacts/{contactId}/erase and `parley admin contact erase`):
// every copy of the person goes (the contact, its lead, the conversations bound to it or holding
// its email, their messages, its form submission, booking and return request, their events and
// webhook deliveries, a stored API answer), another person's stay, the report counts each kind,
// and the database's files hold the email nowhere afterwards (SQLite: the file and its WAL;
// PostgreSQL: a dump of every row).
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "harness.h"
#include "https_receiver.h"

namespace parley::e2e {
namespace {

// A write through the database's own client beside the running server: on SQLite the client
// waits for the server's writer instead of failing at once with "database is locked".
constexpr const char* kEmail = "erin.erase+1@example.org";
constexpr const char* kKept = "kim.kept@example.org";

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// Whether any file of the database holds `text` in any letter case.
bool database_holds(const Admin& db, const std::string& text) {
  if (on_postgres()) return lower(db.dump()).find(lower(text)) != std::string::npos;
  for (const auto& f : std::filesystem::directory_iterator(db.data_dir())) {
    std::string name = f.path().filename().string();
    if (name.rfind("parley.db", 0) != 0 || name.find("lock") != std::string::npos) continue;
    std::ifstream in(f.path(), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    if (lower(bytes.str()).find(lower(text)) != std::string::npos) return true;
  }
  return false;
}

struct Person {
  std::string contact, lead_conversation, bound_conversation;
};

class RecordsErasure : public ::testing::Test {
 protected:
  void SetUp() override {
    Env env = unlimited();
    for (const auto& [k, v] : local_.server_env()) env[k] = v;
    server_ = std::make_unique<Server>(env);
    account_ = server_->create_account();
    agent_ = server_->create_agent(account_);
    key_ = server_->create_key(account_);
    auto hook = server_->post(
        "/api/v1/agents/" + agent_ + "/webhooks", key_,
        Json{{"url", local_.url("/hook")},
             {"events", {"lead.created", "form.submitted", "booking.created", "return.requested"}}}
            .dump());
    ASSERT_EQ(hook.status, 201) << hook.body;
  }

  std::string conversation(const std::string& visitor_text) const {
    Json messages =
        Json::array({{{"role", "user"}, {"content", visitor_text}},
                     {{"role", "assistant"}, {"content", "Thank you, we will write to you."}}});
    return server_->admin(
        {"conversation", "create", "--agent", agent_, "--messages", messages.dump()})["id"];
  }

  // A person as the service meets one: a contact made through the API (its answer kept for the
  // Idempotency-Key), a chat where they typed their email and left it as a lead, a form, a
  // booking, a return request, and a conversation bound to the contact (a signed widget identity).
  Person meet(const std::string& email, const std::string& name) const {
    Person p;
    auto made = server_->request({"POST",
                                  "/api/v1/agents/" + agent_ + "/contacts",
                                  Json{{"email", email}, {"name", name}}.dump(),
                                  {bearer(key_), "Idempotency-Key: contact-" + name}});
    EXPECT_EQ(made.status, 201) << made.body;
    p.contact = made.json()["data"]["id"];
    p.lead_conversation =
        conversation("Hi, I am " + name + ", write to me at " + email + " please");
    server_->admin({"record", "lead", "--agent", agent_, "--email", email, "--name", name,
                    "--source", "chat", "--conversation", p.lead_conversation});
    Json fields = Json::array({{{"id", "email"}, {"label", "Email"}, {"value", email}}});
    server_->admin(
        {"record", "form", "--agent", agent_, "--form", "contact", "--fields", fields.dump()});
    server_->admin({"record", "booking", "--agent", agent_, "--email", email, "--name", name});
    server_->admin({"record", "return", "--agent", agent_, "--email", email, "--order", "A-1"});
    p.bound_conversation = conversation("Where is my parcel?");
    server_->write_sql("UPDATE conversations SET contact_id = '" + p.contact + "' WHERE id = '" +
                       p.bound_conversation + "'");
    return p;
  }

  // Waits until the webhook has a delivery of each of the `n` events recorded so far.
  void wait_for_deliveries(int64_t n) const {
    for (int i = 0; i < 300 && server_->sql_int("SELECT count(*) FROM webhook_deliveries") < n; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_EQ(server_->sql_int("SELECT count(*) FROM webhook_deliveries"), n);
  }

  LocalWebhookReceiver local_;
  std::unique_ptr<Server> server_;
  std::string account_, agent_, key_;
};

TEST_F(RecordsErasure, EraseRemovesEveryCopyOfThePersonAndReportsWhat) {
  Person erin = meet(kEmail, "Erin");
  Person kim = meet(kKept, "Kim");
  wait_for_deliveries(8);  // a lead, a form, a booking and a return each
  ASSERT_TRUE(database_holds(*server_, kEmail));

  // Editors and viewers may not; another account's owner sees no such contact.
  auto path = "/console/v1/contacts/" + erin.contact + "/erase";
  auto editor = server_->post(path, create_member(*server_, account_, "editor")["token"], "");
  EXPECT_EQ(editor.status, 403);
  EXPECT_EQ(editor.error_code(), "forbidden");
  auto stranger =
      server_->post(path, create_member(*server_, server_->create_account(), "owner")["token"], "");
  EXPECT_EQ(stranger.status, 404);
  EXPECT_EQ(stranger.error_code(), "not_found");

  auto r = server_->post(path, create_member(*server_, account_, "admin")["token"], "");
  ASSERT_EQ(r.status, 200) << r.body;
  auto report = r.json()["data"];
  EXPECT_EQ(report["contactId"], erin.contact);
  EXPECT_EQ(report["agentId"], agent_);
  EXPECT_EQ(report["erased"], true);
  EXPECT_EQ(report["removed"], (Json{{"contacts", 1},
                                     {"leads", 1},
                                     {"conversations", 2},
                                     {"messages", 4},
                                     {"events", 4},
                                     {"webhookDeliveries", 4},
                                     {"formSubmissions", 1},
                                     {"bookings", 1},
                                     {"returnRequests", 1},
                                     {"idempotencyKeys", 1}}))
      << report.dump();

  EXPECT_FALSE(database_holds(*server_, kEmail));
  // (The bound conversation's id is left out: this test bound it with the sqlite3 client, which
  // does not overwrite what an UPDATE frees, unlike the server.)
  EXPECT_FALSE(database_holds(*server_, erin.lead_conversation));
  // The contact's id is kept in one place: the audit entry recording its erasure (an opaque id,
  // nothing of the person; docs/decisions/audit.md).
  EXPECT_EQ(server_->sql_int("SELECT count(*) FROM audit_entries WHERE target_id = '" +
                             erin.contact + "' AND action = 'contact.erase'"),
            1);
  EXPECT_EQ(server_->sql_int("SELECT count(*) FROM audit_entries WHERE target_id = '" +
                             erin.contact + "'"),
            1);
  EXPECT_EQ(server_->sql_int("SELECT count(*) FROM contacts WHERE id = '" + erin.contact + "'"), 0);
  EXPECT_EQ(server_->sql_int("SELECT count(*) FROM conversations WHERE contact_id = '" +
                             erin.contact + "'"),
            0);
  // Kim is untouched.
  EXPECT_TRUE(database_holds(*server_, kKept));
  EXPECT_EQ(server_->sql_int("SELECT count(*) FROM conversations WHERE id IN ('" +
                             kim.lead_conversation + "', '" + kim.bound_conversation + "')"),
            2);
  EXPECT_EQ(server_->sql_int("SELECT count(*) FROM webhook_deliveries"), 4);
  EXPECT_EQ(server_->get("/api/v1/contacts/" + kim.contact, key_).status, 200);
  EXPECT_EQ(server_->get("/api/v1/contacts/" + erin.contact, key_).status, 404);

  // Once gone, gone: a second erasure finds nothing.
  auto again = server_->post(path, create_member(*server_, account_, "owner")["token"], "");
  EXPECT_EQ(again.status, 404);
  // After the server stops (its last connection closed), the files still hold nothing of Erin.
  server_->stop();
  EXPECT_FALSE(database_holds(*server_, kEmail));
  EXPECT_TRUE(database_holds(*server_, kKept));
}

TEST_F(RecordsErasure, TheAdminCommandErasesAndPrintsTheReport) {
  Person erin = meet(kEmail, "Erin");
  wait_for_deliveries(4);
  auto out = server_->admin({"contact", "erase", erin.contact});
  EXPECT_EQ(out["data"]["contactId"], erin.contact);
  EXPECT_EQ(out["data"]["removed"]["contacts"], 1);
  EXPECT_EQ(out["data"]["removed"]["conversations"], 2);
  EXPECT_EQ(out["data"]["removed"]["leads"], 1);
  EXPECT_FALSE(database_holds(*server_, kEmail));
  auto missing = server_->admin({"contact", "erase", erin.contact}, true);
  EXPECT_NE(missing["stderr"].get<std::string>().find("not_found"), std::string::npos);
}

}  // namespace
}  // namespace parley::e2e
