// GET /api/v1/agents/{agentId}/conversations and GET /api/v1/conversations/{conversationId}.
#include "domain/conversations.h"

#include "api/routes.h"
#include "http/responses.h"
#include "views/conversation_json.h"
#include "views/list_answers.h"

namespace parley {

namespace {
Result<Response> list_conversations(ApiCall& call) {
  return conversations_page(call.app.db, call.account_id(), call.param(0), call.req);
}

Result<Response> get_conversation_handler(ApiCall& call) {
  PARLEY_ASSIGN_OR_RETURN(Connection& c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto conv,
                          get_conversation(c, call.account_id(), call.param(0)));
  return data_response(200, [&](JsonWriter& w) { write_conversation_json(w, conv); });
}
}  // namespace

void register_conversation_routes(Router& router, ApiContext& app) {
  add_api_route(router, app, "GET", "/api/v1/agents/{agentId}/conversations",
                Scope::kConversationsRead, Execution::kPool, list_conversations);
  add_api_route(router, app, "GET", "/api/v1/conversations/{conversationId}",
                Scope::kConversationsRead, Execution::kPool, get_conversation_handler);
}

}  // namespace parley
