// GET /api/v1/agents/{agentId}/conversations and GET /api/v1/conversations/{conversationId}.
#include "domain/conversations.h"

#include "api/routes.h"
#include "domain/agents.h"
#include "http/responses.h"
#include "store/conversation_queries.h"
#include "views/conversation_json.h"
#include "views/pagination.h"

namespace parley {

namespace {
Result<Response> list_conversations(ApiCall& call) {
  std::string_view agent_id = call.param(0);
  PARLEY_ASSIGN_OR_RETURN(auto q, parse_page_query(call.req, kConversationList, agent_id));
  PARLEY_ASSIGN_OR_RETURN(Connection& c, call.app.db.read());
  PARLEY_TRY(get_agent(c, call.account_id(), agent_id));
  PARLEY_ASSIGN_OR_RETURN(auto page, ConversationQueries::list(c, agent_id, q));
  return Response::json(200, page_json<ConversationRecord>(
                                 page, kConversationList, agent_id, write_conversation_summary_json,
                                 [](const ConversationRecord& r) {
                                   return KeysetPosition{r.created_at, r.id};
                                 }));
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
