#include "domain/retention.h"

#include "domain/accounts.h"
#include "store/agent_repo.h"

namespace parley {

Result<void> check_retention_days(std::optional<int64_t> days) {
  if (days && (*days < 1 || *days > kMaxRetentionDays)) {
    return ApiError::invalid("'retentionDays' must be a whole number of days from 1 to " +
                             std::to_string(kMaxRetentionDays) +
                             ", or null to keep conversations for ever.");
  }
  return {};
}

Result<Account> set_account_retention(Services& s, std::string_view account_id,
                                      std::optional<int64_t> days) {
  PARLEY_TRY(check_retention_days(days));
  bool found = false;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(found,
                            AccountRepo::set_retention(c, account_id, days, s.clock.now_ms()));
    return {};
  }));
  if (!found) return ApiError::not_found("No account " + std::string(account_id) + ".");
  return get_account(s, account_id);
}

Result<PurgeCounts> purge_expired_conversations(Services& s, const RetentionPass& pass) {
  constexpr int64_t kDayMs = 86'400'000;
  PurgeCounts total;
  std::vector<std::pair<std::string, int64_t>> accounts;
  {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
    PARLEY_ASSIGN_OR_RETURN(accounts, AccountRepo::with_retention(c));
  }
  for (const auto& [account_id, days] : accounts) {
    std::vector<AgentRecord> agents;
    {
      PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
      PARLEY_ASSIGN_OR_RETURN(agents, AgentRepo::list(c, account_id));
    }
    for (const auto& agent : agents) {
      for (;;) {
        if (!pass.keep_going()) return total;
        // The cutoff is taken per batch: a conversation that became active again meanwhile is
        // not old any more, and each DELETE checks the cutoff again on the row as a turn that
        // committed meanwhile left it.
        const int64_t before = s.clock.now_ms() - days * kDayMs;
        PurgeCounts batch;
        size_t picked = 0;
        PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
          batch = {};
          PARLEY_ASSIGN_OR_RETURN(auto ids,
                                  conversations_inactive_since(c, agent.id, before, pass.batch));
          picked = ids.size();
          for (const auto& id : ids) {
            PARLEY_ASSIGN_OR_RETURN(auto one, purge_conversation(c, id, before));
            batch += one;
          }
          return {};
        }));
        total += batch;
        if (static_cast<int64_t>(picked) < pass.batch) break;
      }
    }
  }
  return total;
}

}  // namespace parley
