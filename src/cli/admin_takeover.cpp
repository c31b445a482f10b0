// parley admin conversation takeover | reply | release: a team member taking over an API or
// widget conversation from the command line (until the console offers it). `conversation get`
// shows the messages.
#include "cli/admin_support.h"
#include "cli/commands.h"
#include "domain/team_takeover.h"
#include "views/conversation_json.h"

namespace parley {

namespace {
std::string conversation_json(const ConversationRecord& v) {
  JsonWriter w;
  w.begin_object();
  w.key("id").string(v.id);
  w.key("agentId").string(v.agent_id);
  w.key("accountId").string(v.account_id);
  w.key("sessionId").string(v.session_id);
  w.key("channel").string(v.channel);
  w.key("createdAt").timestamp(v.created_at);
  w.key("lastActivityAt").timestamp(v.last_activity_at);
  w.key("country").string_or_null(v.country);
  w.key("page").string_or_null(v.page);
  w.key("messageCount").integer(v.message_count);
  w.key("takenOverBy").string_or_null(v.taken_over_by);
  w.key("liveChat");
  if (v.live_chat_status) {
    w.begin_object().key("status").string(*v.live_chat_status);
    w.key("startedAt").timestamp_or_null(v.live_chat_started_at);
    w.key("endedAt").timestamp_or_null(v.live_chat_ended_at).end_object();
  } else {
    w.null();
  }
  w.end_object();
  return w.str();
}

struct TakeoverArgs {
  std::string id;
  std::string member;
  std::string text;
};
}  // namespace

void add_admin_takeover_commands(CLI::App& conversation, GlobalOptions& global, CommandRun& run) {
  auto a = std::make_shared<TakeoverArgs>();

  auto* takeover =
      conversation.add_subcommand("takeover", "A team member takes over the conversation");
  takeover->add_option("id", a->id, "Conversation id")->required();
  takeover->add_option("--member", a->member, "Team member's name (first name shown)")->required();
  takeover->callback([&, a] {
    run = [&, a] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(auto conv, take_over_conversation(s, a->id, a->member));
        return conversation_json(conv);
      });
    };
  });

  auto* reply = conversation.add_subcommand("reply", "The team member who took over replies");
  reply->add_option("id", a->id, "Conversation id")->required();
  reply->add_option("--member", a->member, "Team member's name")->required();
  reply->add_option("--text", a->text, "The reply")->required();
  reply->callback([&, a] {
    run = [&, a] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(auto m, team_reply(s, a->id, a->member, a->text));
        JsonWriter w;
        write_message_json(w, m);
        return w.str();
      });
    };
  });

  auto* release = conversation.add_subcommand("release", "Hand the conversation back to the agent");
  release->add_option("id", a->id, "Conversation id")->required();
  release->callback([&, a] {
    run = [&, a] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(auto conv, release_conversation(s, a->id));
        return conversation_json(conv);
      });
    };
  });
}

}  // namespace parley
