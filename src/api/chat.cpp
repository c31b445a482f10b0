// POST /api/v1/agents/{agentId}/chat: the chat request parsed and typed here, the flow in
// domain/chat.h, the reply answered as JSON or as a chunked text/plain stream by
// views/chat_answer.h without a thread waiting on the engine.
#include <memory>

#include "api/routes.h"
#include "domain/chat.h"
#include "http/responses.h"
#include "views/chat_answer.h"

namespace parley {

namespace {
Result<ChatRequest> parse_chat_request(const Request& req, std::string_view agent_id,
                                       bool& stream) {
  PARLEY_ASSIGN_OR_RETURN(auto doc, json_body(req));
  FieldReader f(doc);
  ChatRequest r;
  r.agent_id = std::string(agent_id);
  // Limits are checked in the domain on code points; here only presence and types.
  PARLEY_ASSIGN_OR_RETURN(r.message, f.required_string("message"));
  PARLEY_ASSIGN_OR_RETURN(r.conversation_id, f.optional_string("conversationId"));
  PARLEY_ASSIGN_OR_RETURN(r.session_id, f.optional_string("sessionId"));
  PARLEY_ASSIGN_OR_RETURN(auto stream_flag, f.optional_bool("stream"));
  PARLEY_ASSIGN_OR_RETURN(r.time_zone, f.optional_string("timeZone"));
  stream = stream_flag.value_or(false);
  return r;
}
}  // namespace

void register_chat_routes(Router& router, ApiContext& app) {
  add_api_route(
      router, app, "POST", "/api/v1/agents/{agentId}/chat", Scope::kChat, Execution::kPool,
      [](ApiCall& call) -> Result<Response> {
        bool stream = false;
        PARLEY_ASSIGN_OR_RETURN(auto request, parse_chat_request(call.req, call.param(0), stream));
        request.waited_ms = call.req.waited_ms();
        PARLEY_ASSIGN_OR_RETURN(auto turn, ChatTurn::prepare(call.app.chat, call.account_id(), request));
        return answer_chat(std::make_shared<ChatTurn>(std::move(turn)), call.app.reply_pool, call.req,
                           chat_form(call.req, stream));
      });
}

}  // namespace parley
