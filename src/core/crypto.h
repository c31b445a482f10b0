// Cryptographic helpers over OpenSSL 3: SHA-256 fingerprints, HMAC-SHA256, base64, and
// constant-time comparison. All functions are thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace parley {

using Sha256Digest = std::array<uint8_t, 32>;

Sha256Digest sha256(std::string_view data);
std::string sha256_hex(std::string_view data);
Sha256Digest hmac_sha256(std::string_view key, std::string_view data);

std::string to_hex(const uint8_t* data, size_t n);
std::string base64_encode(std::string_view data);
std::optional<std::string> base64_decode(std::string_view text);
std::string base64url_encode(std::string_view data);  // no padding
std::optional<std::string> base64url_decode(std::string_view text);

// True when a and b are equal, in time that depends only on their lengths.
bool constant_time_equal(std::string_view a, std::string_view b);

}  // namespace parley
