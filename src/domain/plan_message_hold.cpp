#include "domain/plan_message_hold.h"

#include <array>
#include <optional>

#include "store/usage_repo.h"

namespace parley {

Result<std::unique_ptr<PlanMessageHold>> PlanMessageHold::take(Database& db, std::string account_id,
                                                               int64_t now_ms, int64_t limit) {
  if (!db.shared_by_nodes()) return std::unique_ptr<PlanMessageHold>();
  std::string month = month_period(now_ms);
  bool added = false;
  PARLEY_TRY(db.write_volatile([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(added, UsageRepo::add_one_below(c, account_id, month, limit));
    return {};
  }));
  if (!added) return message_limit_reached(limit);
  return std::unique_ptr<PlanMessageHold>(
      new PlanMessageHold(db, std::move(account_id), std::move(month)));
}

Result<std::unique_ptr<PlanMessageHold>> PlanMessageHold::check_and_take(
    Database& db, Connection& read, std::string account_id, std::string_view agent_id,
    const ReplyLimits& limits, int64_t now_ms, UsageCounts* known) {
  if (!db.shared_by_nodes()) {
    PARLEY_TRY(check_reply_allowed(read, account_id, agent_id, limits, now_ms, known));
    return std::unique_ptr<PlanMessageHold>();
  }
  std::string month = month_period(now_ms);
  const std::string hour = hour_period(now_ms);
  const std::array<UsageRepo::Limit, 2> agents_limits{
      {{agent_id, month, limits.agent_monthly_cap.value_or(UsageRepo::kNoCap)},
       {agent_id, hour, limits.agent_replies_per_hour}}};
  // Refused: check_reply_allowed's read of the counts tells which limit, in its order; counts that
  // allow one more after all (a message given back between the two statements) leave the plan's
  // refusal, as the statement found it.
  std::optional<int64_t> made;
  Result<void> verdict;
  PARLEY_TRY(db.write_volatile([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(
        made, UsageRepo::add_one_within(c, {account_id, month, limits.account_messages_per_month},
                                        agents_limits));
    verdict = made ? Result<void>() : check_reply_allowed(c, account_id, agent_id, limits, now_ms);
    return {};
  }));
  if (!made) {
    if (!verdict.ok()) return verdict.error();
    return message_limit_reached(limits.account_messages_per_month);
  }
  return std::unique_ptr<PlanMessageHold>(
      new PlanMessageHold(db, std::move(account_id), std::move(month)));
}

PlanMessageHold::~PlanMessageHold() {
  if (kept_) return;
  db_.write_async([account_id = std::move(account_id_), month = std::move(month_)](Connection& c) {
    return UsageRepo::subtract_one(c, account_id, month);
  });
}

Result<void> PlanMessageHold::give_back_in(Connection& c) const {
  return UsageRepo::subtract_one(c, account_id_, month_);
}

}  // namespace parley
