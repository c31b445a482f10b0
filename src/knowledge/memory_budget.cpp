#include "knowledge/memory_budget.h"

#include <algorithm>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace parley {

namespace {
// Dropped values' memory is given back to the system once this much was dropped.
constexpr size_t kReleaseAfterBytes = 32u << 20;
}  // namespace

void MemoryBudget::join(Member& m) {
  std::lock_guard lock(mu_);
  members_.push_back(&m);
}

void MemoryBudget::leave(Member& m) {
  std::lock_guard lock(mu_);
  std::erase(members_, &m);
}

void MemoryBudget::moved(size_t added, size_t removed) {
  if (added >= removed) {
    total_.fetch_add(added - removed, std::memory_order_relaxed);
  } else {
    total_.fetch_sub(removed - added, std::memory_order_relaxed);
  }
}

void MemoryBudget::enforce(const void* serving) {
  if (limit_ == 0 || total() <= limit_) return;
  bool release = false;
  {
    std::lock_guard lock(mu_);
    while (total() > limit_) {
      Member* victim = nullptr;
      uint64_t oldest = UINT64_MAX;
      for (Member* m : members_) {
        std::optional<uint64_t> used = m->oldest(serving);
        if (used && *used < oldest) {
          oldest = *used;
          victim = m;
        }
      }
      if (victim == nullptr) break;  // only the value being served is left
      size_t freed = victim->drop_oldest(serving);
      if (freed == 0) continue;  // its values changed meanwhile: look again
      dropped_unreleased_ += freed;
    }
    if (dropped_unreleased_ >= kReleaseAfterBytes) {
      dropped_unreleased_ = 0;
      release = true;
    }
  }
#if defined(__GLIBC__)
  if (release) malloc_trim(0);
#else
  (void)release;
#endif
}

}  // namespace parley
