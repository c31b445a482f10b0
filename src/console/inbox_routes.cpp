// The live-chat inbox of an agent: the conversations whose visitors asked for a person
// (`requested`) or that a team member has (`active`), oldest first, as a list and as a stream of
// server-sent events that says the list again whenever it or one of its conversations changes
// (views/change_feed.h). Any team member may watch.
#include "console/console_routes.h"
#include "console/gate.h"
#include "domain/agents.h"
#include "http/responses.h"
#include "store/conversation_queries.h"
#include "views/change_feed.h"
#include "views/conversation_json.h"

namespace parley {

namespace {
// A member's inboxes open at once (tabs, agents).
constexpr size_t kStreamsPerMember = 10;

Result<std::string> inbox_json(Database& db, std::string_view account_id, std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(Connection& c, db.read());
  PARLEY_TRY(get_agent(c, account_id, agent_id));
  PARLEY_ASSIGN_OR_RETURN(auto chats, ConversationQueries::live_chats(c, agent_id));
  JsonWriter w;
  w.begin_object().key("data").begin_array();
  for (const auto& conv : chats) write_conversation_summary_json(w, conv);
  w.end_array().end_object();
  return w.str();
}

Result<Response> list(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(std::string body, inbox_json(call.app.db, call.account_id(), call.param(0)));
  return Response::json(200, std::move(body));
}

// The stream ends (with an `error` event) as soon as its token does: a logout, an expired session or
// a removed member stops seeing the inbox within one look.
Result<Response> watch(ConsoleCall& call) {
  if (call.app.feed == nullptr) return ApiError{ErrorCode::kUnavailable, "Live streams are off on this server."};
  return call.app.feed->stream(
      "inbox",
      ChangeFeed::whole([s = call.services, token = std::string(call.token), account = call.account_id(),
                         agent = std::string(call.param(0))]() mutable -> Result<std::string> {
        PARLEY_TRY(authenticate_member_token(s, token));
        return inbox_json(s.db, account, agent);
      }),
      {{"member:" + call.who.member.id, kStreamsPerMember}});
}
}  // namespace

void register_console_inbox_routes(Router& router, ConsoleContext& app) {
  add_console_route(router, app, "GET", "/console/v1/agents/{agentId}/live-chats", Role::kViewer, Execution::kPool,
                    list);
  add_console_route(router, app, "GET", "/console/v1/agents/{agentId}/live-chats/events", Role::kViewer,
                    Execution::kPool, watch);
}

}  // namespace parley
