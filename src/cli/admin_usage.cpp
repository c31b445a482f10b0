// parley admin account usage ID: plan messages used this month by the account, and per agent
// (with its monthly cap and its replies in the current hour).
#include "cli/admin_support.h"
#include "cli/commands.h"
#include "domain/usage.h"
#include "model/agent_settings.h"
#include "store/account_repo.h"
#include "store/agent_repo.h"

namespace parley {

void add_admin_usage_command(CLI::App& admin, GlobalOptions& global, CommandRun& run) {
  CLI::App* account = admin.get_subcommand("account");
  auto id = std::make_shared<std::string>();
  auto* usage =
      account->add_subcommand("usage", "Messages used this month, by the account and per agent");
  usage->add_option("id", *id, "Account id")->required();
  usage->callback([&, id] {
    run = [&, id] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(Connection& c, s.db.read());
        PARLEY_ASSIGN_OR_RETURN(auto acc, AccountRepo::find(c, *id));
        if (!acc) return ApiError::not_found("No account " + *id + ".");
        int64_t now = s.clock.now_ms();
        std::string month = month_period(now);
        PARLEY_ASSIGN_OR_RETURN(int64_t used, usage_count(c, acc->id, month));
        PARLEY_ASSIGN_OR_RETURN(auto agents, AgentRepo::list(c, acc->id));
        JsonWriter w;
        w.begin_object();
        w.key("accountId").string(acc->id);
        w.key("period").string(month.substr(2));
        w.key("messagesUsed").integer(used);
        w.key("messagesPerMonth").integer(effective_limits(acc->plan, acc->overrides).messages_per_month);
        w.key("agents").begin_array();
        for (const auto& a : agents) {
          PARLEY_ASSIGN_OR_RETURN(int64_t agent_used, usage_count(c, a.id, month));
          PARLEY_ASSIGN_OR_RETURN(int64_t hour_used, usage_count(c, a.id, hour_period(now)));
          auto cap = parse_agent_settings(a.settings).reply.monthly_message_cap;
          w.begin_object();
          w.key("agentId").string(a.id);
          w.key("name").string(a.name);
          w.key("messagesUsed").integer(agent_used);
          w.key("monthlyMessageCap");
          if (cap)
            w.integer(*cap);
          else
            w.null();
          w.key("repliesThisHour").integer(hour_used);
          w.end_object();
        }
        w.end_array().end_object();
        return w.str();
      });
    };
  });
}

}  // namespace parley
