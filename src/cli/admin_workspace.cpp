// parley admin workspace: an agent's Notion connection as an operator sees it (status, never the
// token) and disconnecting it without the server, which is the way out when the server refuses to
// start because stored tokens were sealed with a key it does not have.
#include "cli/admin_support.h"
#include "cli/commands.h"
#include "domain/workspace.h"
#include "store/agent_repo.h"

namespace parley {

namespace {
Result<std::string> status_json(const WorkspaceStatus& st, std::string_view agent_id) {
  JsonWriter w;
  w.begin_object().key("agentId").string(agent_id).key("connected").boolean(st.connected);
  w.key("workspaceName")
      .string_or_null(st.workspace_name)
      .key("connectedAt")
      .timestamp_or_null(st.connected_at);
  w.end_object();
  return w.str();
}

Result<std::string> account_of(Services& s, const std::string& agent_id) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
  PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find_any(c, agent_id));
  if (!agent) return ApiError::not_found("No agent " + agent_id + ".");
  return agent->account_id;
}
}  // namespace

void add_admin_workspace_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run) {
  auto* workspace = admin.add_subcommand("workspace", "An agent's Notion workspace connection");
  workspace->require_subcommand(1);
  auto agent = std::make_shared<std::string>();

  auto* status = workspace->add_subcommand("status", "Whether a workspace is connected, and which");
  status->add_option("--agent", *agent, "Agent id")->required();
  status->callback([&, agent] {
    run = [&, agent] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(std::string account, account_of(s, *agent));
        PARLEY_ASSIGN_OR_RETURN(auto st, workspace_status(s, account, *agent));
        return status_json(st, *agent);
      });
    };
  });

  auto* disconnect = workspace->add_subcommand(
      "disconnect",
      "Forget the agent's workspace token (imported sources stay; queued pages fail)");
  disconnect->add_option("--agent", *agent, "Agent id")->required();
  disconnect->callback([&, agent] {
    run = [&, agent] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(std::string account, account_of(s, *agent));
        PARLEY_ASSIGN_OR_RETURN(auto st, disconnect_workspace(s, account, *agent));
        return status_json(st, *agent);
      });
    };
  });
}

}  // namespace parley
