// Webhook signatures per the Standard Webhooks convention: the secret is "whsec_" + base64 of
// random bytes; the signature is "v1," + base64 of HMAC-SHA256(key, "<id>.<timestamp>.<body>"),
// keyed with the secret's decoded bytes. Stateless and thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/random.h"
#include "core/result.h"

namespace parley {

// A new signing secret: "whsec_" + base64 of 24 random bytes.
std::string new_webhook_secret(Random& random);

// The webhook-signature header value for one delivery attempt.
Result<std::string> sign_webhook(std::string_view secret, std::string_view id, int64_t timestamp_s,
                                 std::string_view body);

}  // namespace parley
