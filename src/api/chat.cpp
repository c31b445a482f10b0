// POST /api/v1/agents/{agentId}/chat: the chat request parsed and typed here, the flow in
// domain/chat.h, the reply shaped as JSON or as a chunked text/plain stream.
#include "api/responses.h"
#include "api/routes.h"
#include "domain/chat.h"

namespace parley {

namespace {
Result<ChatRequest> parse_chat_request(const Request& req, std::string_view agent_id, bool& stream) {
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

void write_reply_json(JsonWriter& w, const ChatReply& r) {
  const ReplyBlocks& b = r.blocks;
  w.begin_object();
  w.key("reply").string(r.reply);
  w.key("conversationId").string(r.conversation_id);
  w.key("sessionId").string(r.session_id);
  w.key("sources").begin_array();
  for (const auto& s : b.sources) w.begin_object().key("title").string(s.title).key("url").string_or_null(s.url).end_object();
  w.end_array();
  w.key("followUps").begin_array();
  for (const auto& q : b.follow_ups) w.string(q);
  w.end_array();
  w.key("buttons").begin_array();
  for (const auto& x : b.buttons) w.begin_object().key("label").string(x.label).key("url").string(x.url).end_object();
  w.end_array();
  w.key("products").begin_array();
  for (const auto& p : b.products) {
    w.begin_object().key("name").string(p.name).key("url").string(p.url);
    if (p.image) w.key("image").string(*p.image);
    if (p.price) w.key("price").number(*p.price);
    if (p.compare_at_price) w.key("compareAtPrice").number(*p.compare_at_price);
    if (p.currency) w.key("currency").string(*p.currency);
    if (p.available) w.key("available").boolean(*p.available);
    w.end_object();
  }
  w.end_array();
  auto object_or_null = [&](std::string_view name, const std::optional<std::string>& json) {
    w.key(name);
    if (json) w.raw(*json);
    else w.null();
  };
  object_or_null("form", b.form_json);
  object_or_null("leadForm", b.lead_form_json);
  object_or_null("booking", b.booking_json);
  w.key("liveChat").string_or_null(r.live_chat);
  w.end_object();
}

// The reply as chunked text/plain. The reply is complete and stored before the first byte, so
// every error (504 included) is still a JSON response with its status.
Response stream_response(ChatReply reply) {
  Response res;
  res.content_type = "text/plain; charset=utf-8";
  res.header("X-Conversation-Id", reply.conversation_id);
  res.header("X-Session-Id", reply.session_id);
  if (reply.live_chat) res.header("X-Live-Chat", *reply.live_chat);
  res.stream = [text = std::move(reply.reply)](ChunkWriter& out) {
    std::string_view rest = text;
    while (!rest.empty()) {
      size_t end = rest.find_first_of(".!?\n");
      end = end == std::string_view::npos ? rest.size() : end + 1;
      while (end < rest.size() && rest[end] == ' ') ++end;
      if (!out.write(rest.substr(0, end))) return;
      rest.remove_prefix(end);
    }
  };
  return res;
}
}  // namespace

void register_chat_routes(Router& router, App& app) {
  add_api_route(router, app, "POST", "/api/v1/agents/{agentId}/chat", Scope::kChat, Execution::kPool,
                [](ApiCall& call) -> Result<Response> {
                  bool stream = false;
                  PARLEY_ASSIGN_OR_RETURN(auto request, parse_chat_request(call.req, call.param(0), stream));
                  ChatServices s{call.app.db, call.app.clock, call.app.random, call.app.engine,
                                 call.app.retriever, call.app.chat};
                  PARLEY_ASSIGN_OR_RETURN(auto reply, chat(s, call.account_id(), request));
                  if (stream) return stream_response(std::move(reply));
                  JsonWriter w;
                  write_reply_json(w, reply);
                  return json_response(200, w);
                });
}

}  // namespace parley
