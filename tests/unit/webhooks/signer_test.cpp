// The signer against the Standard Webhooks reference vector, and the secret's form.
#include "webhooks/signer.h"

#include <gtest/gtest.h>

#include <regex>

#include "core/crypto.h"
#include "core/random.h"

namespace parley {
namespace {

TEST(WebhookSigner, ReproducesTheStandardWebhooksReferenceVector) {
  auto sig = sign_webhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek",
                          1614265330, R"({"test": 2432232314})");
  ASSERT_TRUE(sig.ok());
  EXPECT_EQ(*sig, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
}

TEST(WebhookSigner, AnyChangeChangesTheSignature) {
  const std::string secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  auto base = *sign_webhook(secret, "msg_1", 1614265330, "{}");
  EXPECT_NE(base, *sign_webhook(secret, "msg_2", 1614265330, "{}"));
  EXPECT_NE(base, *sign_webhook(secret, "msg_1", 1614265331, "{}"));
  EXPECT_NE(base, *sign_webhook(secret, "msg_1", 1614265330, "{ }"));
}

TEST(WebhookSigner, SecretIsWhsecAndBase64OfTwentyFourBytes) {
  SecureRandom random;
  auto secret = new_webhook_secret(random);
  ASSERT_EQ(secret.rfind("whsec_", 0), 0u);
  auto bytes = base64_decode(secret.substr(6));
  ASSERT_TRUE(bytes.has_value());
  EXPECT_EQ(bytes->size(), 24u);
  EXPECT_NE(secret, new_webhook_secret(random));
}

TEST(WebhookSigner, RefusesASecretThatIsNotBase64) {
  EXPECT_FALSE(sign_webhook("whsec_!!!not base64!!!", "msg_1", 1, "{}").ok());
}

}  // namespace
}  // namespace parley
