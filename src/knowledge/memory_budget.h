// MemoryBudget: the bytes that several caches of agents' knowledge hold together (the BM25
// indexes, the embedding vectors), kept within one limit across every tenant. The caches share
// one clock of use, so that past the limit the least recently used value of any of them leaves
// memory first, whichever cache holds it. Dropped memory is given back to the system
// (malloc_trim) once enough of it was dropped. The values of the agent being served (its index
// and its vectors) are kept whatever their age, so that an agent whose values together exceed
// the budget is served with all of them, alone, rather than loading one again at every question.
// Thread-safe. Lock order: a member's own lock is never held while the budget's is taken;
// enforce() takes the budget's, then each member's in turn. Dropped values are freed after both.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

namespace parley {

class MemoryBudget {
 public:
  // A cache whose values count against the budget (knowledge/versioned_cache.h).
  class Member {
   public:
    virtual ~Member() = default;
    // When this member's least recently used value that would free memory was last used (the
    // budget's tick), the agent `serving`'s left out; nothing when it has none.
    virtual std::optional<uint64_t> oldest(std::string_view serving) const = 0;
    // Drops that value (as it is now) and returns the bytes it freed, 0 when none is left; what
    // it held goes to `dropped`, freed once no lock is held.
    virtual size_t drop_oldest(std::string_view serving,
                               std::vector<std::shared_ptr<void>>& dropped) = 0;
  };

  // `limit` bytes; 0: no limit (nothing is dropped).
  explicit MemoryBudget(size_t limit) : limit_(limit) {}
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  size_t limit() const { return limit_; }
  // What the members hold together, as they measured it.
  size_t total() const { return total_.load(std::memory_order_relaxed); }
  // The next tick of the shared clock of use.
  uint64_t tick() { return ticks_.fetch_add(1, std::memory_order_relaxed) + 1; }

  void join(Member& m);
  // The member goes, with the `held` bytes it still counted.
  void leave(Member& m, size_t held);
  // A member's measured bytes grew by `added` and shrank by `removed` (called under its lock).
  void moved(size_t added, size_t removed);

  // Past the limit: drops the least recently used values across the members until the total is
  // within it, never those of the agent `serving` (the one being served now, so that an agent
  // whose values are larger than the limit is still served, alone). Called without any member's
  // lock.
  void enforce(std::string_view serving);

 private:
  const size_t limit_;
  std::atomic<size_t> total_{0};
  std::atomic<uint64_t> ticks_{0};
  std::mutex mu_;  // members_, dropped_unreleased_; one enforcer at a time
  std::vector<Member*> members_;
  size_t dropped_unreleased_ = 0;
};

}  // namespace parley
