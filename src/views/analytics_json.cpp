#include "views/analytics_json.h"

#include <algorithm>

#include "core/time_zone.h"

namespace parley {

namespace {
// The most asked topics listed per day, and over the whole period.
constexpr size_t kTopicsPerDay = 5;
constexpr size_t kTopicsPerPeriod = 10;

void rate(JsonWriter& w, int64_t part, int64_t whole) {
  if (whole <= 0) {
    w.null();
    return;
  }
  // Four decimals: a rate, not a measurement.
  w.number(static_cast<double>(part * 10000 / whole) / 10000.0);
}

void write_figures(JsonWriter& w, const Figures& f, size_t topics) {
  w.key("conversations").integer(f.conversations);
  w.key("visitorMessages").integer(f.visitor_messages);
  w.key("agentReplies").integer(f.agent_replies);
  w.key("answered").integer(f.answered);
  w.key("lowConfidence").integer(f.low_confidence);
  w.key("fallbacks").integer(f.fallbacks);
  w.key("handoffs").integer(f.handoffs);
  w.key("liveChats").integer(f.live_chats);
  w.key("ended").integer(f.ended);
  w.key("resolved").integer(f.resolved);
  w.key("resolutionRate");
  rate(w, f.resolved, f.ended);
  w.key("handoffRate");
  rate(w, f.handoffs, f.conversations);
  w.key("csat").begin_object();
  w.key("average");
  if (f.csat_count > 0) {
    w.number(static_cast<double>(f.csat_sum * 100 / f.csat_count) / 100.0);
  } else {
    w.null();
  }
  w.key("count").integer(f.csat_count);
  w.key("distribution").begin_object();
  for (int i = 0; i < 5; ++i) w.key(std::to_string(i + 1)).integer(f.csat[i]);
  w.end_object();
  w.end_object();
  w.key("thumbs").begin_object();
  w.key("up").integer(f.thumbs_up);
  w.key("down").integer(f.thumbs_down);
  w.end_object();
  w.key("channels").begin_object();
  for (const auto& [name, n] : f.channels) {
    if (n > 0) w.key(name).integer(n);
  }
  w.end_object();
  // Most conversations first, ties in name order (the map's).
  std::vector<const std::pair<const std::string, int64_t>*> ranked;
  ranked.reserve(f.topics.size());
  for (const auto& entry : f.topics) {
    if (entry.second > 0) ranked.push_back(&entry);
  }
  const size_t shown = std::min(topics, ranked.size());
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(shown),
                    ranked.end(), [](const auto* a, const auto* b) {
                      return a->second != b->second ? a->second > b->second : a->first < b->first;
                    });
  w.key("topics").begin_array();
  for (size_t i = 0; i < shown; ++i) {
    w.begin_object()
        .key("topic")
        .string(ranked[i]->first)
        .key("conversations")
        .integer(ranked[i]->second);
    w.end_object();
  }
  w.end_array();
}
}  // namespace

void write_analytics_json(JsonWriter& w, const AgentAnalytics& a) {
  w.begin_object();
  w.key("agentId").string(a.agent_id);
  w.key("timeZone").string(a.time_zone);
  w.key("from").string(format_day(a.first));
  w.key("to").string(format_day(a.last));
  w.key("days").begin_array();
  for (const auto& d : a.days) {
    w.begin_object();
    w.key("date").string(format_day(d.day));
    write_figures(w, d.figures, kTopicsPerDay);
    w.end_object();
  }
  w.end_array();
  w.key("totals").begin_object();
  write_figures(w, a.totals, kTopicsPerPeriod);
  w.end_object();
  w.end_object();
}

}  // namespace parley
