// POST /api/v1/agents/{agentId}/chat: the chat request parsed and typed here, the flow in
// domain/chat.h, the reply shaped as JSON or as a chunked text/plain stream.
#include <algorithm>
#include <memory>

#include "views/chat_json.h"
#include "domain/chat_runner.h"
#include "api/piece_channel.h"
#include "http/responses.h"
#include "api/routes.h"
#include "core/log.h"
#include "domain/chat.h"

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

Response stream_head(const ChatTurn& turn) {
  Response res;
  res.content_type = "text/plain; charset=utf-8";
  res.header("X-Conversation-Id", turn.conversation_id());
  res.header("X-Session-Id", turn.session_id());
  if (turn.known_live_chat()) res.header("X-Live-Chat", *turn.known_live_chat());
  return res;
}

// The reply as chunked text/plain, written as the engine writes it. The engine runs on the reply
// pool; this waits for its first piece so that an error or the deadline coming first is still
// a JSON response with its status. The exchange is stored once the engine has finished, before
// the last chunk; a failure after text was sent cuts the stream short (no terminating chunk) and
// nothing is stored.
Result<Response> stream_reply(std::shared_ptr<ChatTurn> turn, const Clock& clock,
                              ThreadPool& pool) {
  if (turn->paused()) {
    PARLEY_TRY(turn->commit());
    Response res = stream_head(*turn);
    res.stream = [](ChunkWriter&) {};
    return res;
  }
  auto channel = std::make_shared<PieceChannel>();
  // A pool, not a thread per request: the knowledge index reads through the thread's own
  // database connection, which a long-lived thread keeps.
  pool.post([turn, channel] {
    channel->finish(turn->run([&channel](std::string_view piece) { return channel->push(piece); }));
  });
  int64_t wait_ms = std::max<int64_t>(0, turn->deadline_ms() - clock.now_ms()) + 1;
  if (!channel->wait_ready(std::chrono::milliseconds(wait_ms))) {
    channel->abandon();
    return ApiError{ErrorCode::kTimeout, "The reply took longer than the chat timeout."};
  }
  // An engine that already failed has sent nothing yet: its error is still a JSON response.
  if (channel->finished()) PARLEY_TRY(channel->outcome());
  Response res = stream_head(*turn);
  res.stream = [turn, channel](ChunkWriter& out) {
    bool listening = true;
    while (auto piece = channel->next()) {
      if (listening && !out.write(*piece)) listening = false;
    }
    // A failure after text was sent: the reply is cut short (no terminating chunk), so the
    // client can tell it from a complete one.
    if (!channel->outcome().ok()) return out.abort();
    // Stored before the last chunk, so a client that read the whole reply finds it stored.
    auto stored = turn->commit();
    if (!stored.ok()) {
      log_error("streamed chat reply not stored",
                {{"error", std::string_view(stored.error().message)}});
      out.abort();
    }
  };
  return res;
}
}  // namespace

void register_chat_routes(Router& router, ApiContext& app) {
  add_api_route(
      router, app, "POST", "/api/v1/agents/{agentId}/chat", Scope::kChat, Execution::kPool,
      [](ApiCall& call) -> Result<Response> {
        bool stream = false;
        PARLEY_ASSIGN_OR_RETURN(auto request, parse_chat_request(call.req, call.param(0), stream));
        if (stream) {
          PARLEY_ASSIGN_OR_RETURN(auto turn, ChatTurn::prepare(call.app.chat, call.account_id(), request));
          return stream_reply(std::make_shared<ChatTurn>(std::move(turn)), call.app.clock,
                              call.app.reply_pool);
        }
        PARLEY_ASSIGN_OR_RETURN(auto reply, reply_to_message(call.app.chat, call.account_id(), request,
                                                             call.app.reply_pool));
        JsonWriter w;
        write_chat_reply_json(w, reply);
        return json_response(200, w);
      });
}

}  // namespace parley
