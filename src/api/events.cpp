// GET /api/v1/agents/{agentId}/events/{event} and .../events/{event}/samples.
#include <charconv>

#include "http/responses.h"
#include "api/routes.h"
#include "domain/agents.h"
#include "events/event_query.h"

namespace parley {

namespace {
constexpr int64_t kDefaultLimit = 20;
constexpr int64_t kMaxLimit = 100;
constexpr int64_t kSampleCount = 3;

Result<EventKind> event_kind(ApiCall& call) {
  std::string name(call.param(1));
  auto kind = parse_event_kind(name);
  if (!kind)
    return ApiError::invalid("Unknown event '" + name + "'. Events: " + all_event_list() + ".");
  return *kind;
}

Result<int64_t> read_limit(const Request& req) {
  bool found = false;
  std::string text = req.query_param("limit", &found);
  if (!found) return kDefaultLimit;
  int64_t limit = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), limit);
  if (text.empty() || ec != std::errc() || p != text.data() + text.size() || limit < 1 ||
      limit > kMaxLimit) {
    return ApiError::invalid("'limit' must be an integer from 1 to 100.");
  }
  return limit;
}

Response events_response(const std::vector<std::string>& events, bool sample) {
  JsonWriter w;
  w.begin_object().key("data").begin_array();
  for (const auto& e : events) w.raw(e);
  w.end_array();
  if (sample) w.key("sample").boolean(true);
  w.end_object();
  return json_response(200, w);
}

Result<Response> list_events(ApiCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto kind, event_kind(call));
  PARLEY_TRY(require_scope(call, event_data_scope(kind)));
  PARLEY_ASSIGN_OR_RETURN(int64_t limit, read_limit(call.req));
  PARLEY_ASSIGN_OR_RETURN(auto agent, account_agent(call.app, call.account_id(), call.param(0)));
  EventAgent ea{agent->record.id, agent->record.name, *agent->settings};
  PARLEY_ASSIGN_OR_RETURN(Connection& c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto events, latest_events(c, ea, kind, limit));
  return events_response(events, false);
}

Result<Response> sample_events(ApiCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto kind, event_kind(call));
  PARLEY_ASSIGN_OR_RETURN(auto agent, account_agent(call.app, call.account_id(), call.param(0)));
  EventAgent ea{agent->record.id, agent->record.name, *agent->settings};
  PARLEY_ASSIGN_OR_RETURN(Connection& c, call.app.db.read());
  if (call.key.allows(event_data_scope(kind))) {
    PARLEY_ASSIGN_OR_RETURN(auto events, latest_events(c, ea, kind, kSampleCount));
    if (!events.empty()) return events_response(events, false);
  }
  JsonWriter w;
  write_sample_event(w, ea, kind, call.app.clock.now_ms());
  return events_response({w.str()}, true);
}
}  // namespace

void register_event_routes(Router& router, ApiContext& app) {
  add_api_route(router, app, "GET", "/api/v1/agents/{agentId}/events/{event}", Scope::kAgentsRead,
                Execution::kPool, list_events);
  add_api_route(router, app, "GET", "/api/v1/agents/{agentId}/events/{event}/samples",
                Scope::kAgentsRead, Execution::kPool, sample_events);
}

}  // namespace parley
