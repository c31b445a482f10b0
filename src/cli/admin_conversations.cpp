// parley admin conversation create | add-message | set-csat | set-live-chat | set-handoff |
// delete | get: widget and API conversations as the dashboard and chat would leave them, so that
// every field of the data API can be set up.
#include "cli/admin_support.h"
#include "cli/commands.h"
#include "domain/conversation_admin.h"
#include "views/conversation_json.h"

namespace parley {

namespace {
struct ConversationArgs {
  std::string id;
  std::string agent;
  std::string channel = "widget";
  std::string country;
  std::string page;
  std::string session;
  std::string created_at;
  std::string messages;
  std::string role;
  std::string content;
  std::string author;
  std::string sources;
  std::string at;
  int64_t score = 0;
  std::string comment;
  std::string status;
  int64_t count = 1;
};

std::string conversation_json(const ConversationWithMessages& c) {
  JsonWriter w;
  write_conversation_json(w, c);
  return w.str();
}

std::optional<std::string> given(CLI::App* cmd, const char* option, const std::string& value) {
  return cmd->count(option) ? std::optional<std::string>(value) : std::nullopt;
}

// The --at option as a time, or nothing when not given.
Result<std::optional<int64_t>> at_option(CLI::App* cmd, const std::string& value,
                                         const char* option = "--at") {
  if (!cmd->count(option)) return std::optional<int64_t>();
  PARLEY_ASSIGN_OR_RETURN(int64_t ms, parse_time_argument(value, option));
  return std::optional<int64_t>(ms);
}
}  // namespace

void add_admin_conversation_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run) {
  auto* conversation = admin.add_subcommand("conversation", "Conversations and their messages");
  conversation->require_subcommand(1);
  auto a = std::make_shared<ConversationArgs>();
  const std::string time_help = "ISO 8601 time or milliseconds since the epoch (default: now)";

  auto* create = conversation->add_subcommand("create", "Create a conversation with messages");
  create->add_option("--agent", a->agent, "Agent id")->required();
  create->add_option("--channel", a->channel, "widget or api")->capture_default_str();
  create->add_option("--country", a->country, "Visitor's country code");
  create->add_option("--page", a->page, "Page the widget was opened on");
  create->add_option("--session", a->session, "Session id (default: generated)");
  create->add_option("--created-at", a->created_at, time_help);
  create->add_option("--messages", a->messages,
                     "JSON array of {role, content, authorName?, sources?, createdAt?}");
  create->add_option("--count", a->count,
                     "Create this many such conversations; prints {data: [...]}");
  create->callback([&, a, create] {
    run = [&, a, create] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        NewConversation in;
        in.agent_id = a->agent;
        in.channel = a->channel;
        in.country = given(create, "--country", a->country);
        in.page = given(create, "--page", a->page);
        in.session_id = given(create, "--session", a->session);
        PARLEY_ASSIGN_OR_RETURN(in.created_at, at_option(create, a->created_at, "--created-at"));
        if (create->count("--messages")) {
          PARLEY_ASSIGN_OR_RETURN(in.messages, parse_new_messages(a->messages));
        }
        if (!create->count("--count")) {
          PARLEY_ASSIGN_OR_RETURN(auto c, admin_create_conversation(s, in));
          return conversation_json(c);
        }
        PARLEY_ASSIGN_OR_RETURN(auto all, admin_create_conversations(s, in, a->count));
        JsonWriter w;
        w.begin_object().key("data").begin_array();
        for (const auto& c : all) write_conversation_json(w, c);
        w.end_array().end_object();
        return w.str();
      });
    };
  });

  auto* add = conversation->add_subcommand("add-message", "Append a message");
  add->add_option("id", a->id, "Conversation id")->required();
  add->add_option("--role", a->role, "user or assistant")->required();
  add->add_option("--content", a->content, "Message text")->required();
  add->add_option("--author", a->author, "Team member's first name (live-chat reply)");
  add->add_option("--sources", a->sources, "JSON array of {title, url}");
  add->add_option("--at", a->at, time_help);
  add->callback([&, a, add] {
    run = [&, a, add] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        NewMessage m;
        m.role = a->role;
        m.content = a->content;
        m.author_name = given(add, "--author", a->author);
        if (add->count("--sources")) {
          rapidjson::Document doc;
          doc.Parse(a->sources.data(), a->sources.size());
          if (doc.HasParseError() || !doc.IsArray())
            return ApiError::invalid("'--sources' must be a JSON array.");
          m.sources = to_json(doc);
        }
        PARLEY_ASSIGN_OR_RETURN(m.created_at, at_option(add, a->at));
        PARLEY_ASSIGN_OR_RETURN(auto c, admin_add_message(s, a->id, m));
        return conversation_json(c);
      });
    };
  });

  auto* csat = conversation->add_subcommand("set-csat", "Record the visitor's satisfaction rating");
  csat->add_option("id", a->id, "Conversation id")->required();
  csat->add_option("--score", a->score, "1 to 5")->required();
  csat->add_option("--comment", a->comment, "Visitor's comment");
  csat->add_option("--at", a->at, time_help);
  csat->callback([&, a, csat] {
    run = [&, a, csat] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(auto at, at_option(csat, a->at));
        PARLEY_ASSIGN_OR_RETURN(
            auto c, admin_set_csat(s, a->id, a->score, given(csat, "--comment", a->comment), at));
        return conversation_json(c);
      });
    };
  });

  auto* live = conversation->add_subcommand("set-live-chat", "Set the live-chat state");
  live->add_option("id", a->id, "Conversation id")->required();
  live->add_option("--status", a->status, "requested, active, ended or none")->required();
  live->add_option("--at", a->at, time_help);
  live->callback([&, a, live] {
    run = [&, a, live] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(auto at, at_option(live, a->at));
        PARLEY_ASSIGN_OR_RETURN(auto c, admin_set_live_chat(s, a->id, a->status, at));
        return conversation_json(c);
      });
    };
  });

  auto* handoff = conversation->add_subcommand(
      "set-handoff", "Record that the agent emailed the conversation to the team");
  handoff->add_option("id", a->id, "Conversation id")->required();
  handoff->add_option("--at", a->at, time_help);
  handoff->callback([&, a, handoff] {
    run = [&, a, handoff] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(auto at, at_option(handoff, a->at));
        PARLEY_ASSIGN_OR_RETURN(auto c, admin_set_handoff(s, a->id, at));
        return conversation_json(c);
      });
    };
  });

  auto* del = conversation->add_subcommand(
      "delete", "Delete a conversation and its messages (its leads stay)");
  del->add_option("id", a->id, "Conversation id")->required();
  del->callback([&, a] {
    run = [&, a] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_TRY(admin_delete_conversation(s, a->id));
        JsonWriter w;
        w.begin_object().key("id").string(a->id).key("deleted").boolean(true).end_object();
        return w.str();
      });
    };
  });

  auto* get = conversation->add_subcommand("get", "Show a conversation with its messages");
  get->add_option("id", a->id, "Conversation id")->required();
  get->callback([&, a] {
    run = [&, a] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(auto c, admin_get_conversation(s, a->id));
        return conversation_json(c);
      });
    };
  });
}

}  // namespace parley
