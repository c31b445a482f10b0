#include "core/secret_box.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <memory>

#include "core/crypto.h"

namespace parley {

namespace {
constexpr std::string_view kVersion = "v1";
constexpr size_t kNonceBytes = 12;  // GCM's standard nonce, random per value
constexpr size_t kTagBytes = 16;
constexpr std::string_view kKeyIdLabel = "parley secret key id";

using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

CipherCtx new_ctx() { return CipherCtx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free); }

const unsigned char* bytes(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

ApiError unreadable() {
  return ApiError::internal("The sealed secret cannot be opened with this key.");
}
}  // namespace

SecretBox::SecretBox(const std::array<uint8_t, kSecretKeyBytes>& key) : key_(key) {
  std::string_view k(reinterpret_cast<const char*>(key_.data()), key_.size());
  Sha256Digest mac = hmac_sha256(k, kKeyIdLabel);
  key_id_ = to_hex(mac.data(), 8);
}

Result<SecretBox> SecretBox::from_base64(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\n' || text.front() == '\r' ||
                           text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() &&
         (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' || text.back() == '\t'))
    text.remove_suffix(1);
  auto raw = base64_decode(text);
  if (!raw) return ApiError::invalid("The secret key is not base64 text.");
  if (raw->size() != kSecretKeyBytes) {
    OPENSSL_cleanse(raw->data(), raw->size());
    return ApiError::invalid("The secret key must be 32 bytes (44 characters of base64); it is " +
                             std::to_string(raw->size()) + " bytes.");
  }
  std::array<uint8_t, kSecretKeyBytes> key{};
  std::copy(raw->begin(), raw->end(), key.begin());
  OPENSSL_cleanse(raw->data(), raw->size());
  SecretBox box(key);
  OPENSSL_cleanse(key.data(), key.size());
  return box;
}

SecretBox SecretBox::generate(Random& random) {
  std::array<uint8_t, kSecretKeyBytes> key{};
  random.fill(key.data(), key.size());
  SecretBox box(key);
  OPENSSL_cleanse(key.data(), key.size());
  return box;
}

std::string SecretBox::key_base64() const {
  return base64_encode(std::string_view(reinterpret_cast<const char*>(key_.data()), key_.size()));
}

std::string SecretBox::seal(std::string_view plaintext, std::string_view context,
                            Random& random) const {
  std::string raw(kNonceBytes + plaintext.size() + kTagBytes, '\0');
  auto* out = reinterpret_cast<unsigned char*>(raw.data());
  random.fill(out, kNonceBytes);
  CipherCtx ctx = new_ctx();
  int len = 0;
  bool ok = ctx &&
            EVP_EncryptInit_ex2(ctx.get(), EVP_aes_256_gcm(), key_.data(), out, nullptr) == 1 &&
            EVP_EncryptUpdate(ctx.get(), nullptr, &len, bytes(context),
                              static_cast<int>(context.size())) == 1 &&
            EVP_EncryptUpdate(ctx.get(), out + kNonceBytes, &len, bytes(plaintext),
                              static_cast<int>(plaintext.size())) == 1 &&
            EVP_EncryptFinal_ex(ctx.get(), out + kNonceBytes + len, &len) == 1 &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(kTagBytes),
                                out + kNonceBytes + plaintext.size()) == 1;
  // Only an exhausted process fails here; a value that cannot be opened is safer than a clear one.
  if (!ok) return std::string(kVersion) + "." + key_id_ + ".";
  return std::string(kVersion) + "." + key_id_ + "." + base64_encode(raw);
}

Result<std::string> SecretBox::open(std::string_view sealed, std::string_view context) const {
  size_t first = sealed.find('.');
  size_t second = first == std::string_view::npos ? first : sealed.find('.', first + 1);
  if (second == std::string_view::npos || sealed.substr(0, first) != kVersion)
    return ApiError::internal("The sealed secret is malformed.");
  if (sealed.substr(first + 1, second - first - 1) != key_id_)
    return ApiError::internal("The secret was sealed with another key (" +
                              std::string(sealed.substr(first + 1, second - first - 1)) +
                              ", this key is " + key_id_ + ").");
  auto raw = base64_decode(sealed.substr(second + 1));
  if (!raw || raw->size() < kNonceBytes + kTagBytes)
    return ApiError::internal("The sealed secret is malformed.");
  const size_t n = raw->size() - kNonceBytes - kTagBytes;
  auto* in = reinterpret_cast<unsigned char*>(raw->data());
  std::string plain(n, '\0');
  CipherCtx ctx = new_ctx();
  int len = 0;
  bool ok =
      ctx && EVP_DecryptInit_ex2(ctx.get(), EVP_aes_256_gcm(), key_.data(), in, nullptr) == 1 &&
      EVP_DecryptUpdate(ctx.get(), nullptr, &len, bytes(context),
                        static_cast<int>(context.size())) == 1 &&
      EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(plain.data()), &len,
                        in + kNonceBytes, static_cast<int>(n)) == 1 &&
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(kTagBytes),
                          in + kNonceBytes + n) == 1 &&
      EVP_DecryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(plain.data()) + len, &len) ==
          1;
  if (!ok) {
    OPENSSL_cleanse(plain.data(), plain.size());
    return unreadable();
  }
  return plain;
}

std::string SecretBox::key_id_of(std::string_view sealed) {
  size_t first = sealed.find('.');
  if (first == std::string_view::npos || sealed.substr(0, first) != kVersion) return {};
  size_t second = sealed.find('.', first + 1);
  if (second == std::string_view::npos) return {};
  return std::string(sealed.substr(first + 1, second - first - 1));
}

}  // namespace parley
