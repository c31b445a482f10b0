// parley admin analytics --agent A [--from DAY] [--to DAY]: the agent's figures per day in its
// account's time zone and their totals, the same JSON as the console's analytics route; and
// parley admin account set-timezone ACC TZ.
#include "cli/admin_audited.h"
#include "cli/admin_json.h"
#include "cli/admin_support.h"
#include "cli/commands.h"
#include "domain/accounts.h"
#include "domain/analytics.h"
#include "store/agent_repo.h"
#include "views/analytics_json.h"

namespace parley {

void add_admin_analytics_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run) {
  auto agent = std::make_shared<std::string>();
  auto from = std::make_shared<std::string>();
  auto to = std::make_shared<std::string>();
  auto* analytics = admin.add_subcommand(
      "analytics", "An agent's figures per day (the account's time zone) and their totals");
  analytics->add_option("--agent", *agent, "Agent id")->required();
  analytics->add_option("--from", *from, "First day, YYYY-MM-DD (default: 29 days before --to)");
  analytics->add_option("--to", *to, "Last day, YYYY-MM-DD (default: today)");
  analytics->callback([&, agent, from, to, analytics] {
    run = [&, agent, from, to, analytics] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        std::string account_id;
        {
          PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
          PARLEY_ASSIGN_OR_RETURN(auto found, AgentRepo::find_any(c, *agent));
          if (!found) return ApiError::not_found("No agent " + *agent + ".");
          account_id = found->account_id;
        }
        auto given = [&](const std::string& option, const std::string& value) {
          return analytics->count(option) ? std::optional<std::string>(value) : std::nullopt;
        };
        PARLEY_ASSIGN_OR_RETURN(
            auto figures,
            agent_analytics(s, account_id, *agent, given("--from", *from), given("--to", *to)));
        JsonWriter w;
        write_analytics_json(w, figures);
        return w.str();
      });
    };
  });

  auto id = std::make_shared<std::string>();
  auto zone = std::make_shared<std::string>();
  auto* set_zone = admin.get_subcommand("account")->add_subcommand(
      "set-timezone", "Set the account's time zone (an IANA name): its days for figures");
  set_zone->add_option("id", *id, "Account id")->required();
  set_zone->add_option("zone", *zone, "IANA time zone, e.g. Europe/Paris or UTC")->required();
  set_zone->callback([&, id, zone] {
    run = [&, id, zone] {
      const CliAudit audit = account_update_audit(*id);
      return run_admin_audited(global, audit, [&](Services& s) -> Result<std::string> {
        PARLEY_TRY(set_account_time_zone(s, *id, *zone, "zone"));
        PARLEY_ASSIGN_OR_RETURN(auto a, get_account(s, *id));
        JsonWriter w;
        write_account_admin_json(w, a);
        return w.str();
      });
    };
  });
}

}  // namespace parley
