#include "core/secret_box.h"

#include <gtest/gtest.h>

#include "core/crypto.h"

namespace parley {
namespace {

// 32 bytes 0x00..0x1f as base64.
const std::string kKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

SecretBox box(const std::string& key = kKey) {
  auto b = SecretBox::from_base64(key);
  EXPECT_TRUE(b.ok()) << b.error().message;
  return std::move(b).value();
}

TEST(SecretBox, SealsAndOpensWithTheSameKeyAndContext) {
  SecureRandom random;
  SecretBox b = box();
  std::string sealed = b.seal("secret_abc123", "agt_1", random);
  EXPECT_EQ(sealed.rfind("v1." + b.key_id() + ".", 0), 0u) << sealed;
  EXPECT_EQ(sealed.find("secret_abc123"), std::string::npos);
  EXPECT_EQ(SecretBox::key_id_of(sealed), b.key_id());
  auto opened = b.open(sealed, "agt_1");
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  EXPECT_EQ(*opened, "secret_abc123");
  // A fresh nonce each time: the same secret never seals to the same text.
  EXPECT_NE(b.seal("secret_abc123", "agt_1", random), sealed);
  EXPECT_EQ(*b.open(b.seal("", "agt_1", random), "agt_1"), "");
}

TEST(SecretBox, RefusesAnotherContextAnotherKeyAndAChangedValue) {
  SecureRandom random;
  SecretBox b = box();
  std::string sealed = b.seal("secret_abc123", "agt_1", random);
  EXPECT_FALSE(b.open(sealed, "agt_2").ok());

  SecretBox other = SecretBox::generate(random);
  EXPECT_NE(other.key_id(), b.key_id());
  auto wrong = other.open(sealed, "agt_1");
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().message.find("another key"), std::string::npos) << wrong.error().message;

  std::string changed = sealed;
  changed[changed.size() - 3] = changed[changed.size() - 3] == 'A' ? 'B' : 'A';
  EXPECT_FALSE(b.open(changed, "agt_1").ok());
  EXPECT_FALSE(b.open("v1." + b.key_id() + ".", "agt_1").ok());
  EXPECT_FALSE(b.open("garbage", "agt_1").ok());
  EXPECT_EQ(SecretBox::key_id_of("garbage"), "");
}

TEST(SecretBox, KeyIdDependsOnlyOnTheKey) {
  EXPECT_EQ(box().key_id(), box().key_id());
  EXPECT_EQ(box().key_id().size(), 16u);
  EXPECT_EQ(box().key_base64(), kKey);
  SecureRandom random;
  SecretBox made = SecretBox::generate(random);
  auto again = SecretBox::from_base64(" " + made.key_base64() + "\n");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->key_id(), made.key_id());
}

TEST(SecretBox, KeyTextMustBeBase64Of32Bytes) {
  auto short_key = SecretBox::from_base64(base64_encode("only sixteen by."));
  ASSERT_FALSE(short_key.ok());
  EXPECT_EQ(short_key.error().code, ErrorCode::kInvalidRequest);
  EXPECT_NE(short_key.error().message.find("32 bytes"), std::string::npos);
  EXPECT_FALSE(SecretBox::from_base64("not base64!").ok());
  EXPECT_FALSE(SecretBox::from_base64("").ok());
}

}  // namespace
}  // namespace parley
