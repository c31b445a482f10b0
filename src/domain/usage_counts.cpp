#include "domain/usage_counts.h"

#include <algorithm>

namespace parley {

namespace {
// Pairs kept before all are forgotten and learnt again (a pair is about 100 bytes): each agent
// gives one a month and one an hour, each account one a month, and past periods are never asked
// again.
constexpr size_t kMaxKnown = 100'000;

std::string key_of(std::string_view scope, std::string_view period) {
  std::string key;
  key.reserve(scope.size() + 1 + period.size());
  key.append(scope).push_back('\n');
  key.append(period);
  return key;
}

// key_of() in this thread's buffer, for lookups: every turn asks three counts, and a lookup then
// allocates nothing.
std::string_view key_view(std::string_view scope, std::string_view period) {
  thread_local std::string key;
  key.assign(scope).push_back('\n');
  key.append(period);
  return key;
}
}  // namespace

void UsageCounts::saw(std::string_view scope, std::string_view period, int64_t count) {
  std::lock_guard lock(mu_);
  // A count no read has begun to learn is read from the database when it is asked: it holds
  // every commit. One being read keeps this, which its read may not have seen.
  auto it = known_.find(key_view(scope, period));
  if (it != known_.end()) it->second.count = std::max(it->second.count, count);
}

Result<std::array<int64_t, 3>> UsageCounts::read(Connection& c,
                                                 const std::array<ScopePeriod, 3>& asked) {
  std::array<int64_t, 3> out{};
  {
    std::lock_guard lock(mu_);
    bool all = true;
    for (size_t i = 0; i < asked.size(); ++i) {
      auto it = known_.find(key_view(asked[i].first, asked[i].second));
      all = all && it != known_.end() && it->second.learnt;
      if (all) out[i] = it->second.count;
    }
    if (all) return out;
    // From here on, the writes that commit tell these counts what they made.
    if (known_.size() + asked.size() > kMaxKnown) known_.clear();
    for (const auto& [scope, period] : asked) known_.try_emplace(key_of(scope, period));
  }
  PARLEY_ASSIGN_OR_RETURN(out, UsageRepo::counts(c, asked));
  std::lock_guard lock(mu_);
  for (size_t i = 0; i < asked.size(); ++i) {
    auto it = known_.find(key_view(asked[i].first, asked[i].second));
    // Forgotten during the read: what was told meanwhile is lost, so nothing is learnt.
    if (it == known_.end()) continue;
    it->second.count = std::max(it->second.count, out[i]);
    it->second.learnt = true;
    out[i] = it->second.count;
  }
  return out;
}

int64_t* CountsSeen::place(std::string scope, std::string period) {
  if (used_ == seen_.size()) return nullptr;  // not told: the count is read again when asked
  seen_[used_] = Seen{std::move(scope), std::move(period), 0};
  return &seen_[used_++].count;
}

void CountsSeen::clear() {
  for (size_t i = 0; i < used_; ++i) seen_[i].count = 0;
}

void CountsSeen::committed() {
  for (size_t i = 0; i < used_; ++i) {
    if (seen_[i].count > 0) counts_->saw(seen_[i].scope, seen_[i].period, seen_[i].count);
  }
}

}  // namespace parley
