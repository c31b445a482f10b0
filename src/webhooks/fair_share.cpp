#include "webhooks/fair_share.h"

#include <unordered_map>

namespace parley {

namespace {
size_t count_of(const std::map<std::string, size_t>& counts, const std::string& key) {
  auto it = counts.find(key);
  return it == counts.end() ? 0 : it->second;
}

void decrement(std::map<std::string, size_t>& counts, const std::string& key) {
  auto it = counts.find(key);
  if (it == counts.end()) return;
  // Erased at zero so that the maps hold only what is in flight, however many webhooks exist.
  if (--it->second == 0) counts.erase(it);
}
}  // namespace

void InFlight::add(const DueDelivery& d) {
  ++by_webhook[d.delivery.webhook_id];
  ++by_account[d.account_id];
}

void InFlight::remove(const DueDelivery& d) {
  decrement(by_webhook, d.delivery.webhook_id);
  decrement(by_account, d.account_id);
}

std::vector<size_t> pick_fairly(const std::vector<DueDelivery>& due, const InFlight& in_flight,
                                const FairShareLimits& limits, size_t capacity) {
  // Each webhook's candidates in due order; webhooks in the order of their earliest candidate.
  std::vector<std::vector<size_t>> queues;
  std::unordered_map<std::string_view, size_t> queue_of;
  for (size_t i = 0; i < due.size(); ++i) {
    auto [it, added] = queue_of.try_emplace(due[i].delivery.webhook_id, queues.size());
    if (added) queues.emplace_back();
    queues[it->second].push_back(i);
  }
  InFlight taken = in_flight;
  std::vector<size_t> picked;
  for (size_t round = 0; picked.size() < capacity; ++round) {
    bool more = false;
    for (const auto& queue : queues) {
      if (round >= queue.size() || picked.size() == capacity) continue;
      more = more || round + 1 < queue.size();
      const DueDelivery& d = due[queue[round]];
      if (count_of(taken.by_webhook, d.delivery.webhook_id) >= limits.per_webhook ||
          count_of(taken.by_account, d.account_id) >= limits.per_account)
        continue;
      taken.add(d);
      picked.push_back(queue[round]);
    }
    if (!more) break;
  }
  return picked;
}

}  // namespace parley
