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
}  // namespace

void UsageCounts::saw(std::string_view scope, std::string_view period, int64_t count) {
  std::lock_guard lock(mu_);
  // Only a count already learnt from the database: every count this write's commit followed is
  // in that read or told since. A count forgotten meanwhile is read again.
  auto it = known_.find(key_of(scope, period));
  if (it != known_.end()) it->second = std::max(it->second, count);
}

Result<std::array<int64_t, 3>> UsageCounts::read(Connection& c,
                                                 const std::array<ScopePeriod, 3>& asked) {
  std::array<int64_t, 3> out{};
  {
    std::lock_guard lock(mu_);
    bool all = true;
    for (size_t i = 0; i < asked.size() && all; ++i) {
      auto it = known_.find(key_of(asked[i].first, asked[i].second));
      all = it != known_.end();
      if (all) out[i] = it->second;
    }
    if (all) return out;
  }
  PARLEY_ASSIGN_OR_RETURN(out, UsageRepo::counts(c, asked));
  std::lock_guard lock(mu_);
  if (known_.size() + asked.size() > kMaxKnown) known_.clear();
  for (size_t i = 0; i < asked.size(); ++i) {
    // A write that committed after the read may have told a higher count already.
    int64_t& known = known_.try_emplace(key_of(asked[i].first, asked[i].second), 0).first->second;
    known = std::max(known, out[i]);
    out[i] = known;
  }
  return out;
}

int64_t* CountsSeen::place(std::string scope, std::string period) {
  return &seen_.emplace_back(Seen{std::move(scope), std::move(period), 0}).count;
}

void CountsSeen::clear() {
  for (Seen& s : seen_) s.count = 0;
}

void CountsSeen::committed() {
  for (const Seen& s : seen_) {
    if (s.count > 0) counts_->saw(s.scope, s.period, s.count);
  }
}

}  // namespace parley
