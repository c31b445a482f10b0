// Password hashing for team members: Argon2id (libargon2) with OWASP's baseline cost (19 MiB,
// 2 passes, 1 lane), a 16-byte salt from the injected randomness, stored as the standard encoded
// string so the cost can be raised later without breaking old hashes. Thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "core/random.h"
#include "core/result.h"

namespace parley {

inline constexpr size_t kMinPasswordLength = 8;
inline constexpr size_t kMaxPasswordLength = 200;

// 400 invalid_request naming 'password' unless it is 8 to 200 characters.
Result<void> check_password_rules(std::string_view password);

Result<std::string> hash_password(Random& random, std::string_view password);

// True when `password` matches `encoded`; the comparison inside libargon2 is constant-time.
bool verify_password(std::string_view encoded, std::string_view password);

// Spends the same time as verify_password against a real hash, for an unknown email or a member
// without a password, so that timing does not tell which emails exist.
void verify_dummy_password(std::string_view password);

}  // namespace parley
