// An agent's figures over a period of days in its account's time zone, read from the daily
// roll-ups (store/figure_repo.h), and the sweeper step that ends idle conversations. Shared by
// the console and the admin CLI. Stateless; safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/figure_repo.h"
#include "store/services.h"

namespace parley {

// The longest period one request may ask for, in days (both ends included).
inline constexpr int64_t kMaxAnalyticsDays = 366;
// The period when `from` and `to` are both absent: the last 30 days, today included.
inline constexpr int64_t kDefaultAnalyticsDays = 30;

struct AgentAnalytics {
  std::string agent_id;
  std::string time_zone;
  int64_t first = 0;  // day numbers, both included
  int64_t last = 0;
  std::vector<FigureDay> days;  // every day of the period, oldest first (zeros where none)
  Figures totals;
};

// `from` and `to` as given ("YYYY-MM-DD"; absent: see kDefaultAnalyticsDays, or the other end
// and 30 days). 400 naming the field when malformed, reversed or longer than kMaxAnalyticsDays;
// 404 when the agent is not the account's.
Result<AgentAnalytics> agent_analytics(Services& s, std::string_view account_id,
                                       std::string_view agent_id,
                                       const std::optional<std::string>& from,
                                       const std::optional<std::string>& to);

// Sets the account's time zone (an IANA name; 400 naming `field` otherwise). Days already counted
// keep the zone they were counted in; conversations started afterwards count in the new one.
Result<void> set_account_time_zone(Services& s, std::string_view account_id, std::string_view zone,
                                   std::string_view field = "timeZone");

// Ends the conversations idle for kConversationIdleMs (at most `batch`, each in its own short
// transaction): their figures count them as ended. Returns how many it ended.
Result<int64_t> end_idle_conversations(Services& s, int64_t batch = 200);

}  // namespace parley
