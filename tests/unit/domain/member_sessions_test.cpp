// Member tokens and sessions against a real SQLite database with a manual clock: expiry, logout,
// removal, and the rules of creating members.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "domain/accounts.h"
#include "domain/members.h"

namespace parley {
namespace {

constexpr int64_t kHour = 60 * 60 * 1000;

class MemberSessions : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/parley-members-XXXXXX";
    dir_ = mkdtemp(tmpl);
    auto db = open_database({"sqlite:" + dir_ + "/parley.db"});
    ASSERT_TRUE(db.ok()) << db.error().message;
    db_ = std::move(*db);
    s_ = std::make_unique<Services>(Services{*db_, clock_, random_});
    account_ = create_account(*s_, "Acme", "starter")->id;
  }
  void TearDown() override {
    s_.reset();
    db_.reset();
    std::filesystem::remove_all(dir_);
  }

  CreatedMember member(const std::string& email, const std::string& role, std::optional<std::string> password) {
    auto m = create_member(*s_, NewMember{account_, email, role, "Ann", std::move(password)});
    EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
    return std::move(*m);
  }

  std::string dir_;
  ManualClock clock_{1'700'000'000'000};
  SecureRandom random_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Services> s_;
  std::string account_;
};

TEST_F(MemberSessions, SessionExpiresAfterItsLifetime) {
  member("ann@example.com", "editor", "password 123");
  auto login = login_member(*s_, "ANN@example.com", "password 123", 12 * kHour);
  ASSERT_TRUE(login.ok()) << login.error().message;
  EXPECT_EQ(login->expires_at, clock_.now_ms() + 12 * kHour);
  clock_.advance_ms(12 * kHour - 1);
  auto still = authenticate_member_token(*s_, login->token);
  ASSERT_TRUE(still.ok());
  EXPECT_EQ(still->role, Role::kEditor);
  EXPECT_EQ(still->token_kind, "session");
  clock_.advance_ms(1);
  auto expired = authenticate_member_token(*s_, login->token);
  ASSERT_FALSE(expired.ok());
  EXPECT_EQ(expired.error().code, ErrorCode::kUnauthorized);
}

TEST_F(MemberSessions, MemberTokenLastsUntilRemoval) {
  auto m = member("bo@example.com", "admin", std::nullopt);
  clock_.advance_ms(1000 * kHour);
  auto who = authenticate_member_token(*s_, m.token);
  ASSERT_TRUE(who.ok());
  EXPECT_EQ(who->token_kind, "member");
  EXPECT_FALSE(who->expires_at.has_value());
  ASSERT_TRUE(remove_member(*s_, m.record.id).ok());
  EXPECT_FALSE(authenticate_member_token(*s_, m.token).ok());
}

TEST_F(MemberSessions, LogoutEndsOnlyThePresentedToken) {
  auto m = member("cy@example.com", "viewer", "password 123");
  auto a = login_member(*s_, "cy@example.com", "password 123", kHour);
  auto b = login_member(*s_, "cy@example.com", "password 123", kHour);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_TRUE(end_member_token(*s_, a->token).ok());
  EXPECT_FALSE(authenticate_member_token(*s_, a->token).ok());
  EXPECT_TRUE(authenticate_member_token(*s_, b->token).ok());
  EXPECT_TRUE(authenticate_member_token(*s_, m.token).ok());
}

TEST_F(MemberSessions, BadLoginsShareOneError) {
  member("di@example.com", "viewer", "password 123");
  member("ed@example.com", "viewer", std::nullopt);
  for (auto [email, password] : {std::pair{"di@example.com", "wrong one"}, std::pair{"no@example.com", "password 123"},
                                 std::pair{"ed@example.com", "password 123"}}) {
    auto r = login_member(*s_, email, password, kHour);
    ASSERT_FALSE(r.ok()) << email;
    EXPECT_EQ(r.error().code, ErrorCode::kUnauthorized);
    EXPECT_EQ(r.error().message, "Email or password is incorrect.");
  }
}

TEST_F(MemberSessions, CreationRules) {
  member("fy@example.com", "owner", std::nullopt);
  auto dup = create_member(*s_, NewMember{account_, "FY@example.com", "viewer", std::nullopt, std::nullopt});
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error().code, ErrorCode::kConflict);
  auto no_account =
      create_member(*s_, NewMember{"acc_missing", "gu@example.com", "viewer", std::nullopt, std::nullopt});
  ASSERT_FALSE(no_account.ok());
  EXPECT_EQ(no_account.error().code, ErrorCode::kNotFound);
  for (auto email : {"", "plain", "@example.com", "a@b", "a@b.", "a b@example.com", "a@b@example.com"}) {
    auto r = create_member(*s_, NewMember{account_, email, "viewer", std::nullopt, std::nullopt});
    ASSERT_FALSE(r.ok()) << email;
    EXPECT_EQ(r.error().message, "'email' must be a valid email address.") << email;
  }
  auto long_name =
      create_member(*s_, NewMember{account_, "ha@example.com", "viewer", std::string(101, 'n'), std::nullopt});
  ASSERT_FALSE(long_name.ok());
  EXPECT_EQ(long_name.error().message, "'name' must be 1 to 100 characters.");
}

}  // namespace
}  // namespace parley
