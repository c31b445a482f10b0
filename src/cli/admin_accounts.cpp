// parley admin account create | set-plan | set-limits | list | get
#include "cli/admin_json.h"
#include "cli/admin_audited.h"
#include "domain/audit_snapshots.h"
#include "cli/admin_support.h"
#include "cli/commands.h"
#include "domain/accounts.h"

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
      return run_admin_audited(global, {.rule = {"account.create", "account", audit_account_snapshot}, .account_of = account_itself}, [&](Services& s) -> Result<std::string> {
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
      return run_admin_audited(global, {.rule = {"account.update", "account", audit_account_snapshot}, .target_id = *id, .account_id = *id}, [&](Services& s) -> Result<std::string> {
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
  set_limits->add_option("limits", *limits, "JSON object; {} restores the plan's limits")->required();
  set_limits->callback([&, id, limits] {
    run = [&, id, limits] {
      return run_admin_audited(global, {.rule = {"account.update", "account", audit_account_snapshot}, .target_id = *id, .account_id = *id}, [&](Services& s) -> Result<std::string> {
        PARLEY_ASSIGN_OR_RETURN(auto a, set_account_limits(s, *id, *limits));
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
        PARLEY_ASSIGN_OR_RETURN(Connection& c, s.db.read());
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
