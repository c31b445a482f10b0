#include "widget/widget_gate.h"

#include "domain/agent_cache.h"
#include "domain/chat.h"
#include "http/responses.h"
#include "widget/widget_limits.h"

namespace parley {

namespace {
// The agent (and conversation) a widget request is for; 404 when missing. The visitor's
// conversation is checked again against its visitorId once the body is read.
Result<void> find_target(WidgetCall& call, WidgetTarget target) {
  PARLEY_ASSIGN_OR_RETURN(Connection& c, call.app.db.read());
  std::string_view id = call.req.params.at(0);
  std::string agent_id(id);
  if (target == WidgetTarget::kConversation) {
    PARLEY_ASSIGN_OR_RETURN(call.conversation, find_conversation_any(c, id));
    if (!call.conversation || call.conversation->channel != "widget")
      return ApiError::not_found("No widget conversation '" + std::string(id) + "'.");
    agent_id = call.conversation->agent_id;
  }
  std::shared_ptr<const LoadedAgent> agent;
  if (call.app.chat.agents != nullptr) {
    PARLEY_ASSIGN_OR_RETURN(agent, call.app.chat.agents->find_any(agent_id));
  } else {
    PARLEY_ASSIGN_OR_RETURN(auto record, AgentRepo::find_any(c, agent_id));
    if (record) agent = load_settings(std::move(*record));
  }
  if (!agent) return ApiError::not_found("No agent '" + agent_id + "'.");
  call.agent = agent->record;
  call.settings = agent->settings;
  call.rules = read_widget_rules(*call.settings);
  return {};
}

Result<void> check_visitor(WidgetCall& call) {
  if (!call.conversation) return {};
  std::string visitor;
  if (call.req.method == "GET") {
    visitor = call.req.query_param("visitorId");
    if (visitor.empty()) return ApiError::invalid("Query parameter 'visitorId' is required.");
  } else {
    FieldReader f(call.body);
    PARLEY_ASSIGN_OR_RETURN(visitor, f.required_string("visitorId"));
  }
  if (visitor.starts_with(kDashboardVisitorPrefix))
    return ApiError::invalid("'visitorId' may not begin with dashboard_ (the dashboard's own).");
  if (call.conversation->visitor_id != visitor) {
    return ApiError::not_found("No widget conversation '" + call.conversation->id +
                               "' of this visitor.");
  }
  return {};
}

// An opaque origin ("null": a sandboxed frame, a file) is never echoed.
void add_cors(Response& res, std::string_view origin) {
  if (!origin.empty() && origin != "null") res.header("Access-Control-Allow-Origin", std::string(origin));
  res.header("Vary", "Origin");
}

Result<void> check_rate(WidgetCall& call) {
  if (!call.app.widget_limits) return {};
  call.address = call.app.widget_limits->client_address(call.req);
  return call.app.widget_limits->check_request(call.address);
}

Result<Response> run(WidgetCall& call, const WidgetHandler& handler) {
  PARLEY_TRY(check_rate(call));
  if (call.agent.is_private) {
    return ApiError{ErrorCode::kAgentPrivate,
                    "The agent is private; it answers only in the dashboard."};
  }
  PARLEY_TRY(check_country(call.rules, call.country));
  if (call.req.method != "GET") {
    PARLEY_ASSIGN_OR_RETURN(call.body, json_body(call.req));
  }
  PARLEY_TRY(check_visitor(call));
  return handler(call);
}
}  // namespace

void add_widget_route(Router& router, WidgetContext& app, std::string_view method, std::string_view pattern,
                      WidgetTarget target, Execution execution, WidgetHandler handler) {
  std::string allowed_methods = std::string(method) + ", OPTIONS";
  router.add(method, pattern,
             {[&app, target, handler = std::move(handler)](Request& req) -> Response {
                WidgetCall call{req, app, {app.db, app.clock, app.random}};
                std::string_view origin = req.header("Origin");
                auto found = find_target(call, target);
                if (!found.ok()) {
                  Response res = error_response(found.error());
                  add_cors(res, origin);
                  return res;
                }
                auto allowed = check_origin(call.rules, origin);
                if (!allowed.ok()) {
                  // The page may read its refusal (and say so); a preflight stays refused, so a
                  // refused page never sends a message.
                  Response res = error_response(allowed.error());
                  add_cors(res, origin);
                  return res;
                }
                if (!app.widget.country_header.empty())
                  call.country = normalise_country(req.header(app.widget.country_header));
                auto result = run(call, handler);
                Response res = result.ok() ? std::move(result).value() : error_response(result.error());
                add_cors(res, origin);
                return res;
              },
              execution});
  // The browser's preflight: answered with CORS headers only for an allowed origin.
  router.add("OPTIONS", pattern,
             {[&app, target, allowed_methods](Request& req) -> Response {
                WidgetCall call{req, app, {app.db, app.clock, app.random}};
                std::string_view origin = req.header("Origin");
                auto found = find_target(call, target);
                if (found.ok()) found = check_origin(call.rules, origin);
                if (found.ok()) found = check_rate(call);
                if (!found.ok()) {
                  Response res = error_response(found.error());
                  res.header("Vary", "Origin");
                  return res;
                }
                Response res;
                res.status = 204;
                add_cors(res, origin);
                if (!origin.empty()) {
                  res.header("Access-Control-Allow-Methods", allowed_methods);
                  res.header("Access-Control-Allow-Headers", "Content-Type");
                  res.header("Access-Control-Max-Age", "600");
                }
                res.header("Allow", allowed_methods);
                return res;
              },
              Execution::kPool});
}

}  // namespace parley
