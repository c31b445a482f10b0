#include "domain/member_passwords.h"

#include <argon2.h>

#include <array>
#include <vector>

#include "core/json.h"

namespace parley {

namespace {
constexpr uint32_t kTimeCost = 2;
constexpr uint32_t kMemoryKiB = 19 * 1024;
constexpr uint32_t kLanes = 1;
constexpr size_t kSaltBytes = 16;
constexpr size_t kHashBytes = 32;

Result<std::string> encode(std::string_view password, const uint8_t* salt) {
  size_t len = argon2_encodedlen(kTimeCost, kMemoryKiB, kLanes, kSaltBytes, kHashBytes, Argon2_id);
  std::vector<char> out(len);
  int rc = argon2id_hash_encoded(kTimeCost, kMemoryKiB, kLanes, password.data(), password.size(), salt, kSaltBytes,
                                 kHashBytes, out.data(), out.size());
  if (rc != ARGON2_OK) return ApiError::internal(std::string("password hashing failed: ") + argon2_error_message(rc));
  return std::string(out.data());
}
}  // namespace

Result<void> check_password_rules(std::string_view password) {
  size_t n = utf8_length(password);
  if (n < kMinPasswordLength || n > kMaxPasswordLength) {
    return ApiError::invalid("'password' must be 8 to 200 characters.");
  }
  return {};
}

Result<std::string> hash_password(Random& random, std::string_view password) {
  std::array<uint8_t, kSaltBytes> salt{};
  random.fill(salt.data(), salt.size());
  return encode(password, salt.data());
}

bool verify_password(std::string_view encoded, std::string_view password) {
  std::string z(encoded);  // libargon2 wants a NUL-terminated string
  return argon2id_verify(z.c_str(), password.data(), password.size()) == ARGON2_OK;
}

void verify_dummy_password(std::string_view password) {
  // A fixed salt is fine: this hash protects nothing, it only costs the same as a real check.
  static const std::string dummy = [] {
    std::array<uint8_t, kSaltBytes> salt{};
    salt.fill(0x5a);
    auto r = encode("parley-dummy-password", salt.data());
    return r.ok() ? *r : std::string();
  }();
  if (!dummy.empty()) (void)verify_password(dummy, password);
}

}  // namespace parley
