#include "domain/plan_message_hold.h"

#include "domain/usage.h"
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
