#include "domain/chat_slots.h"

namespace parley {

namespace {
ApiError busy(std::string message) {
  return ApiError{ErrorCode::kAgentBusy, std::move(message), kBusyRetryAfterS};
}

void take(StringMap<int64_t>& counts, std::string_view id) {
  auto it = counts.find(id);
  if (it == counts.end()) {
    counts.emplace(std::string(id), 1);
  } else {
    ++it->second;
  }
}

void give_back(StringMap<int64_t>& counts, const std::string& id) {
  auto it = counts.find(id);
  if (it == counts.end()) return;
  if (--it->second <= 0) counts.erase(it);
}

int64_t count_of(const StringMap<int64_t>& counts, std::string_view id) {
  auto it = counts.find(id);
  return it == counts.end() ? 0 : it->second;
}
}  // namespace

Result<std::unique_ptr<ChatSlots::Lease>> ChatSlots::acquire(std::string_view account_id,
                                                             std::string_view agent_id) {
  {
    std::lock_guard lock(mu_);
    if (count_of(agents_, agent_id) >= limits_.per_agent) {
      return busy("The agent is already writing " + std::to_string(limits_.per_agent) +
                  " replies at once, its limit; retry in a few seconds.");
    }
    if (count_of(accounts_, account_id) >= limits_.per_account) {
      return busy("The agent's account is already writing " +
                  std::to_string(limits_.per_account) +
                  " replies at once, its limit; retry in a few seconds.");
    }
    if (total_ >= limits_.total) {
      return ApiError{ErrorCode::kUnavailable,
                      "The server is writing as many replies as it can; retry in a few seconds.",
                      kBusyRetryAfterS};
    }
    take(agents_, agent_id);
    take(accounts_, account_id);
    ++total_;
  }
  return std::make_unique<Lease>(*this, std::string(account_id), std::string(agent_id));
}

void ChatSlots::release(const std::string& account_id, const std::string& agent_id) {
  std::lock_guard lock(mu_);
  give_back(agents_, agent_id);
  give_back(accounts_, account_id);
  --total_;
}

int64_t ChatSlots::in_flight() {
  std::lock_guard lock(mu_);
  return total_;
}

}  // namespace parley
