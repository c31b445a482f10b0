// Eight bytes at a time: tests on a 64-bit word that tell whether any of its bytes is a given
// value or below one. A true answer may be wrong (a borrow can spill into the next byte), so
// callers use it only to skip clean words and look at the others byte by byte; a false answer
// is always right.
#pragma once

#include <cstdint>
#include <cstring>

namespace parley::swar {

constexpr uint64_t kOnes = 0x0101010101010101ULL;
constexpr uint64_t kHighs = 0x8080808080808080ULL;

inline uint64_t load(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

// Maybe has a byte below `n` (n at most 128).
constexpr bool maybe_below(uint64_t w, uint8_t n) { return ((w - kOnes * n) & ~w & kHighs) != 0; }

// Maybe has a byte equal to `c`.
constexpr bool maybe_has(uint64_t w, uint8_t c) {
  uint64_t x = w ^ (kOnes * c);
  return ((x - kOnes) & ~x & kHighs) != 0;
}

}  // namespace parley::swar
