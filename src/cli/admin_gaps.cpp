// parley admin gaps list --agent A [--status open|resolved|all]: the agent's knowledge gaps
// (domain/gaps.h), every group with `question`, `count`, `firstAskedAt`, `lastAskedAt`,
// `channels` and `resolved`, newest first, as {"data": [...]}.
#include "cli/admin_support.h"
#include "cli/commands.h"
#include "domain/gaps.h"
#include "store/agent_repo.h"
#include "views/gap_json.h"

namespace parley {

void add_admin_gap_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run) {
  auto* gaps =
      admin.add_subcommand("gaps", "Knowledge gaps: questions an agent could not answer well");
  gaps->require_subcommand(1);
  auto agent_id = std::make_shared<std::string>();
  auto status = std::make_shared<std::string>("all");
  auto* list = gaps->add_subcommand("list", "An agent's gap groups, newest first");
  list->add_option("--agent", *agent_id, "Agent id")->required();
  list->add_option("--status", *status, "open, resolved or all (default all)")
      ->check(CLI::IsMember({"open", "resolved", "all"}));
  list->callback([&, agent_id, status] {
    run = [&, agent_id, status] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
        PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find_any(c, *agent_id));
        if (!agent) return ApiError::not_found("No agent " + *agent_id + ".");
        GapStatus which = *status == "open"       ? GapStatus::kOpen
                          : *status == "resolved" ? GapStatus::kResolved
                                                  : GapStatus::kAny;
        JsonWriter w;
        w.begin_object().key("data").begin_array();
        PageQuery q;
        q.limit = 100;
        while (true) {
          PARLEY_ASSIGN_OR_RETURN(auto page,
                                  list_gap_groups(c, agent->account_id, agent->id, which, q));
          for (const auto& g : page.items) write_gap_group_json(w, g);
          if (!page.has_more || page.items.empty()) break;
          q.after = KeysetPosition{page.items.back().group.created_at, page.items.back().group.id};
        }
        w.end_array().end_object();
        return w.str();
      });
    };
  });
}

}  // namespace parley
