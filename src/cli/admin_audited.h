// run_admin with the change recorded in the audit log, as "admin CLI (<OS user>)": the target's
// snapshot is taken around each write inside its transaction (domain/audited_database.h); a
// creation is recorded just after it, with the id the command printed (its `id` or `data.id`).
// docs/decisions/audit.md says how to cover a new command.
#pragma once

#include <functional>
#include <string>

#include "cli/admin_support.h"
#include "domain/audit.h"

namespace parley {

// Which account's chain an entry of this target goes to, read from the target itself.
using AuditAccountOf = std::function<Result<std::string>(Connection&, std::string_view target_id)>;

struct CliAudit {
  AuditRule rule;
  std::string target_id = {};   // empty: a creation; the id is taken from what the command prints
  std::string parent_id = {};   // the target's agent, for a source
  std::string account_id = {};  // empty: found by account_of
  AuditAccountOf account_of = {};
};

int run_admin_audited(const GlobalOptions& global, CliAudit audit,
                      const std::function<Result<std::string>(Services&)>& body);
// The audited part of run_admin_audited, for a command that finds its target inside run_admin
// first (`admin demo` updating the demo agent).
Result<std::string> run_audited(Services& plain, CliAudit audit,
                                const std::function<Result<std::string>(Services&)>& body);

// Account finders for the common targets.
Result<std::string> account_of_agent(Connection& c, std::string_view agent_id);
Result<std::string> account_of_key(Connection& c, std::string_view key_id);
Result<std::string> account_of_member(Connection& c, std::string_view member_id);
Result<std::string> account_of_webhook(Connection& c, std::string_view webhook_id);
Result<std::string> account_of_contact(Connection& c, std::string_view contact_id);
inline Result<std::string> account_itself(Connection&, std::string_view account_id) {
  return std::string(account_id);
}

// `account.update` of the account `id` (set-plan, set-limits, set-retention, set-timezone).
CliAudit account_update_audit(const std::string& id);

}  // namespace parley
