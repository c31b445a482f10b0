// Message accounting for chat replies, in the usage_counters table: plan messages per account
// per calendar month (UTC), messages per agent per month (the agent's monthly cap) and engine runs
// per agent per hour (the busy limit, widget and API together). Stateless; every function runs on
// the connection it is given, so checks and counts can share the reply's write transaction.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/usage_counts.h"
#include "store/db.h"

namespace parley {

// Replies an agent may write per hour before 429 agent_busy (a setting of `serve`).
inline constexpr int64_t kDefaultRepliesPerAgentHour = 1000;

struct ReplyLimits {
  int64_t account_messages_per_month = 0;    // the plan's, with the account's overrides
  std::optional<int64_t> agent_monthly_cap;  // the agent's monthlyMessageCap setting
  int64_t agent_replies_per_hour = kDefaultRepliesPerAgentHour;
};

// "m:2026-11" and "h:2026-11-22T10" for a time in UTC.
std::string month_period(int64_t now_ms);
std::string hour_period(int64_t now_ms);

// 403 message_limit_reached, 403 agent_cap_reached or 429 agent_busy (with Retry-After up to the
// next hour) when one more reply would go beyond a limit, checked in that order: the monthly
// limits of stored replies, then the engine runs of the agent's hour. The counts are read with
// one statement.
// With `known`, the counts come from memory once it knows them (domain/usage_counts.h).
Result<void> check_reply_allowed(Connection& c, std::string_view account_id,
                                 std::string_view agent_id, const ReplyLimits& limits,
                                 int64_t now_ms, UsageCounts* known = nullptr);

// 403 message_limit_reached: the account has used the plan's `limit` messages this month.
ApiError message_limit_reached(int64_t limit);

// An engine run of the agent counted with its reply (count_engine_run's count, in the same
// statement): the run's time, and where the hour's count after it goes.
struct EngineRunAt {
  int64_t at_ms = 0;
  int64_t* count = nullptr;
};

// Counts one stored reply on the account's month and the agent's month (the plan's messages),
// unless that would go beyond the plan's messages or the agent's monthly cap: then check() gives
// 403 message_limit_reached or agent_cap_reached (checked in that order), and the caller's write
// must roll back, since both counts may have moved. Each count refuses to pass its limit in one
// statement, so replies committed at the same moment never take a month past it. The counts are not
// waited for: they go to the database with the next statement that is (store/pipelined.h; at once
// on SQLite), and only after it does check() give its verdict. With `account_held`, the account's
// month was counted ahead (domain/plan_message_hold.h) and only the agent's is counted here.
class PendingReplyCount {
 public:
  Result<void> check() const;
  // The months' counts after this reply, as its statements returned them (UsageCounts learns of
  // them); 0 for a month not counted (refused, or the account's held ahead).
  int64_t account_count() const { return account_count_; }
  int64_t agent_count() const { return agent_count_; }
  // Whether check() can refuse: the account's month is counted here, or the agent's under a cap.
  // When it cannot, nothing needs the counts before COMMIT.
  bool may_refuse() const { return !account_held_ || limits_.agent_monthly_cap.has_value(); }

 private:
  friend Result<void> count_reply_within_limits_later(Connection&, std::string_view,
                                                      std::string_view, const ReplyLimits&, int64_t,
                                                      PendingReplyCount&, bool,
                                                      std::optional<EngineRunAt>);
  ReplyLimits limits_;
  bool account_held_ = false;
  int64_t account_count_ = 0;
  int64_t agent_count_ = 0;
};
// With `run`, the agent's engine run is counted too: all of a turn's counts are one statement.
Result<void> count_reply_within_limits_later(Connection& c, std::string_view account_id,
                                             std::string_view agent_id, const ReplyLimits& limits,
                                             int64_t now_ms, PendingReplyCount& out,
                                             bool account_held = false,
                                             std::optional<EngineRunAt> run = std::nullopt);
// Counts one engine run on the agent's hour (the busy limit). Every run counts, answered or not:
// a reply that times out or fails cost the provider as much as one stored. With `count`, the
// hour's count after it is set there (UsageRepo::add_one).
Result<void> count_engine_run(Connection& c, std::string_view agent_id, int64_t now_ms,
                              int64_t* count = nullptr);

// The count of a scope (account or agent id) in a period; 0 when none.
Result<int64_t> usage_count(Connection& c, std::string_view scope_id, std::string_view period);

}  // namespace parley
