// SecretBox: seals secrets the server must keep and use again (a Notion integration token) with
// the server's 32-byte key, AES-256-GCM over OpenSSL 3. A sealed value is text,
// "v1.<key id>.<base64 of nonce | ciphertext | tag>": the key id (16 hex digits derived from the
// key, never the key) tells which key sealed it, so a node started with another key can say so
// instead of failing at the first use. `context` (for example the agent id the token belongs to)
// is authenticated with the value, so a sealed value copied to another row does not open there.
//
// Immutable after construction; every method is thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/random.h"
#include "core/result.h"

namespace parley {

inline constexpr size_t kSecretKeyBytes = 32;

class SecretBox {
 public:
  // The key as base64 text of exactly 32 bytes (surrounding white space ignored); 400
  // invalid_request saying what is wrong otherwise (never quoting the text).
  static Result<SecretBox> from_base64(std::string_view text);
  // A new random key.
  static SecretBox generate(Random& random);

  // The key as base64 text, to write into a new key file.
  std::string key_base64() const;
  // 16 hex digits naming the key (HMAC-SHA256 of a fixed label under the key): the same key
  // always has the same id, and the id reveals nothing of the key.
  const std::string& key_id() const { return key_id_; }

  std::string seal(std::string_view plaintext, std::string_view context, Random& random) const;
  // The plaintext; an error when the value is malformed, was sealed by another key, with
  // another context, or was changed.
  Result<std::string> open(std::string_view sealed, std::string_view context) const;

  // The key id a sealed value names, or empty when it is not one.
  static std::string key_id_of(std::string_view sealed);

 private:
  explicit SecretBox(const std::array<uint8_t, kSecretKeyBytes>& key);

  std::array<uint8_t, kSecretKeyBytes> key_{};
  std::string key_id_;
};

}  // namespace parley
