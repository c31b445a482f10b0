// parley admin agent create | update | list | get | identity-secret
#include "cli/admin_audited.h"
#include "cli/admin_json.h"
#include "cli/admin_support.h"
#include "cli/commands.h"
#include "cli/workspace_options.h"
#include "domain/agent_settings.h"
#include "domain/agents.h"
#include "domain/audit_snapshots.h"
#include "domain/widget_identity.h"

namespace parley {

namespace {
std::string agent_json(const AgentRecord& a) {
  JsonWriter w;
  write_agent_admin_json(w, a);
  return w.str();
}

struct AgentArgs {
  std::string id;
  std::string account;
  std::string name;
  bool make_private = false;
  bool make_public = false;
  std::string settings;
  bool rotate = false;
  std::string secret_key_file;
};

// The agent's new identity secret, printed this once. Without --rotate an agent that has one is
// refused (409 conflict, saying how to rotate), so a secret in use is not replaced by accident.
Result<std::string> identity_secret(Services& s, const GlobalOptions& global, const AgentArgs& a) {
  std::optional<AgentRecord> agent;
  {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
    PARLEY_ASSIGN_OR_RETURN(agent, AgentRepo::find_any(c, a.id));
  }
  if (!agent) return ApiError::not_found("No agent " + a.id + ".");
  WorkspaceServeOptions keys;
  keys.secret_key_file = a.secret_key_file;
  PARLEY_ASSIGN_OR_RETURN(auto box, load_secret_key(keys, global, s.db.backend(), s.random));
  PARLEY_ASSIGN_OR_RETURN(auto made,
                          make_identity_secret(s, box.get(), agent->account_id, agent->id,
                                               a.rotate ? IdentitySecretMode::kCreateOrRotate
                                                        : IdentitySecretMode::kCreateOnly));
  JsonWriter w;
  w.begin_object();
  w.key("agentId").string(made.agent_id);
  w.key("secret").string(made.secret);
  w.key("createdAt").timestamp(made.created_at);
  w.key("rotated").boolean(made.rotated);
  w.end_object();
  return w.str();
}

// The server's key when the settings carry tool settings, whose secrets are sealed with it
// (domain/tool_settings.h); none otherwise, so that other updates never make a key file.
Result<std::shared_ptr<const SecretBox>> key_for_settings(Services& s, const GlobalOptions& global,
                                                          const AgentArgs& a) {
  if (a.settings.find("mcpServers") == std::string::npos &&
      a.settings.find("webSearch") == std::string::npos)
    return std::shared_ptr<const SecretBox>();
  WorkspaceServeOptions keys;
  keys.secret_key_file = a.secret_key_file;
  return load_secret_key(keys, global, s.db.backend(), s.random);
}
}  // namespace

void add_admin_agent_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run) {
  auto* agent = admin.add_subcommand("agent", "Agents and their settings");
  agent->require_subcommand(1);
  auto a = std::make_shared<AgentArgs>();
  const std::string settings_help =
      "JSON object of settings (" + known_agent_settings() + "); null removes one";

  auto* create = agent->add_subcommand("create", "Create an agent");
  create->add_option("--account", a->account, "Account id")->required();
  create->add_option("--name", a->name, "Agent name")->required();
  create->add_flag("--private", a->make_private, "Answer only in the dashboard");
  create->add_option("--settings", a->settings, settings_help);
  const std::string key_help =
      "The server's secret key file that seals tool secrets in the settings (as `serve`; the key "
      "itself: PARLEY_SECRET_KEY; on SQLite, secret.key beside the database)";
  create->add_option("--secret-key-file", a->secret_key_file, key_help);
  create->callback([&, a] {
    run = [&, a] {
      return run_admin_audited(
          global,
          {.rule = {"agent.create", "agent", audit_agent_snapshot}, .account_id = a->account},
          [&](Services& s) -> Result<std::string> {
            PARLEY_ASSIGN_OR_RETURN(auto box, key_for_settings(s, global, *a));
            PARLEY_ASSIGN_OR_RETURN(
                auto agent,
                create_agent(s, a->account, a->name, a->make_private, a->settings, box.get()));
            return agent_json(agent);
          });
    };
  });

  auto* update = agent->add_subcommand("update", "Change an agent's name, privacy or settings");
  update->add_option("id", a->id, "Agent id")->required();
  update->add_option("--name", a->name, "New name");
  auto* priv = update->add_flag("--private", a->make_private, "Make the agent private");
  update->add_flag("--public", a->make_public, "Make the agent public")->excludes(priv);
  update->add_option("--settings", a->settings, settings_help);
  update->add_option("--secret-key-file", a->secret_key_file, key_help);
  update->callback([&, a, update] {
    run = [&, a, update] {
      return run_admin_audited(global,
                               {.rule = {"agent.update", "agent", audit_agent_snapshot},
                                .target_id = a->id,
                                .account_of = account_of_agent},
                               [&](Services& s) -> Result<std::string> {
                                 AgentChanges changes;
                                 if (update->count("--name")) changes.name = a->name;
                                 if (a->make_private) changes.is_private = true;
                                 if (a->make_public) changes.is_private = false;
                                 if (update->count("--settings"))
                                   changes.settings_update = a->settings;
                                 PARLEY_ASSIGN_OR_RETURN(auto box, key_for_settings(s, global, *a));
                                 changes.secret_box = box.get();
                                 PARLEY_ASSIGN_OR_RETURN(auto agent,
                                                         update_agent(s, a->id, changes));
                                 return agent_json(agent);
                               });
    };
  });

  auto* list = agent->add_subcommand("list", "List an account's agents, newest first");
  list->add_option("--account", a->account, "Account id")->required();
  list->callback([&, a] {
    run = [&, a] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
        PARLEY_ASSIGN_OR_RETURN(auto all, AgentRepo::list(c, a->account));
        JsonWriter w;
        w.begin_object().key("data").begin_array();
        for (const auto& x : all) write_agent_admin_json(w, x);
        w.end_array().end_object();
        return w.str();
      });
    };
  });

  auto* identity = agent->add_subcommand(
      "identity-secret",
      "Make the agent's widget identity secret and print it once (--rotate replaces one)");
  identity->add_option("id", a->id, "Agent id")->required();
  identity->add_flag("--rotate", a->rotate,
                     "Replace the agent's secret; signatures made with the old one stop verifying");
  identity
      ->add_option("--secret-key-file", a->secret_key_file,
                   "The server's secret key file that seals the secret (as `serve`; the key "
                   "itself: PARLEY_SECRET_KEY; on SQLite, secret.key beside the database)")
      ->envname("PARLEY_SECRET_KEY_FILE");
  identity->callback([&, a] {
    run = [&, a] {
      const CliAudit audit{.rule = {"agent.identity_secret", "agent", audit_agent_snapshot},
                           .target_id = a->id,
                           .account_of = account_of_agent};
      return run_admin_audited(global, audit, [&](Services& s) -> Result<std::string> {
        return identity_secret(s, global, *a);
      });
    };
  });

  auto* get = agent->add_subcommand("get", "Show an agent");
  get->add_option("id", a->id, "Agent id")->required();
  get->callback([&, a] {
    run = [&, a] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
        PARLEY_ASSIGN_OR_RETURN(auto x, AgentRepo::find_any(c, a->id));
        if (!x) return ApiError::not_found("No agent " + a->id + ".");
        return agent_json(*x);
      });
    };
  });
}

}  // namespace parley
