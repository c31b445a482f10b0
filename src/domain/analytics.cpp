#include "domain/analytics.h"

#include "core/time_zone.h"
#include "domain/agents.h"
#include "store/account_repo.h"
#include "store/conversation_repo.h"

namespace parley {

namespace {
Result<std::optional<int64_t>> day_param(const std::optional<std::string>& text,
                                         std::string_view field) {
  if (!text) return std::optional<int64_t>{};
  int64_t day = 0;
  if (!parse_day(*text, day)) {
    return ApiError::invalid("'" + std::string(field) + "' must be a date written YYYY-MM-DD.");
  }
  return std::optional<int64_t>{day};
}
}  // namespace

Result<AgentAnalytics> agent_analytics(Services& s, std::string_view account_id,
                                       std::string_view agent_id,
                                       const std::optional<std::string>& from,
                                       const std::optional<std::string>& to) {
  PARLEY_ASSIGN_OR_RETURN(auto first, day_param(from, "from"));
  PARLEY_ASSIGN_OR_RETURN(auto last, day_param(to, "to"));
  PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto account, AccountRepo::find(c, account_id));
  if (!account) return ApiError::not_found("No account " + std::string(account_id) + ".");
  PARLEY_TRY(get_agent(c, account_id, agent_id));
  if (!last) {
    last = first ? *first + kDefaultAnalyticsDays - 1
                 : local_day(s.clock.now_ms(), account->time_zone);
  }
  if (!first) first = *last - kDefaultAnalyticsDays + 1;
  if (*first > *last) return ApiError::invalid("'from' must not be after 'to'.");
  if (*last - *first + 1 > kMaxAnalyticsDays) {
    return ApiError::invalid("'to' must be at most " + std::to_string(kMaxAnalyticsDays) +
                             " days from 'from' (both included).");
  }
  AgentAnalytics out;
  out.agent_id = std::string(agent_id);
  out.time_zone = account->time_zone;
  out.first = *first;
  out.last = *last;
  PARLEY_ASSIGN_OR_RETURN(auto stored, FigureRepo::days(c, agent_id, *first, *last));
  size_t at = 0;
  for (int64_t day = *first; day <= *last; ++day) {
    if (at < stored.size() && stored[at].day == day) {
      out.totals.add(stored[at].figures);
      out.days.push_back(std::move(stored[at++]));
    } else {
      out.days.push_back(FigureDay{day, {}});
    }
  }
  return out;
}

Result<void> set_account_time_zone(Services& s, std::string_view account_id, std::string_view zone,
                                   std::string_view field) {
  if (!is_time_zone(zone)) {
    return ApiError::invalid(
        "'" + std::string(field) +
        "' must be a time zone of the IANA database, such as Europe/Paris or UTC.");
  }
  bool found = false;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(found,
                            AccountRepo::set_time_zone(c, account_id, zone, s.clock.now_ms()));
    return {};
  }));
  if (!found) return ApiError::not_found("No account " + std::string(account_id) + ".");
  return {};
}

Result<int64_t> end_idle_conversations(Services& s, int64_t batch) {
  const int64_t now = s.clock.now_ms();
  std::vector<std::string> idle;
  {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
    PARLEY_ASSIGN_OR_RETURN(idle, FigureRepo::idle(c, now - kConversationIdleMs, batch));
  }
  for (const auto& id : idle) {
    // A message that arrives meanwhile moves the last activity: refresh then finds it open. The
    // conversation's row is held first (FigureRepo); one deleted meanwhile has nothing to end.
    PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
      PARLEY_ASSIGN_OR_RETURN(bool exists, ConversationRepo::lock(c, id));
      if (!exists) return {};
      return FigureRepo::refresh(c, id, now);
    }));
  }
  return static_cast<int64_t>(idle.size());
}

}  // namespace parley
