#include "webhooks/signer.h"

#include "core/crypto.h"

namespace parley {

namespace {
constexpr std::string_view kPrefix = "whsec_";
}

std::string new_webhook_secret(Random& random) {
  std::string bytes(24, '\0');
  random.fill(reinterpret_cast<uint8_t*>(bytes.data()), bytes.size());
  return std::string(kPrefix) + base64_encode(bytes);
}

Result<std::string> sign_webhook(std::string_view secret, std::string_view id, int64_t timestamp_s,
                                 std::string_view body) {
  if (secret.substr(0, kPrefix.size()) == kPrefix) secret.remove_prefix(kPrefix.size());
  auto key = base64_decode(secret);
  if (!key) return ApiError::internal("The webhook secret is not valid base64.");
  std::string payload;
  payload.reserve(id.size() + body.size() + 24);
  payload.append(id).append(".").append(std::to_string(timestamp_s)).append(".").append(body);
  auto mac = hmac_sha256(*key, payload);
  return "v1," +
         base64_encode(std::string_view(reinterpret_cast<const char*>(mac.data()), mac.size()));
}

}  // namespace parley
