// Contact import against a real SQLite database: the column mapping, each row's outcome under the
// API's rules, batches, the plan's allowance, and a second import of the same file changing
// nothing.
#include "domain/contact_import.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "domain/accounts.h"
#include "domain/agents.h"
#include "domain/contacts.h"

namespace parley {
namespace {

class ContactImport : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/parley-import-XXXXXX";
    dir_ = mkdtemp(tmpl);
    auto db = open_database({"sqlite:" + dir_ + "/parley.db"});
    ASSERT_TRUE(db.ok()) << db.error().message;
    db_ = std::move(*db);
    s_ = std::make_unique<Services>(Services{*db_, clock_, random_});
    account_ = create_account(*s_, "Acme", "starter")->id;
    agent_ = *create_agent(*s_, account_, "Support", false, "");
  }
  void TearDown() override {
    s_.reset();
    db_.reset();
    std::filesystem::remove_all(dir_);
  }

  ImportReport import(std::string_view csv, std::string_view mapping = "", ImportLimits limits = {},
                      std::string_view content_type = "text/csv") {
    auto r = import_contacts_csv(*s_, agent_, {csv, content_type}, mapping, limits);
    EXPECT_TRUE(r.ok()) << r.error().message;
    return r.ok() ? std::move(r).value() : ImportReport{};
  }
  ApiError refused(std::string_view csv, std::string_view mapping = "", ImportLimits limits = {}) {
    auto r = import_contacts_csv(*s_, agent_, {csv, "text/csv"}, mapping, limits);
    EXPECT_FALSE(r.ok());
    return r.ok() ? ApiError::internal("") : r.error();
  }
  std::optional<ContactRecord> by_email(const std::string& email) {
    return *ContactRepo::find_by_email(db_->read()->get(), agent_.id, email);
  }
  int64_t count() { return *ContactRepo::count(db_->read()->get(), agent_.id); }

  std::string dir_;
  ManualClock clock_{1'700'000'000'000};
  SecureRandom random_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Services> s_;
  std::string account_;
  AgentRecord agent_;
};

TEST(ContactImportMapping, HeadersNameTheirFieldsOrBecomeAttributes) {
  auto m = map_columns(
      {"External ID", "E-mail", "PHONE", "name", "Signup Date", "Ünïcode", "e_mail", ""}, "");
  ASSERT_TRUE(m.ok()) << m.error().message;
  std::vector<std::string> texts;
  for (const auto& t : m->targets) texts.push_back(t.text());
  EXPECT_EQ(texts,
            (std::vector<std::string>{"external_id", "email", "phone", "name",
                                      "attributes.signup_date", "ignore", "ignore", "ignore"}));
}

TEST(ContactImportMapping, AMappingOverridesTheHeadersItNames) {
  auto m = map_columns({"Mail", "Email", "Tier"},
                       R"({"Mail": "email", "Email": "ignore", "Tier": "attributes.plan"})");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->targets[0].text(), "email");
  EXPECT_EQ(m->targets[1].text(), "ignore");
  EXPECT_EQ(m->targets[2].text(), "attributes.plan");
  // A column the mapping gives a field takes it from a column that had it by default.
  auto taken = map_columns({"Email", "Work mail"}, R"({"Work mail": "email"})");
  ASSERT_TRUE(taken.ok());
  EXPECT_EQ(taken->targets[0].text(), "ignore");
  EXPECT_EQ(taken->targets[1].text(), "email");
}

