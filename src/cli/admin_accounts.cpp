// parley admin account create | set-plan | set-limits | set-retention | list | get
#include "cli/admin_audited.h"
#include "cli/admin_json.h"
#include "cli/admin_support.h"
#include "cli/commands.h"
#include "domain/accounts.h"
#include "domain/audit_snapshots.h"
#include "domain/retention.h"

namespace parley {

namespace {
std::string account_json(const Account& a) {
  JsonWriter w;
  write_account_admin_json(w, a);
  return w.str();
}
}  // namespace

void add_admin_account_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run) {
  auto* account = admin.add_subcommand("account", "Accounts and plans");
  account->require_subcommand(1);

  auto name = std::make_shared<std::string>();
  auto plan = std::make_shared<std::string>("starter");
  auto* create = account->add_subcommand("create", "Create an account");
  create->add_option("--name", *name, "Account name")->required();
  create->add_option("--plan", *plan, "free, starter, pro or enterprise")->capture_default_str();
  create->callback([&, name, plan] {
    run = [&, name, plan] {
      return run_admin_audited(global,
                               {.rule = {"account.create", "account", audit_account_snapshot},
                                .account_of = account_itself},
                               [&](Services& s) -> Result<std::string> {
                                 PARLEY_ASSIGN_OR_RETURN(auto a, create_account(s, *name, *plan));
                                 return account_json(a);
                               });
    };
  });

  auto id = std::make_shared<std::string>();
  auto new_plan = std::make_shared<std::string>();
  auto* set_plan = account->add_subcommand("set-plan", "Change an account's plan");
  set_plan->add_option("id", *id, "Account id")->required();
  set_plan->add_option("plan", *new_plan, "free, starter, pro or enterprise")->required();
  set_plan->callback([&, id, new_plan] {
    run = [&, id, new_plan] {
      return run_admin_audited(
          global, account_update_audit(*id), [&](Services& s) -> Result<std::string> {
            PARLEY_ASSIGN_OR_RETURN(auto a, set_account_plan(s, *id, *new_plan));
            return account_json(a);
          });
    };
  });

  auto limits = std::make_shared<std::string>();
  auto* set_limits = account->add_subcommand("set-limits",
                                             "Override plan limits: JSON with messagesPerMonth, "
                                             "trainingCharacters, contactsPerAgent, crawlPages");
  set_limits->add_option("id", *id, "Account id")->required();
  set_limits->add_option("limits", *limits, "JSON object; {} restores the plan's limits")
      ->required();
  set_limits->callback([&, id, limits] {
    run = [&, id, limits] {
      return run_admin_audited(
          global, account_update_audit(*id), [&](Services& s) -> Result<std::string> {
            PARLEY_ASSIGN_OR_RETURN(auto a, set_account_limits(s, *id, *limits));
            return account_json(a);
          });
    };
  });

  auto days = std::make_shared<int64_t>(0);
  auto forever_flag = std::make_shared<bool>(false);
  auto* set_retention = account->add_subcommand("set-retention",
                                                "Keep conversations for N days after their last "
                                                "activity (--days N), or for ever (--forever)");
  set_retention->add_option("id", *id, "Account id")->required();
  auto* days_opt = set_retention->add_option("--days", *days, "Days, 1 to 36500");
  auto* forever = set_retention->add_flag("--forever", *forever_flag,
                                          "Keep conversations for ever (the default)");
  days_opt->excludes(forever);
  set_retention->callback([&, id, days, days_opt, forever, forever_flag] {
    run = [&, id, days, days_opt, forever, forever_flag] {
      const CliAudit audit = account_update_audit(*id);
      return run_admin_audited(global, audit, [&](Services& s) -> Result<std::string> {
        if (days_opt->count() == 0 && forever->count() == 0)
          return ApiError::invalid("Give --days N, or --forever to keep conversations for ever.");
        std::optional<int64_t> kept =
            days_opt->count() ? std::optional<int64_t>(*days) : std::nullopt;
        if (kept && (*kept < 1 || *kept > kMaxRetentionDays))
          return ApiError::invalid("--days must be a whole number from 1 to " +
                                   std::to_string(kMaxRetentionDays) + ".");
        PARLEY_ASSIGN_OR_RETURN(auto a, set_account_retention(s, *id, kept));
        return account_json(a);
      });
    };
  });

  auto* get = account->add_subcommand("get", "Show an account");
  get->add_option("id", *id, "Account id")->required();
  get->callback([&, id] {
    run = [&, id] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(auto a, get_account(s, *id));
        return account_json(a);
      });
    };
  });

  auto* list = account->add_subcommand("list", "List accounts, newest first");
  list->callback([&] {
    run = [&] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
        PARLEY_ASSIGN_OR_RETURN(auto all, AccountRepo::list(c));
        JsonWriter w;
        w.begin_object().key("data").begin_array();
        for (const auto& a : all) write_account_admin_json(w, a);
        w.end_array().end_object();
        return w.str();
      });
    };
  });
}

}  // namespace parley
