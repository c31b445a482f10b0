// Random: the only source of randomness for identifiers, keys and secrets. The production
// implementation is OpenSSL's CSPRNG (RAND_bytes); tests may inject a seeded one. Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace parley {

class Random {
 public:
  virtual ~Random() = default;
  virtual void fill(uint8_t* out, size_t n) = 0;
};

class SecureRandom final : public Random {
 public:
  void fill(uint8_t* out, size_t n) override;
};

// `n` characters drawn uniformly from [0-9A-Za-z] (rejection sampling, no modulo bias).
std::string random_base62(Random& random, size_t n);

// Appends `n` such characters to `out`.
void append_random_base62(Random& random, size_t n, std::string& out);

// An identifier: a type prefix ("agt_", "key_", ...) and 22 random base62 characters.
std::string new_id(Random& random, std::string_view prefix);

// 22 base62 characters that begin with the time they were made: 8 characters of the Unix time in
// milliseconds (later ones sort after earlier ones, byte by byte, until the year 8000), then 14
// random ones (83 bits). For rows that accumulate (messages, conversations, sessions, events):
// each new one lands at the end of its primary-key index instead of on a random page of it, so
// a commit of many rows touches, and logs, a few pages instead of one per row. Never for secrets
// (tokens, keys): the time part is known.
std::string ordered_base62(Random& random);
// new_id() with ordered_base62() after the prefix.
std::string new_ordered_id(Random& random, std::string_view prefix);

// Randomness for values that must be unique but need not be secret (request ids): a per-thread
// xoshiro256** generator seeded once from the CSPRNG, about 40 times cheaper than RAND_bytes.
// Never use it for keys, secrets or resource ids. Thread-safe (one generator per thread).
class FastRandom final : public Random {
 public:
  explicit FastRandom(Random& seed_source) : seed_source_(seed_source) {}
  void fill(uint8_t* out, size_t n) override;

 private:
  Random& seed_source_;
};

}  // namespace parley
