#include "domain/usage.h"

#include "core/time_format.h"
#include "store/usage_repo.h"

namespace parley {

std::string month_period(int64_t now_ms) {
  char buf[24];
  format_timestamp_to(now_ms, buf);
  return "m:" + std::string(buf, 7);
}

std::string hour_period(int64_t now_ms) {
  char buf[24];
  format_timestamp_to(now_ms, buf);
  return "h:" + std::string(buf, 13);
}

Result<int64_t> usage_count(Connection& c, std::string_view scope_id, std::string_view period) {
  return UsageRepo::count(c, scope_id, period);
}

ApiError message_limit_reached(int64_t limit) {
  return {ErrorCode::kMessageLimitReached, "The account has used all " + std::to_string(limit) +
                                               " messages of its plan this month."};
}

namespace {
ApiError agent_cap_reached(int64_t cap) {
  return {ErrorCode::kAgentCapReached,
          "The agent has reached its monthly cap of " + std::to_string(cap) + " messages."};
}
}  // namespace

Result<void> check_reply_allowed(Connection& c, std::string_view account_id,
                                 std::string_view agent_id, const ReplyLimits& limits,
                                 int64_t now_ms, UsageCounts* known) {
  const std::string month = month_period(now_ms);
  const std::string hour = hour_period(now_ms);
  const std::array<UsageRepo::ScopePeriod, 3> asked{
      {{account_id, month}, {agent_id, month}, {agent_id, hour}}};
  PARLEY_ASSIGN_OR_RETURN(auto used, known ? known->read(c, asked) : UsageRepo::counts(c, asked));
  if (used[0] >= limits.account_messages_per_month)
    return message_limit_reached(limits.account_messages_per_month);
  if (limits.agent_monthly_cap && used[1] >= *limits.agent_monthly_cap)
    return agent_cap_reached(*limits.agent_monthly_cap);
  if (used[2] >= limits.agent_replies_per_hour) {
    constexpr int64_t kHourMs = 60 * 60 * 1000;
    int64_t retry_after_s = (kHourMs - now_ms % kHourMs + 999) / 1000;
    return ApiError{ErrorCode::kAgentBusy,
                    "The agent is answering too many messages (over " +
                        std::to_string(limits.agent_replies_per_hour) +
                        " per hour); try again later.",
                    retry_after_s};
  }
  return {};
}

Result<void> count_reply_within_limits_later(Connection& c, std::string_view account_id,
                                             std::string_view agent_id, const ReplyLimits& limits,
                                             int64_t now_ms, PendingReplyCount& out,
                                             bool account_held, std::optional<EngineRunAt> run) {
  const std::string month = month_period(now_ms);
  out.limits_ = limits;
  out.account_held_ = account_held;
  out.account_count_ = 0;
  std::string hour;
  std::vector<UsageRepo::Add> adds;
  adds.reserve(3);
  if (!account_held) {
    adds.push_back({account_id, month, limits.account_messages_per_month, &out.account_count_});
  }
  adds.push_back(
      {agent_id, month, limits.agent_monthly_cap.value_or(UsageRepo::kNoCap), &out.agent_count_});
  if (run) {
    hour = hour_period(run->at_ms);
    adds.push_back({agent_id, hour, UsageRepo::kNoCap, run->count});
  }
  return UsageRepo::add_later(c, adds);
}

Result<void> PendingReplyCount::check() const {
  if (!account_held_ && account_count_ == 0)
    return message_limit_reached(limits_.account_messages_per_month);
  if (limits_.agent_monthly_cap && agent_count_ == 0)
    return agent_cap_reached(*limits_.agent_monthly_cap);
  return {};
}

Result<void> count_engine_run(Connection& c, std::string_view agent_id, int64_t now_ms,
                              int64_t* count) {
  return UsageRepo::add_one(c, agent_id, hour_period(now_ms), count);
}

}  // namespace parley