// A header of 100,000 columns, with a mapping naming every one: each column is looked up once (the
// lookups were by scanning every column, 12 s of CPU for 80,000).
TEST(ContactImportMapping, AHeaderOfManyColumnsIsMappedColumnByColumn) {
  std::vector<std::string> headers;
  std::string mapping = "{";
  for (int i = 0; i < 100'000; ++i) {
    headers.push_back("c" + std::to_string(i));
    mapping += (i ? ",\"" : "\"") + headers.back() + "\": \"ignore\"";
  }
  headers.push_back("Email");
  headers.push_back("E-mail");
  mapping += ", \"E-mail\": \"email\"}";
  auto m = map_columns(headers, mapping);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->targets[100'000].text(), "ignore");  // its field went to the column mapped to it
  EXPECT_EQ(m->targets[100'001].text(), "email");
  EXPECT_EQ(m->targets[99'999].text(), "ignore");
}

TEST(ContactImportMapping, ABadMappingIsRefusedNamingMapping) {
  for (std::string_view bad :
       {R"(["email"])", R"({"Email": "mail"})", R"({"Email": 3})", R"({"Nope": "email"})",
        R"({"Email": "attributes.Bad"})", R"({"Email": "email", "Other": "email"})",
        R"({"Email": "ignore"})", "not json"}) {
    auto m = map_columns({"Email", "Other"}, bad);
    ASSERT_FALSE(m.ok()) << bad;
    EXPECT_EQ(m.error().code, ErrorCode::kInvalidRequest);
    EXPECT_EQ(m.error().message.rfind("'mapping'", 0), 0u) << m.error().message;
  }
  EXPECT_NE(map_columns({"Email"}, R"({"Nope": "email"})").error().message.find("'Nope'"),
            std::string::npos);
  EXPECT_NE(map_columns({"Phone"}, "").error().message.find("external_id or email"),
            std::string::npos);
}

TEST_F(ContactImport, CreatesUpdatesAndReportsEachRow) {
  auto first = import(
      "External ID,Email,Phone,Name,Plan\r\n"
      "u1,Ana@Example.com,+4915112345678,Ana,pro\r\n"
      ",bo@example.com,,Bo,\r\n"
      "u3,not-an-email,,Cy,\r\n"
      ",,,Nobody,free\r\n");
  EXPECT_EQ(first.rows, 4);
  EXPECT_EQ(first.created, 2);
  EXPECT_EQ(first.refused, 2);
  ASSERT_EQ(first.errors.size(), 2u);
  EXPECT_EQ(first.errors[0].row, 4);
  EXPECT_EQ(first.errors[0].code, ErrorCode::kInvalidRequest);
  EXPECT_NE(first.errors[0].message.find("'email'"), std::string::npos);
  EXPECT_EQ(first.errors[1].row, 5);
  EXPECT_NE(first.errors[1].message.find("external_id"), std::string::npos);
  auto ana = by_email("ana@example.com");
  ASSERT_TRUE(ana);
  EXPECT_EQ(ana->external_id, "u1");
  EXPECT_EQ(ana->source, "import");
  EXPECT_EQ(ana->attributes, R"({"plan":"pro"})");

  clock_.advance_ms(1000);
  auto second = import("email,name,plan\nana@example.com,Ana B.,pro\nbo@example.com,Bo,\n");
  EXPECT_EQ(second.updated, 1);
  EXPECT_EQ(second.unchanged, 1);
  EXPECT_EQ(by_email("ana@example.com")->name, "Ana B.");
  EXPECT_EQ(by_email("ana@example.com")->updated_at, clock_.now_ms());
  EXPECT_EQ(by_email("bo@example.com")->updated_at, clock_.now_ms() - 1000);
}

TEST_F(ContactImport, TheSameFileAgainChangesNothing) {
  ASSERT_TRUE(
      set_account_limits(*s_, account_, R"({"contactsPerAgent": 5000})").ok());  // starter: 1,000
  std::string csv = "external_id,email,name,city\n";
  for (int i = 0; i < 1200; ++i)
    csv += "ext" + std::to_string(i) + ",p" + std::to_string(i) + "@example.com,Person " +
           std::to_string(i) + ",Paris\n";
  ImportLimits small;
  small.batch_rows = 500;
  auto first = import(csv, "", small);
  EXPECT_EQ(first.created, 1200);
  EXPECT_EQ(count(), 1200);
  auto before = by_email("p700@example.com");
  clock_.advance_ms(60'000);
  auto again = import(csv, "", small);
  EXPECT_EQ(again.rows, 1200);
  EXPECT_EQ(again.unchanged, 1200);
  EXPECT_EQ(again.created + again.updated + again.refused, 0);
  EXPECT_EQ(by_email("p700@example.com")->updated_at, before->updated_at);
  EXPECT_EQ(by_email("p700@example.com")->last_seen_at, before->last_seen_at);
}

TEST_F(ContactImport, ConflictsAreRefusedAsTheApiRefusesThem) {
  import("external_id,email\nu1,a@example.com\nu2,b@example.com\n");
  auto r = import("external_id,email\nu1,b@example.com\nu9,a@example.com\n");
  EXPECT_EQ(r.refused, 2);
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].code, ErrorCode::kConflict);
  EXPECT_EQ(r.errors[1].code, ErrorCode::kConflict);
  EXPECT_NE(r.errors[1].message.find("different external ID"), std::string::npos);
}

TEST_F(ContactImport, RowsOfOneFileSeeEachOther) {
  // A later row updates the contact an earlier row created, and an email freed by one row is free
  // for the next, all within one batch.
  auto r = import(
      "external_id,email,name\n"
      "u1,a@example.com,A\n"
      "u1,,A2\n"
      "u2,b@example.com,B\n"
      "u2,c@example.com,\n"
      "u3,b@example.com,Bee\n");
  EXPECT_EQ(r.created, 3);
  EXPECT_EQ(r.updated, 2);
  EXPECT_EQ(r.refused, 0) << (r.errors.empty() ? "" : r.errors[0].message);
  EXPECT_EQ(by_email("a@example.com")->name, "A2");
  EXPECT_EQ(by_email("c@example.com")->external_id, "u2");
  EXPECT_EQ(by_email("b@example.com")->external_id, "u3");
}

TEST_F(ContactImport, ThePlansAllowanceRefusesOnlyNewContactsBeyondIt) {
  ASSERT_TRUE(set_account_limits(*s_, account_, R"({"contactsPerAgent": 2})").ok());
  auto r = import(
      "email,name\na@example.com,A\nb@example.com,B\nc@example.com,C\na@example.com,A again\n");
  EXPECT_EQ(r.created, 2);
  EXPECT_EQ(r.updated, 1);
  EXPECT_EQ(r.refused, 1);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].row, 4);
  EXPECT_EQ(r.errors[0].code, ErrorCode::kContactLimitReached);
  EXPECT_EQ(count(), 2);
}

TEST_F(ContactImport, AFileThatCannotBeReadImportsNothing) {
  EXPECT_NE(refused("").message.find("header"), std::string::npos);
  EXPECT_NE(refused("email\na@example.com\n\"b@example.com\n").message.find("Row 3"),
            std::string::npos);
  ImportLimits two;
  two.max_rows = 2;
  EXPECT_NE(refused("email\na@example.com\nb@example.com\nc@example.com\n", "", two)
                .message.find("more than 2"),
            std::string::npos);
  EXPECT_EQ(count(), 0);
}

TEST_F(ContactImport, TextInOtherCharsetsIsReadAsItsCharset) {
  // Windows-1252 as a spreadsheet saves it (detected), Latin-1 as declared, UTF-16 by its mark.
  import(
      "email,name\na@example.com,J\xFCrgen M\xFCller-L\xFC"
      "denscheid\n",
      "", {}, "text/csv");
  EXPECT_EQ(by_email("a@example.com")->name,
            "J\xC3\xBCrgen M\xC3\xBCller-L\xC3\xBC"
            "denscheid");
  import("email,name\nb@example.com,Fran\xE7oise\n", "", {}, "text/csv; charset=ISO-8859-1");
  EXPECT_EQ(by_email("b@example.com")->name, "Fran\xC3\xA7oise");
  std::string utf16 = "\xFF\xFE";
  for (char c : std::string("email,name\nc@example.com,Chlo\xE9\n")) {
    utf16.push_back(c);
    utf16.push_back('\0');
  }
  import(utf16, "", {}, "");
  EXPECT_EQ(by_email("c@example.com")->name, "Chlo\xC3\xA9");
}

TEST_F(ContactImport, BlankLinesAreSkippedAndLongRowsRefused) {
  auto r = import(
      "\xEF\xBB\xBF"
      "email;name\n\na@example.com;A\n ; \nb@example.com;B;extra\n");
  EXPECT_EQ(r.rows, 2);
  EXPECT_EQ(r.created, 1);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].row, 5);
  EXPECT_NE(r.errors[0].message.find("3 fields"), std::string::npos);
}

}  // namespace
}  // namespace parley
