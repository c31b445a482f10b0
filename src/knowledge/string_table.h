// A set of strings numbered in the order they were added (0, 1, 2, …), held compactly for the
// vocabularies of agents' indexes: every string's bytes in one buffer, its end in an array, and an
// open-addressing hash table of numbers (linear probing, at most three quarters full). About 12
// bytes a string besides its own bytes, where a hash map of std::string keys costs 80 to 100.
// Not thread-safe: its owner guards it (TermVocabulary, under AgentIndex's lock).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace parley {

class StringTable {
 public:
  static constexpr uint32_t kMissing = UINT32_MAX;

  size_t size() const { return ends_.size(); }
  std::string_view at(uint32_t id) const {
    uint32_t begin = id == 0 ? 0 : ends_[id - 1];
    return std::string_view(bytes_).substr(begin, ends_[id] - begin);
  }
  uint32_t find(std::string_view s) const {
    if (slots_.empty()) return kMissing;
    size_t mask = slots_.size() - 1;
    for (size_t i = hash(s) & mask;; i = (i + 1) & mask) {
      uint32_t id = slots_[i];
      if (id == kMissing || at(id) == s) return id;
    }
  }
  // Adds `s` (which must not be in the table yet) and returns its number.
  uint32_t add(std::string_view s) {
    if ((size() + 1) * 4 > slots_.size() * 3) grow();  // at most three quarters full
    auto id = static_cast<uint32_t>(size());
    bytes_.append(s);
    ends_.push_back(static_cast<uint32_t>(bytes_.size()));
    place(id);
    return id;
  }
  void reserve(size_t strings, size_t bytes) {
    ends_.reserve(strings);
    bytes_.reserve(bytes);
  }
  // Gives back the spare capacity of the buffer and the array.
  void shrink() {
    bytes_.shrink_to_fit();
    ends_.shrink_to_fit();
  }
  size_t memory_bytes() const {
    return bytes_.capacity() + ends_.capacity() * sizeof(uint32_t) +
           slots_.capacity() * sizeof(uint32_t);
  }

 private:
  static size_t hash(std::string_view s) { return std::hash<std::string_view>{}(s); }
  void place(uint32_t id) {
    size_t mask = slots_.size() - 1;
    size_t i = hash(at(id)) & mask;
    while (slots_[i] != kMissing) i = (i + 1) & mask;
    slots_[i] = id;
  }
  void grow() {
    slots_.assign(slots_.empty() ? 16 : slots_.size() * 2, kMissing);
    for (uint32_t id = 0; id < size(); ++id) place(id);
  }

  std::string bytes_;
  std::vector<uint32_t> ends_;   // the end of each string in bytes_
  std::vector<uint32_t> slots_;  // ids by hash; kMissing where empty
};

}  // namespace parley
