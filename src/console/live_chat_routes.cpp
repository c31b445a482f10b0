// Live chat in the console: read a conversation, take it over, reply as a team member (the
// reply's authorName is the member's first name), end the live chat. The flow is
// domain/team_takeover.h; while taken over, chat messages from the API or the widget are saved
// without a reply (liveChat `paused`). Editors and above act; viewers read.
#include "console/console_routes.h"
#include "console/gate.h"
#include "domain/audit_snapshots.h"
#include "domain/chat.h"
#include "domain/conversations.h"
#include "domain/team_takeover.h"
#include "http/responses.h"
#include "views/conversation_json.h"

namespace parley {

namespace {
// The member's first name as shown with live-chat replies: the first word of the name, else the
// part of the email before '@'.
std::string author_name(const MemberRecord& m) {
  if (m.name) {
    std::string_view n = *m.name;
    while (!n.empty() && n.front() == ' ') n.remove_prefix(1);
    n = n.substr(0, n.find(' '));
    if (!n.empty()) return std::string(n);
  }
  return m.email.substr(0, m.email.find('@'));
}

Result<Response> conversation_response(ConsoleCall& call, int status) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto conv, get_conversation(c, call.account_id(), call.param(0)));
  return data_response(status, [&](JsonWriter& w) { write_conversation_json(w, conv); });
}

// 404 unless the conversation belongs to the member's account.
Result<ConversationRecord> own_conversation(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, call.app.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto conv, ConversationRepo::find(c, call.account_id(), call.param(0)));
  if (!conv) return ApiError::not_found("No conversation '" + std::string(call.param(0)) + "'.");
  return std::move(*conv);
}

Result<Response> get(ConsoleCall& call) { return conversation_response(call, 200); }

Result<Response> take_over(ConsoleCall& call) {
  PARLEY_TRY(own_conversation(call));
  PARLEY_TRY(take_over_conversation(call.services, call.param(0), author_name(call.who.member)));
  return conversation_response(call, 200);
}

Result<Response> reply(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto doc, json_body(call.req));
  FieldReader f(doc);
  PARLEY_ASSIGN_OR_RETURN(std::string text, f.required_string("message"));
  if (text.empty() || utf8_length(text) > 10'000)
    return ApiError::invalid("'message' must be 1 to 10000 characters.");
  PARLEY_ASSIGN_OR_RETURN(auto conv, own_conversation(call));
  if (!conv.taken_over_by) {
    return ApiError::invalid("Conversation " + conv.id +
                             " is not taken over; take it over before replying.");
  }
  PARLEY_ASSIGN_OR_RETURN(
      auto m,
      team_reply(call.services, conv.id, author_name(call.who.member), text,
                 call.app.chat != nullptr ? call.app.chat->config.max_messages_per_conversation
                                          : kDefaultMaxMessagesPerConversation));
  return data_response(201, [&](JsonWriter& w) { write_message_json(w, m); });
}

Result<Response> end(ConsoleCall& call) {
  PARLEY_ASSIGN_OR_RETURN(auto conv, own_conversation(call));
  if (!conv.taken_over_by)
    return ApiError::invalid("Conversation " + conv.id + " has no active live chat to end.");
  PARLEY_TRY(release_conversation(call.services, conv.id));
  return conversation_response(call, 200);
}
}  // namespace

void register_console_live_chat_routes(Router& router, ConsoleContext& app) {
  add_console_route(router, app, "GET", "/console/v1/conversations/{conversationId}", Role::kViewer,
                    Execution::kPool, get);
  add_console_route(
      router, app, "POST", "/console/v1/conversations/{conversationId}/takeover", Role::kEditor,
      Execution::kPool, take_over,
      {.rule = {"conversation.takeover", "conversation", audit_conversation_snapshot}});
  add_console_route(router, app, "POST", "/console/v1/conversations/{conversationId}/reply",
                    Role::kEditor, Execution::kPool, reply);
  add_console_route(
      router, app, "POST", "/console/v1/conversations/{conversationId}/end", Role::kEditor,
      Execution::kPool, end,
      {.rule = {"conversation.end_live_chat", "conversation", audit_conversation_snapshot}});
}

}  // namespace parley
