#include "knowledge/memory_budget.h"

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

void MemoryBudget::leave(Member& m, size_t held) {
  std::lock_guard lock(mu_);
  std::erase(members_, &m);
  moved(0, held);
}

void MemoryBudget::moved(size_t added, size_t removed) {
  if (added >= removed) {
    total_.fetch_add(added - removed, std::memory_order_relaxed);
  } else {
    total_.fetch_sub(removed - added, std::memory_order_relaxed);
  }
}

void MemoryBudget::enforce(std::string_view serving) {
  if (limit_ == 0 || total() <= limit_) return;
  bool release = false;
  std::vector<std::shared_ptr<void>> dropped;  // freed last, after the locks
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
      if (victim == nullptr) break;  // only the values being served are left
      size_t freed = victim->drop_oldest(serving, dropped);
      if (freed == 0) continue;  // its values changed meanwhile: look again
      dropped_unreleased_ += freed;
    }
    if (dropped_unreleased_ >= kReleaseAfterBytes) {
      dropped_unreleased_ = 0;
      release = true;
    }
  }
  dropped.clear();
#if defined(__GLIBC__)
  if (release) malloc_trim(0);
#else
  (void)release;
#endif
}

}  // namespace parley
