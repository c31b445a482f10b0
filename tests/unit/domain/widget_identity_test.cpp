// Widget identity's pure parts: the signature a site computes (checked against Python's hmac),
// the check of a claim against an agent's sealed secret (verified, invalid, missing, no secret,
// a secret sealed for another agent or by another key), and the claim's input limits.
#include "domain/widget_identity.h"

#include <gtest/gtest.h>

#include <cctype>

namespace parley {
namespace {

const std::string kSecret = std::string(64, 'a');

AgentRecord agent_with(const SecretBox& box, std::string_view secret, std::string_view id,
                       Random& random) {
  AgentRecord a;
  a.id = std::string(id);
  a.identity_secret_sealed = box.seal(secret, id, random);
  a.identity_secret_at = 1;
  return a;
}

TEST(IdentitySignature, IsLowerCaseHexOfHmacSha256WithTheSecretTextAsKey) {
  // python3 -c "import hmac,hashlib; print(hmac.new(b'3f9a'*16, b'user-42',
  //   hashlib.sha256).hexdigest())"
  std::string secret;
  for (int i = 0; i < 16; ++i) secret += "3f9a";
  EXPECT_EQ(identity_signature(secret, "user-42"),
            "4dcec0286f5d067032be46fa3d94ce4a9e20421408f97ff2f3fdf0225b980bf8");
}

TEST(CheckIdentity, AValidSignatureVerifiesInAnyCaseAndAnythingElseDoesNot) {
  SecureRandom random;
  SecretBox box = SecretBox::generate(random);
  AgentRecord agent = agent_with(box, kSecret, "agt_1", random);
  std::string good = identity_signature(kSecret, "user-42");

  auto verified = check_identity(&box, agent, {"user-42", good});
  EXPECT_EQ(verified.status, kIdentityVerified);
  EXPECT_EQ(verified.external_id, "user-42");
  std::string upper = good;
  for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  EXPECT_EQ(check_identity(&box, agent, {"user-42", upper}).status, kIdentityVerified);

  EXPECT_EQ(check_identity(&box, agent, {"user-43", good}).status, kIdentityInvalidSignature);
  EXPECT_EQ(check_identity(&box, agent, {"user-42", good.substr(1)}).status,
            kIdentityInvalidSignature);
  EXPECT_EQ(check_identity(&box, agent, {"user-42", "not hex"}).status, kIdentityInvalidSignature);
  EXPECT_EQ(check_identity(&box, agent, {"user-42", std::nullopt}).status,
            kIdentityMissingSignature);
  EXPECT_EQ(check_identity(&box, agent, {"user-42", ""}).status, kIdentityMissingSignature);
}

TEST(CheckIdentity, AnotherAgentsSecretNeverVerifies) {
  SecureRandom random;
  SecretBox box = SecretBox::generate(random);
  AgentRecord mine = agent_with(box, kSecret, "agt_1", random);
  const std::string other_secret(64, 'b');
  EXPECT_EQ(
      check_identity(&box, mine, {"user-42", identity_signature(other_secret, "user-42")}).status,
      kIdentityInvalidSignature);
  // The other agent's sealed secret copied onto this agent's row does not open here.
  AgentRecord copied = mine;
  copied.identity_secret_sealed =
      *agent_with(box, other_secret, "agt_2", random).identity_secret_sealed;
  EXPECT_EQ(
      check_identity(&box, copied, {"user-42", identity_signature(other_secret, "user-42")}).status,
      kIdentityNoSecret);
}

TEST(CheckIdentity, NoSecretWhenTheAgentHasNoneOrTheServerCannotOpenIt) {
  SecureRandom random;
  SecretBox box = SecretBox::generate(random);
  AgentRecord none;
  none.id = "agt_1";
  std::string sig = identity_signature(kSecret, "user-42");
  EXPECT_EQ(check_identity(&box, none, {"user-42", sig}).status, kIdentityNoSecret);
  AgentRecord agent = agent_with(box, kSecret, "agt_1", random);
  EXPECT_EQ(check_identity(nullptr, agent, {"user-42", sig}).status, kIdentityNoSecret);
  SecretBox other = SecretBox::generate(random);
  EXPECT_EQ(check_identity(&other, agent, {"user-42", sig}).status, kIdentityNoSecret);
}

TEST(IdentityClaim, LimitsNameTheField) {
  EXPECT_TRUE(validate_identity_claim({"u", std::nullopt}).ok());
  EXPECT_TRUE(validate_identity_claim({std::string(200, 'u'), std::string(64, 'a')}).ok());
  auto blank = validate_identity_claim({" ", std::nullopt});
  ASSERT_FALSE(blank.ok());
  EXPECT_NE(blank.error().message.find("'userId'"), std::string::npos);
  auto long_id = validate_identity_claim({std::string(201, 'u'), std::nullopt});
  ASSERT_FALSE(long_id.ok());
  EXPECT_NE(long_id.error().message.find("'userId'"), std::string::npos);
  auto long_hash = validate_identity_claim({"u", std::string(129, 'a')});
  ASSERT_FALSE(long_hash.ok());
  EXPECT_NE(long_hash.error().message.find("'userHash'"), std::string::npos);
}

}  // namespace
}  // namespace parley
