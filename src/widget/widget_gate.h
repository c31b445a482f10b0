// The gate in front of every /widget/v1 route (public: no key, no member). It finds the agent the
// request is for (from the path's agent id, or through the path's conversation), checks the
// page's Origin against the agent's allowed domains, refuses private agents and blocked
// countries, and answers CORS: Access-Control-Allow-Origin echoes the page's origin on every
// response, with Vary: Origin (a refused page may read its refusal, which holds nothing else), and
// an OPTIONS preflight is answered on each widget path for allowed origins only, so a refused page
// cannot send anything that needs one (a JSON POST). No other part of the server sends CORS headers.
// Order: agent or conversation (404) -> origin (403 origin_not_allowed) -> requests per client
// address (429 rate_limited, widget/widget_limits.h) -> private (403 agent_private) -> country
// (403 country_blocked) -> body (400) -> visitor (404) -> handler.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <rapidjson/document.h>

#include "widget/widget_context.h"
#include "http/router.h"
#include "store/services.h"
#include "domain/widget_rules.h"
#include "store/agent_repo.h"
#include "store/conversation_repo.h"

namespace parley {

// What a widget path names: an agent ({agentId}) or one of a visitor's conversations
// ({conversationId}; the request then carries the same visitorId that started it).
enum class WidgetTarget { kAgent, kConversation };

struct WidgetCall {
  Request& req;
  WidgetContext& app;
  Services services;
  AgentRecord agent = {};
  std::shared_ptr<const AgentSettings> settings = {};  // the agent's, read once (agent_cache.h)
  WidgetRules rules = {};
  std::optional<std::string> country = {};             // from the trusted header, when configured
  std::optional<ConversationRecord> conversation = {};  // for WidgetTarget::kConversation
  rapidjson::Document body = {};                        // the JSON body of a POST
  std::string address = {};  // the client's (WidgetLimits::client_address)
};

using WidgetHandler = std::function<Result<Response>(WidgetCall&)>;

// Registers `method pattern` behind the widget gate, and OPTIONS on the same pattern.
void add_widget_route(Router& router, WidgetContext& app, std::string_view method, std::string_view pattern,
                      WidgetTarget target, Execution execution, WidgetHandler handler);

}  // namespace parley
