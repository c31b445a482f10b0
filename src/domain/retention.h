// Conversation retention: an account may keep its conversations for a number of days (counted
// from their last activity); older ones are deleted with their messages, events and webhook
// deliveries (store/conversation_purge.h). The setting is the account's (`retentionDays`, NULL:
// kept for ever); the purge runs in small batches, each its own short write transaction, so that
// chats committing between them never wait long (workers/retention_worker.h runs it).
// Stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include "store/account_repo.h"
#include "store/conversation_purge.h"
#include "store/services.h"

namespace parley {

inline constexpr int64_t kMaxRetentionDays = 36'500;  // a hundred years: kept for ever is NULL

// 400 naming `retentionDays` unless nothing (for ever) or 1 to kMaxRetentionDays.
Result<void> check_retention_days(std::optional<int64_t> days);
// Sets (1 to kMaxRetentionDays) or clears (nothing) the account's retention; 400 naming
// `retentionDays` when out of range, 404 for no such account.
Result<Account> set_account_retention(Services& s, std::string_view account_id,
                                      std::optional<int64_t> days);

struct RetentionPass {
  int64_t batch = 100;  // conversations per transaction
  // Asked before each batch; false stops the pass (the node lost its lease, or is stopping).
  std::function<bool()> keep_going = [] { return true; };
};

// Deletes, for every account with a retention, its conversations whose last activity is older
// than that many days before now, a batch at a time; returns what it deleted.
Result<PurgeCounts> purge_expired_conversations(Services& s, const RetentionPass& pass);

}  // namespace parley
