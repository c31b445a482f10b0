// The bytes of an index's persisted form (knowledge/index_form.h): a writer that appends
// little-endian fixed-width numbers, LEB128 variable-length integers and length-prefixed strings
// to a buffer, and a reader that takes them back in the same order, bounds-checked: a read past
// the end or an implausible length makes the reader failed (every later read gives zero), so a
// truncated or corrupt form is refused, never read out of bounds.
// Not thread-safe: one writer or reader per thread.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace parley {

static_assert(std::endian::native == std::endian::little, "index forms are little-endian");

class ByteWriter {
 public:
  explicit ByteWriter(std::string& out) : out_(out) {}

  void u8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u32(uint32_t v) { raw(&v, sizeof v); }
  void u64(uint64_t v) { raw(&v, sizeof v); }
  void f32(float v) { raw(&v, sizeof v); }
  void f64(double v) { raw(&v, sizeof v); }
  void varint(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7F) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  void str(std::string_view s) {
    varint(s.size());
    out_.append(s);
  }
  // A list of ids, each as its varint.
  void ids(const std::vector<uint32_t>& v) {
    varint(v.size());
    for (uint32_t x : v) varint(x);
  }
  void raw(const void* data, size_t n) { out_.append(static_cast<const char*>(data), n); }

 private:
  std::string& out_;
};

class ByteReader {
 public:
  explicit ByteReader(std::string_view in) : in_(in) {}

  bool ok() const { return ok_; }
  bool done() const { return pos_ == in_.size(); }
  size_t left() const { return in_.size() - pos_; }
  void fail() { ok_ = false; }

  uint8_t u8() {
    if (!need(1)) return 0;
    return static_cast<uint8_t>(in_[pos_++]);
  }
  uint32_t u32() { return fixed<uint32_t>(); }
  uint64_t u64() { return fixed<uint64_t>(); }
  float f32() { return fixed<float>(); }
  double f64() { return fixed<double>(); }
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (!need(1)) return 0;
      auto b = static_cast<uint8_t>(in_[pos_++]);
      v |= static_cast<uint64_t>(b & 0x7F) << shift;
      if ((b & 0x80) == 0) return v;
    }
    ok_ = false;
    return 0;
  }
  uint32_t id() {
    uint64_t v = varint();
    if (v > UINT32_MAX) ok_ = false;
    return ok_ ? static_cast<uint32_t>(v) : 0;
  }
  // A count of items each at least `min_bytes` long: refused when the rest cannot hold them.
  size_t count(size_t min_bytes = 1) {
    uint64_t n = varint();
    if (!ok_ || n > left() / std::max<size_t>(min_bytes, 1)) {
      ok_ = false;
      return 0;
    }
    return static_cast<size_t>(n);
  }
  std::string_view str() {
    size_t n = count();
    if (!need(n)) return {};
    std::string_view out = in_.substr(pos_, n);
    pos_ += n;
    return out;
  }
  std::vector<uint32_t> ids() {
    std::vector<uint32_t> out(count());
    for (auto& x : out) x = id();
    return out;
  }
  std::string_view raw(size_t n) {
    if (!need(n)) return {};
    std::string_view out = in_.substr(pos_, n);
    pos_ += n;
    return out;
  }

 private:
  bool need(size_t n) {
    if (ok_ && left() >= n) return true;
    ok_ = false;
    return false;
  }
  template <typename T>
  T fixed() {
    T v{};
    if (!need(sizeof v)) return v;
    std::memcpy(&v, in_.data() + pos_, sizeof v);
    pos_ += sizeof v;
    return v;
  }

  std::string_view in_;
  size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace parley
