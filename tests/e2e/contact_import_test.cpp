// Contact import through the console (POST /console/v1/agents/{agentId}/contacts/import,
// multipart/form-data): each row's outcome with its reason, conflicts, the plan's allowance, the
// same file again changing nothing, mappings good and bad, roles, and `parley admin contact
// import` reading the same CSV.
#include <filesystem>
#include <fstream>

#include "form_support.h"
#include "harness.h"

namespace parley::e2e {
namespace {

class ContactImportApi : public SeededServerTest {
 protected:
  const Seed& suite_seed() override {
    return seed("ContactImportApi", [](const Admin& a) {
      std::string account = a.create_account("starter");
      std::string agent = a.create_agent(account);
      return Json{{"account", account},
                  {"agent", agent},
                  {"key", a.create_key(account)},
                  {"editor", create_member(a, account, "editor")["token"]},
                  {"viewer", create_member(a, account, "viewer")["token"]}};
    });
  }
  void SetUp() override {
    SeededServerTest::SetUp();
    editor_ = suite_seed().values["editor"];
    viewer_ = suite_seed().values["viewer"];
  }
  std::string path() const { return "/console/v1/agents/" + agent_ + "/contacts/import"; }
  HttpResponse import(const std::string& csv, const std::string& mapping = "",
                      const std::string& token = "") const {
    std::vector<FormPart> parts{{"file", csv, "contacts.csv", "text/csv"}};
    if (!mapping.empty()) parts.push_back({"mapping", mapping, "", "application/json"});
    return post_form(*server_, path(), token.empty() ? editor_ : token, parts);
  }
  Json contact_by_email(const std::string& email) const {
    auto r = server_->get("/api/v1/agents/" + agent_ + "/contacts?email=" + email, key_);
    EXPECT_EQ(r.status, 200) << r.body;
    auto data = r.json()["data"];
    return data.empty() ? Json() : data[0];
  }
  std::string editor_, viewer_;
};

TEST_F(ContactImportApi, ReportsCreatedUpdatedUnchangedAndRefusedRowsWithReasons) {
  ASSERT_EQ(server_
                ->post("/api/v1/agents/" + agent_ + "/contacts", key_,
                       R"({"external_id": "u9", "email": "held@example.com", "name": "Held"})")
                .status,
            201);
  auto r = import(
      "External ID,E-mail,Phone,Name,Plan,Notes (internal)\r\n"
      "u1,Ana@Example.com,+4915112345678,Ana,pro,\r\n"
      "u2,bo@example.com,12,Bo,,\r\n"
      "u3,held@example.com,,Cy,,\r\n"
      "u9,,,Held,,\r\n"
      ",,,Nobody,free,x\r\n");
  ASSERT_EQ(r.status, 200) << r.body;
  auto d = r.json()["data"];
  EXPECT_EQ(d["rows"], 5);
  EXPECT_EQ(d["created"], 1);
  EXPECT_EQ(d["updated"], 0);
  EXPECT_EQ(d["unchanged"], 1);
  EXPECT_EQ(d["refused"], 3);
  ASSERT_EQ(d["errors"].size(), 3u) << d;
  EXPECT_EQ(d["errors"][0],
            (Json{{"row", 3},
                  {"code", "invalid_request"},
                  {"message", "'phone' must be 7 to 15 digits, optionally preceded by '+'."}}));
  EXPECT_EQ(d["errors"][1]["row"], 4);
  EXPECT_EQ(d["errors"][1]["code"], "conflict");
  EXPECT_NE(d["errors"][1]["message"].get<std::string>().find("different external ID"),
            std::string::npos);
  EXPECT_EQ(d["errors"][2]["row"], 6);
  EXPECT_EQ(d["errors"][2]["code"], "invalid_request");
  EXPECT_EQ(d["mapping"], (Json{{"External ID", "external_id"},
                                {"E-mail", "email"},
                                {"Phone", "phone"},
                                {"Name", "name"},
                                {"Plan", "attributes.plan"},
                                {"Notes (internal)", "ignore"}}));
  auto ana = contact_by_email("ana@example.com");
  EXPECT_EQ(ana["externalId"], "u1");
  EXPECT_EQ(ana["source"], "import");
  EXPECT_EQ(ana["attributes"], (Json{{"plan", "pro"}}));
  EXPECT_TRUE(contact_by_email("bo@example.com").is_null());

  // A change of one row updates only that contact.
  auto again = import("email,name\nana@example.com,Ana Maria\nheld@example.com,Held\n");
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(again.json()["data"]["updated"], 1);
  EXPECT_EQ(again.json()["data"]["unchanged"], 1);
  EXPECT_EQ(contact_by_email("ana@example.com")["name"], "Ana Maria");
}

TEST_F(ContactImportApi, TheSameFileAgainChangesNothing) {
  std::string csv = "email,name,city\n";
  for (int i = 0; i < 700; ++i)
    csv += "p" + std::to_string(i) + "@example.com,P " + std::to_string(i) + ",Oslo\n";
  auto first = import(csv);
  ASSERT_EQ(first.status, 200) << first.body;
  EXPECT_EQ(first.json()["data"]["created"], 700);
  auto before = contact_by_email("p650@example.com");
  auto second = import(csv);
  ASSERT_EQ(second.status, 200) << second.body;
  auto d = second.json()["data"];
  EXPECT_EQ(d["rows"], 700);
  EXPECT_EQ(d["unchanged"], 700);
  EXPECT_EQ(d["created"], 0);
  EXPECT_EQ(d["updated"], 0);
  EXPECT_EQ(d["refused"], 0);
  auto after = contact_by_email("p650@example.com");
  EXPECT_EQ(after["updatedAt"], before["updatedAt"]);
  EXPECT_EQ(after["lastSeenAt"], before["lastSeenAt"]);
}

TEST_F(ContactImportApi, ThePlansAllowanceRefusesNewContactsBeyondIt) {
  server_->admin({"account", "set-limits", account_, R"({"contactsPerAgent": 2})"});
  auto r = import("email\na@example.com\nb@example.com\nc@example.com\n");
  ASSERT_EQ(r.status, 200) << r.body;
  auto d = r.json()["data"];
  EXPECT_EQ(d["created"], 2);
  EXPECT_EQ(d["refused"], 1);
  EXPECT_EQ(d["errors"][0]["row"], 4);
  EXPECT_EQ(d["errors"][0]["code"], "contact_limit_reached");
  EXPECT_NE(d["errors"][0]["message"].get<std::string>().find("2 contacts"), std::string::npos);
}

TEST_F(ContactImportApi, AMappingChoosesEachColumnsField) {
  auto r = import("Mail;Kunde;Tarif\nann@example.com;Ann;gold\n",
                  R"({"Mail": "email", "Kunde": "name", "Tarif": "attributes.tier"})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["data"]["created"], 1);
  auto ann = contact_by_email("ann@example.com");
  EXPECT_EQ(ann["name"], "Ann");
  EXPECT_EQ(ann["attributes"], (Json{{"tier", "gold"}}));
}

TEST_F(ContactImportApi, ABadMappingIsRefusedNamingMappingAndImportsNothing) {
  for (std::string mapping : {R"({"Email": "mail"})", R"({"Missing": "email"})", R"(["email"])",
                              R"({"Email": "email", "Name": "email"})"}) {
    auto r = import("Email,Name\na@example.com,A\n", mapping);
    EXPECT_EQ(r.status, 400) << mapping;
    EXPECT_EQ(r.error_code(), "invalid_request");
    EXPECT_EQ(r.error_message().rfind("'mapping'", 0), 0u) << r.body;
  }
  EXPECT_TRUE(contact_by_email("a@example.com").is_null());
}

TEST_F(ContactImportApi, AFileThatIsNotACsvOfContactsIsRefused) {
  auto empty = import("");
  EXPECT_EQ(empty.status, 400);
  EXPECT_NE(empty.error_message().find("header"), std::string::npos);
  auto no_file = post_form(*server_, path(), editor_, {{"mapping", "{}"}});
  EXPECT_EQ(no_file.status, 400);
  EXPECT_NE(no_file.error_message().find("'file'"), std::string::npos);
  auto json = server_->post(path(), editor_, R"({"file": "email\na@example.com"})");
  EXPECT_EQ(json.status, 400);
  EXPECT_NE(json.error_message().find("multipart/form-data"), std::string::npos);
}

TEST_F(ContactImportApi, AFileInAnotherCharsetIsReadAsItsCharset) {
  auto r = post_form(*server_, path(), editor_,
                     {{"file", "email,name\nz@example.com,Z\xFCrich AG\n", "c.csv",
                       "text/csv; charset=windows-1252"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(contact_by_email("z@example.com")["name"], "Z\xC3\xBCrich AG");
}

TEST_F(ContactImportApi, ViewersCannotImportAndOtherAccountsAgentsAreNotFound) {
  auto viewer = import("email\na@example.com\n", "", viewer_);
  EXPECT_EQ(viewer.status, 403);
  EXPECT_EQ(viewer.error_code(), "forbidden");
  std::string other_account = server_->create_account("starter");
  std::string other_agent = server_->create_agent(other_account);
  auto other = post_form(*server_, "/console/v1/agents/" + other_agent + "/contacts/import",
                         editor_, {{"file", "email\na@example.com\n", "c.csv", "text/csv"}});
  EXPECT_EQ(other.status, 404);
  EXPECT_EQ(other.error_code(), "not_found");
}

TEST_F(ContactImportApi, AFileLargerThanTheServersBodyLimitIsTakenUpToTheRoutes) {
  // 1.5 MiB: over the 1 MiB every other route takes, under the import's 64 MiB.
  server_->admin({"account", "set-limits", account_, R"({"contactsPerAgent": 100000})"});
  std::string csv = "email,notes\n";
  std::string notes(900, 'n');
  for (int i = 0; csv.size() < 1'500'000; ++i)
    csv += "big" + std::to_string(i) + "@example.com," + notes + "\n";
  auto r = import(csv);
  ASSERT_EQ(r.status, 200) << r.body.substr(0, 300);
  EXPECT_GT(r.json()["data"]["created"].get<int>(), 1500);
}

TEST_F(ContactImportApi, TheAdminCommandImportsTheSameCsv) {
  std::string file = server_->data_dir() + "/contacts.csv";
  std::ofstream(file) << "external_id,email,name\nx1,x1@example.com,X\nx2,bad,Y\n";
  auto out = server_->admin({"contact", "import", "--agent", agent_, "--file", file, "--mapping",
                             R"({"name": "attributes.nickname"})"});
  auto d = out["data"];
  EXPECT_EQ(d["created"], 1);
  EXPECT_EQ(d["refused"], 1);
  EXPECT_EQ(d["errors"][0]["row"], 3);
  EXPECT_EQ(d["mapping"]["name"], "attributes.nickname");
  EXPECT_EQ(contact_by_email("x1@example.com")["attributes"], (Json{{"nickname", "X"}}));
  auto again = server_->admin({"contact", "import", "--agent", agent_, "--file", file, "--mapping",
                               R"({"name": "attributes.nickname"})"});
  EXPECT_EQ(again["data"]["unchanged"], 1);
  auto bad = server_->admin(
      {"contact", "import", "--agent", agent_, "--file", file, "--mapping", "{\"nope\": 1}"}, true);
  EXPECT_NE(bad["stderr"].get<std::string>().find("'mapping'"), std::string::npos);
}

}  // namespace
}  // namespace parley::e2e
