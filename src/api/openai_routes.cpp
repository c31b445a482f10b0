// The OpenAI-compatible front (/openai/v1): Chat Completions and the model list, behind the
// public API's gate chain (key, rate limit, plan, scope; errors in OpenAI's shape), answering a
// chat turn through the same domain path as POST /api/v1/agents/{agentId}/chat (domain/chat.h,
// views/chat_answer.h) in OpenAI's shapes (api/openai_answer.h). docs/openai-compatible.md.
#include <memory>

#include "api/openai_answer.h"
#include "api/openai_errors.h"
#include "api/openai_request.h"
#include "api/routes.h"
#include "core/random.h"
#include "domain/agents.h"
#include "http/responses.h"

namespace parley {

namespace {
void write_model(JsonWriter& w, const AgentRecord& agent) {
  w.begin_object();
  w.key("id").string(agent.id);
  w.key("object").string("model");
  w.key("created").integer(agent.created_at / 1000);
  w.key("owned_by").string(agent.account_id);
  w.key("name").string(agent.name);
  w.end_object();
}

Result<Response> list_models(ApiCall& call) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto agents, AgentRepo::list(c, call.account_id()));
  JsonWriter w;
  w.begin_object().key("object").string("list").key("data").begin_array();
  for (const auto& a : agents) write_model(w, a);
  w.end_array().end_object();
  return json_response(200, w);
}

Result<Response> get_model(ApiCall& call) {
  auto agent = account_agent(call.app, call.account_id(), call.param(0));
  if (!agent.ok()) {
    if (agent.error().code == ErrorCode::kNotFound)
      return openai_error_response(unknown_model(call.param(0)));
    return agent.error();
  }
  JsonWriter w;
  write_model(w, (*agent)->record);
  return json_response(200, w);
}

// A refusal of ChatTurn::prepare in OpenAI's terms: a missing agent is an unknown model; what
// the domain says of a session or conversation names the parameter that carried it.
OpenAiFault prepare_fault(ApiError error, const OpenAiChatRequest& r, bool session_in_metadata) {
  const std::string& m = error.message;
  if (error.code == ErrorCode::kNotFound) {
    if (r.chat.conversation_id && m.rfind("No conversation", 0) == 0)
      return {std::move(error), "metadata.conversationId", "not_found"};
    return unknown_model(r.chat.agent_id);
  }
  if (error.code == ErrorCode::kInvalidRequest) {
    if (m.find("'conversationId'") != std::string::npos)
      return {std::move(error), "metadata.conversationId", {}};
    if (m.find("'sessionId'") != std::string::npos)
      return {std::move(error), session_in_metadata ? "metadata.sessionId" : "user", {}};
  }
  return {std::move(error), {}, {}};
}

Result<Response> chat_completions(ApiCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto body, json_body(call.req));
  auto parsed = parse_openai_chat(body);
  if (auto* fault = std::get_if<OpenAiFault>(&parsed)) return openai_error_response(*fault);
  OpenAiChatRequest& r = std::get<OpenAiChatRequest>(parsed);
  r.chat.waited_ms = call.req.waited_ms();
  auto turn = ChatTurn::prepare(call.app.chat, call.account_id(), r.chat);
  if (!turn.ok()) {
    const rapidjson::Value* metadata = body.HasMember("metadata") ? &body["metadata"] : nullptr;
    bool session_in_metadata =
        metadata != nullptr && metadata->IsObject() && metadata->HasMember("sessionId");
    return openai_error_response(prepare_fault(std::move(turn).error(), r, session_in_metadata));
  }
  CompletionMeta meta;
  meta.id = "chatcmpl-" + random_base62(call.app.random, 24);
  meta.created_s = call.app.clock.now_ms() / 1000;
  meta.model = r.chat.agent_id;
  meta.include_usage = r.include_usage;
  meta.prompt_tokens = estimated_tokens(r.prompt_bytes);
  return answer_chat(std::make_shared<ChatTurn>(std::move(turn).value()), call.app.reply_pool,
                     call.req, std::make_shared<const OpenAiAnswerWriter>(std::move(meta)),
                     r.stream);
}
}  // namespace

void register_openai_routes(Router& router, ApiContext& app) {
  add_api_route(router, app, "POST", "/openai/v1/chat/completions", Scope::kChat, Execution::kPool,
                chat_completions, openai_error_response);
  add_api_route(router, app, "GET", "/openai/v1/models", Scope::kAgentsRead, Execution::kPool,
                list_models, openai_error_response);
  add_api_route(router, app, "GET", "/openai/v1/models/{model}", Scope::kAgentsRead,
                Execution::kPool, get_model, openai_error_response);
}

}  // namespace parley
