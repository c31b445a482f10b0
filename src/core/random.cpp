#include "core/random.h"

#include <openssl/rand.h>

#include <stdexcept>

namespace parley {

void SecureRandom::fill(uint8_t* out, size_t n) {
  if (RAND_bytes(out, static_cast<int>(n)) != 1) throw std::runtime_error("RAND_bytes failed");
}

std::string random_base62(Random& random, size_t n) {
  static constexpr char kAlphabet[] =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  std::string out;
  out.reserve(n);
  uint8_t buf[64];
  while (out.size() < n) {
    random.fill(buf, sizeof buf);
    for (uint8_t b : buf) {
      if (b >= 248) continue;  // 248 = 4 * 62: keeps the draw uniform
      out.push_back(kAlphabet[b % 62]);
      if (out.size() == n) break;
    }
  }
  return out;
}

std::string new_id(Random& random, std::string_view prefix) {
  std::string id(prefix);
  id += random_base62(random, 22);
  return id;
}

}  // namespace parley
