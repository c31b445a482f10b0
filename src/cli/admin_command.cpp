// parley admin: operator commands on the same database as the server, printing JSON.
#include "cli/commands.h"

namespace parley {

void add_admin_command(CLI::App& app, GlobalOptions& global, CommandRun& run) {
  auto* admin = app.add_subcommand("admin", "Operator commands (print JSON on stdout)");
  admin->require_subcommand(1);
  add_admin_account_commands(*admin, global, run);
  add_admin_agent_commands(*admin, global, run);
  add_admin_key_commands(*admin, global, run);
  add_admin_demo_command(*admin, global, run);
  add_admin_source_commands(*admin, global, run);
  add_admin_member_commands(*admin, global, run);
  add_admin_conversation_commands(*admin, global, run);
  add_admin_lead_commands(*admin, global, run);
  add_admin_contact_commands(*admin, global, run);
  add_admin_record_commands(*admin, global, run);
  add_admin_webhook_commands(*admin, global, run);
  add_admin_usage_command(*admin, global, run);
  add_admin_analytics_commands(*admin, global, run);
  add_admin_workspace_commands(*admin, global, run);
  add_admin_audit_commands(*admin, global, run);
  add_admin_gap_commands(*admin, global, run);
  add_admin_llm_check_command(*admin->get_subcommand("agent"), global, run);
  add_admin_takeover_commands(*admin->get_subcommand("conversation"), global, run);
  add_admin_export_command(*admin->get_subcommand("conversation"), global, run);
}

}  // namespace parley
