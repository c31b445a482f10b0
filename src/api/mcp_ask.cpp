// The ask_agent tool: the chat endpoint's turn (ChatTurn::prepare with its gates: plan messages,
// the agent's hour, engine slots, private agents; domain/chat_runner.h to run and store it), on
// the `api` channel, answered as the chat endpoint's JSON reply once the turn is stored. No
// thread waits for the engine; past the chat deadline (55 s from the request's arrival) the
// answer is a tool error and the turn stores nothing, as a 504 would.
#include <atomic>
#include <memory>

#include "api/mcp.h"
#include "domain/chat.h"
#include "domain/chat_runner.h"
#include "views/chat_json.h"

namespace parley {

namespace {
// One ask under way: whoever claims the responder first answers (the turn or the deadline).
struct Ask {
  std::shared_ptr<Responder> out;
  ToolAnswer answer;
  std::atomic<bool> claimed{false};

  bool claim() {
    if (!claimed.load()) claimed.store(out->claim());
    return claimed.load();
  }
};
}  // namespace

Result<Response> ask_agent_tool(ApiCall& call, const rapidjson::Value& args, ToolAnswer answer) {
  PARLEY_TRY(only_arguments(args, {"agentId", "message", "conversationId"}));
  FieldReader f(args);
  ChatRequest request;
  PARLEY_ASSIGN_OR_RETURN(request.agent_id, f.required_string("agentId"));
  PARLEY_ASSIGN_OR_RETURN(request.message, f.required_string("message"));
  PARLEY_ASSIGN_OR_RETURN(request.conversation_id, f.optional_string("conversationId"));
  request.waited_ms = call.req.waited_ms();
  PARLEY_ASSIGN_OR_RETURN(auto prepared,
                          ChatTurn::prepare(call.app.chat, call.account_id(), request));
  auto turn = std::make_shared<ChatTurn>(std::move(prepared));
  const int64_t timeout_ms = turn->services().config.timeout_ms;
  auto deadline = call.req.received_at + std::chrono::milliseconds(timeout_ms);
  ThreadPool& pool = call.app.reply_pool;
  return Response::later([turn = std::move(turn), &pool, deadline, timeout_ms,
                          answer = std::move(answer)](std::shared_ptr<Responder> out) {
    out->expire_at(deadline, [answer, timeout_ms] { return answer(reply_timeout(timeout_ms)); });
    auto ask = std::make_shared<Ask>();
    ask->out = std::move(out);
    ask->answer = answer;
    TurnHandlers h;
    h.may_store = [ask] { return ask->claim(); };
    h.done = [ask](Result<ChatReply> reply) {
      if (!ask->claim()) return;
      if (!reply.ok()) return ask->out->send(ask->answer(reply.error()));
      JsonWriter w;
      write_chat_reply_json(w, *reply);
      ask->out->send(ask->answer(w.str()));
    };
    run_turn(turn, pool, std::move(h));
  });
}

}  // namespace parley
