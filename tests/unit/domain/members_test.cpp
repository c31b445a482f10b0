#include "domain/members.h"

#include <gtest/gtest.h>

#include "domain/member_passwords.h"

namespace parley {
namespace {

TEST(Roles, AreOrderedOwnerAdminEditorViewer) {
  EXPECT_TRUE(role_at_least(Role::kOwner, Role::kAdmin));
  EXPECT_TRUE(role_at_least(Role::kAdmin, Role::kEditor));
  EXPECT_TRUE(role_at_least(Role::kEditor, Role::kViewer));
  EXPECT_TRUE(role_at_least(Role::kViewer, Role::kViewer));
  EXPECT_FALSE(role_at_least(Role::kEditor, Role::kAdmin));
  EXPECT_FALSE(role_at_least(Role::kAdmin, Role::kOwner));
  for (auto name : {"owner", "admin", "editor", "viewer"}) EXPECT_EQ(role_name(*parse_role(name)), name);
  EXPECT_FALSE(parse_role("Owner").has_value());
  EXPECT_FALSE(parse_role("").has_value());
}

TEST(MemberTokens, HaveAKindPrefixAndFortyAlphanumerics) {
  EXPECT_TRUE(is_well_formed_member_token("cst_" + std::string(40, 'a')));
  EXPECT_TRUE(is_well_formed_member_token("cmt_" + std::string(40, 'Z')));
  EXPECT_FALSE(is_well_formed_member_token("cst_" + std::string(39, 'a')));
  EXPECT_FALSE(is_well_formed_member_token("cxt_" + std::string(40, 'a')));
  EXPECT_FALSE(is_well_formed_member_token("cst_" + std::string(39, 'a') + "-"));
  EXPECT_FALSE(is_well_formed_member_token("svc_live_" + std::string(32, 'a')));
}

TEST(MemberEmails, AreLowerCased) { EXPECT_EQ(normalize_email("Ann.Lee@Example.COM"), "ann.lee@example.com"); }

TEST(MemberPasswords, HashIsArgon2idSaltedAndVerifies) {
  SecureRandom random;
  auto a = hash_password(random, "correct horse");
  auto b = hash_password(random, "correct horse");
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(a->rfind("$argon2id$v=19$m=19456,t=2,p=1$", 0), 0u) << *a;
  EXPECT_NE(*a, *b);
  EXPECT_TRUE(verify_password(*a, "correct horse"));
  EXPECT_FALSE(verify_password(*a, "correct horsE"));
  EXPECT_FALSE(verify_password("not a hash", "correct horse"));
  verify_dummy_password("anything");
}

TEST(MemberPasswords, LengthRules) {
  EXPECT_FALSE(check_password_rules("1234567").ok());
  EXPECT_TRUE(check_password_rules("12345678").ok());
  EXPECT_TRUE(check_password_rules(std::string(200, 'p')).ok());
  auto long_one = check_password_rules(std::string(201, 'p'));
  ASSERT_FALSE(long_one.ok());
  EXPECT_EQ(long_one.error().message, "'password' must be 8 to 200 characters.");
}

}  // namespace
}  // namespace parley
