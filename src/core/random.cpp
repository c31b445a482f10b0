#include "core/random.h"

#include <openssl/rand.h>

#include <chrono>
#include <cstring>
#include <stdexcept>

namespace parley {

void SecureRandom::fill(uint8_t* out, size_t n) {
  if (RAND_bytes(out, static_cast<int>(n)) != 1) throw std::runtime_error("RAND_bytes failed");
}

namespace {
struct Xoshiro256 {
  uint64_t s[4];
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t next() {
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }
};
}  // namespace

void FastRandom::fill(uint8_t* out, size_t n) {
  thread_local Xoshiro256 gen{};
  thread_local bool seeded = false;
  if (!seeded) {
    seed_source_.fill(reinterpret_cast<uint8_t*>(gen.s), sizeof gen.s);
    seeded = true;
  }
  while (n > 0) {
    uint64_t v = gen.next();
    size_t take = n < sizeof v ? n : sizeof v;
    std::memcpy(out, &v, take);
    out += take;
    n -= take;
  }
}

void append_random_base62(Random& random, size_t n, std::string& out) {
  static constexpr char kAlphabet[] =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  size_t end = out.size() + n;
  out.reserve(end);
  uint8_t buf[32];
  while (out.size() < end) {
    random.fill(buf, sizeof buf);
    for (uint8_t b : buf) {
      if (b >= 248) continue;  // 248 = 4 * 62: keeps the draw uniform
      out.push_back(kAlphabet[b % 62]);
      if (out.size() == end) break;
    }
  }
}

std::string random_base62(Random& random, size_t n) {
  std::string out;
  append_random_base62(random, n, out);
  return out;
}

std::string new_id(Random& random, std::string_view prefix) {
  std::string id;
  id.reserve(prefix.size() + 22);
  id.append(prefix);
  append_random_base62(random, 22, id);
  return id;
}

std::string ordered_base62(Random& random) {
  static constexpr char kAlphabet[] =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  constexpr size_t kTimeChars = 8;
  auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                 std::chrono::system_clock::now().time_since_epoch())
                 .count();
  uint64_t ms = now > 0 ? static_cast<uint64_t>(now) : 0;
  std::string out(kTimeChars, '0');
  for (size_t i = kTimeChars; i-- > 0;) {
    out[i] = kAlphabet[ms % 62];
    ms /= 62;
  }
  append_random_base62(random, 22 - kTimeChars, out);
  return out;
}

std::string new_ordered_id(Random& random, std::string_view prefix) {
  std::string id(prefix);
  id += ordered_base62(random);
  return id;
}

}  // namespace parley
