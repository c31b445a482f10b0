// Password hashes made with Argon2 memory from mmap: the encoded string is the one libargon2
// writes and reads (so hashes stored before and after stay valid both ways), and a wrong
// password never verifies.
#include "domain/member_passwords.h"

#include <argon2.h>
#include <gtest/gtest.h>

#include <array>

namespace parley {
namespace {

TEST(MemberPasswords, OurHashIsOneLibargon2Verifies) {
  SecureRandom random;
  auto hash = hash_password(random, "correct horse battery");
  ASSERT_TRUE(hash.ok());
  EXPECT_EQ(hash->rfind("$argon2id$v=19$m=19456,t=2,p=1$", 0), 0u) << *hash;
  EXPECT_EQ(argon2id_verify(hash->c_str(), "correct horse battery", 21), ARGON2_OK);
  EXPECT_TRUE(verify_password(*hash, "correct horse battery"));
  EXPECT_FALSE(verify_password(*hash, "correct horse batterx"));
}

TEST(MemberPasswords, AHashLibargon2MadeVerifies) {
  std::array<uint8_t, 16> salt{};
  salt.fill(7);
  char encoded[128];
  ASSERT_EQ(argon2id_hash_encoded(2, 1024, 1, "s3cret-pass", 11, salt.data(), salt.size(), 32, encoded,
                                  sizeof encoded),
            ARGON2_OK);
  EXPECT_TRUE(verify_password(encoded, "s3cret-pass"));
  EXPECT_FALSE(verify_password(encoded, "s3cret-pasS"));
  EXPECT_FALSE(verify_password("$argon2id$v=19$m=4194304,t=1,p=1$AAAA$AAAA", "s3cret-pass"));
}

}  // namespace
}  // namespace parley
