#include "domain/usage_counts.h"

namespace parley {

namespace {
// Pairs kept before those no write holds are dropped (a pair is about 100 bytes): each agent gives
// one a month and one an hour, each account one a month, and past periods are never asked again.
constexpr size_t kMaxKnown = 100'000;

std::string key_of(std::string_view scope, std::string_view period) {
  std::string key;
  key.reserve(scope.size() + 1 + period.size());
  key.append(scope).push_back('\n');
  key.append(period);
  return key;
}
}  // namespace

UsageCounts::Known& UsageCounts::at(std::string_view scope, std::string_view period) {
  std::string key = key_of(scope, period);
  auto it = known_.find(key);
  if (it != known_.end()) return it->second;
  if (known_.size() >= kMaxKnown) forget_unused();
  return known_.emplace(std::move(key), Known{}).first->second;
}

void UsageCounts::forget_unused() {
  std::erase_if(known_, [](const auto& entry) { return entry.second.writing == 0; });
  ++forgets_;
}

Result<std::array<int64_t, 3>> UsageCounts::read(Connection& c,
                                                 const std::array<ScopePeriod, 3>& asked) {
  std::array<int64_t, 3> out{};
  std::array<uint64_t, 3> ended{};
  std::array<bool, 3> quiet{};
  uint64_t forgets = 0;
  {
    std::lock_guard lock(mu_);
    bool all = true;
    for (size_t i = 0; i < asked.size(); ++i) {
      Known& k = at(asked[i].first, asked[i].second);
      out[i] = k.count;
      all = all && k.learnt;
      ended[i] = k.ended;
      quiet[i] = k.writing == 0;
    }
    if (all) return out;
    forgets = forgets_;
  }
  PARLEY_ASSIGN_OR_RETURN(out, UsageRepo::counts(c, asked));
  std::lock_guard lock(mu_);
  // A pair dropped meanwhile forgot the writes that ended on it: nothing is learnt from this read.
  if (forgets_ != forgets) return out;
  for (size_t i = 0; i < asked.size(); ++i) {
    Known& k = at(asked[i].first, asked[i].second);
    // Learnt only when no write of it was in flight from before the read to after it: the read
    // then saw every write that will ever end() on it as not yet begun.
    if (!k.learnt && quiet[i] && k.writing == 0 && k.ended == ended[i]) {
      k.count = out[i];
      k.learnt = true;
    }
  }
  return out;
}

void UsageCounts::begin(std::string_view scope, std::string_view period) {
  std::lock_guard lock(mu_);
  ++at(scope, period).writing;
}

void UsageCounts::end(std::string_view scope, std::string_view period, int64_t added) {
  std::lock_guard lock(mu_);
  Known& k = at(scope, period);
  if (k.writing > 0) --k.writing;
  ++k.ended;
  k.count += added;
}

CountsInFlight::CountsInFlight(std::shared_ptr<UsageCounts> counts, std::vector<Count> pending)
    : counts_(std::move(counts)), pending_(std::move(pending)) {
  for (const auto& p : pending_) counts_->begin(p.scope, p.period);
}

void CountsInFlight::committed() {
  if (ended_) return;
  ended_ = true;
  for (const auto& p : pending_) counts_->end(p.scope, p.period, p.added);
}

CountsInFlight::~CountsInFlight() {
  if (ended_) return;
  for (const auto& p : pending_) counts_->end(p.scope, p.period, 0);
}

}  // namespace parley
