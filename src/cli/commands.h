// The subcommands of the parley binary; main() only dispatches to them.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/options.h"

namespace parley {

// Each add_* registers a subcommand on `app`; the command sets `run` to what it should execute.
using CommandRun = std::function<int()>;

void add_serve_command(CLI::App& app, GlobalOptions& global, CommandRun& run);
void add_migrate_command(CLI::App& app, GlobalOptions& global, CommandRun& run);
void add_admin_command(CLI::App& app, GlobalOptions& global, CommandRun& run);

// Parts of `admin`, one file each.
void add_admin_account_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run);
void add_admin_agent_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run);
void add_admin_key_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run);
void add_admin_demo_command(CLI::App& admin, GlobalOptions& global, CommandRun& run);
void add_admin_source_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run);
void add_admin_member_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run);
void add_admin_conversation_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run);
void add_admin_lead_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run);
void add_admin_contact_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run);
void add_admin_record_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run);
void add_admin_webhook_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run);
void add_admin_usage_command(CLI::App& admin, GlobalOptions& global, CommandRun& run);
void add_admin_analytics_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run);
void add_admin_workspace_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run);
void add_admin_audit_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run);
void add_admin_gap_commands(CLI::App& admin, GlobalOptions& global, CommandRun& run);
// Parts of `admin agent`.
void add_admin_llm_check_command(CLI::App& agent, GlobalOptions& global, CommandRun& run);
// Parts of `admin source`.
void add_admin_source_upload_command(CLI::App& source, GlobalOptions& global, CommandRun& run);
void add_admin_crawl_commands(CLI::App& source, GlobalOptions& global, CommandRun& run);
// Parts of `admin conversation`.
void add_admin_takeover_commands(CLI::App& conversation, GlobalOptions& global, CommandRun& run);
void add_admin_export_command(CLI::App& conversation, GlobalOptions& global, CommandRun& run);

}  // namespace parley
