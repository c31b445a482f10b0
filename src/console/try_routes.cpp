// The dashboard's "try it" panel: a team member chats with an agent the way a visitor does through
// the widget (the same flow, JSON or streamed reply, a widget conversation whose visitor is the
// member), but private agents answer too and the widget's origin, country and per-visitor rules do
// not apply. Plan messages are counted as for any chat.
#include "console/console_routes.h"
#include "console/gate.h"
#include "domain/chat.h"
#include "http/responses.h"
#include "views/chat_answer.h"

namespace parley {

namespace {
Result<Response> send(ConsoleCall& call) {
  if (call.app.chat == nullptr || call.app.reply_pool == nullptr)
    return ApiError{ErrorCode::kUnavailable, "Chat is off on this server."};
  PARLEY_ASSIGN_OR_RETURN(auto doc, json_body(call.req));
  FieldReader f(doc);
  ChatRequest r;
  r.agent_id = std::string(call.param(0));
  PARLEY_ASSIGN_OR_RETURN(r.message, f.required_string("message"));
  PARLEY_ASSIGN_OR_RETURN(r.conversation_id, f.optional_string("conversationId"));
  PARLEY_ASSIGN_OR_RETURN(r.time_zone, f.optional_string("timeZone"));
  PARLEY_ASSIGN_OR_RETURN(auto stream, f.optional_bool("stream"));
  WidgetVisitor visitor;
  visitor.visitor_id = std::string(kDashboardVisitorPrefix) + call.who.member.id;
  visitor.in_dashboard = true;
  r.widget = std::move(visitor);
  r.waited_ms = call.req.waited_ms();
  PARLEY_ASSIGN_OR_RETURN(auto turn, ChatTurn::prepare(*call.app.chat, call.account_id(), r));
  return answer_chat(std::make_shared<ChatTurn>(std::move(turn)), *call.app.reply_pool, call.req,
                     chat_form(call.req, stream.value_or(false)));
}
}  // namespace

void register_console_try_routes(Router& router, ConsoleContext& app) {
  add_console_route(router, app, "POST", "/console/v1/agents/{agentId}/messages", Role::kViewer, Execution::kPool,
                    send);
}

}  // namespace parley
