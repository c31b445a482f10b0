#include "cli/admin_audited.h"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>

#include "domain/audit_snapshots.h"
#include "domain/audit_step.h"
#include "store/agent_repo.h"
#include "store/erasure_repo.h"
#include "store/key_repo.h"
#include "store/member_repo.h"
#include "store/webhook_repo.h"

namespace parley {

namespace {
std::string os_user() {
  if (const passwd* pw = getpwuid(geteuid()); pw != nullptr && pw->pw_name != nullptr) {
    return pw->pw_name;
  }
  const char* user = std::getenv("USER");
  return user != nullptr && *user != '\0' ? user : "uid " + std::to_string(geteuid());
}

ApiError unknown(std::string_view what, std::string_view id) {
  return ApiError::not_found("No " + std::string(what) + " '" + std::string(id) + "'.");
}
}  // namespace

Result<std::string> account_of_agent(Connection& c, std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(auto a, AgentRepo::find_any(c, agent_id));
  if (!a) return unknown("agent", agent_id);
  return a->account_id;
}
Result<std::string> account_of_key(Connection& c, std::string_view key_id) {
  PARLEY_ASSIGN_OR_RETURN(auto k, KeyRepo::find(c, key_id));
  if (!k) return unknown("key", key_id);
  return k->account_id;
}
Result<std::string> account_of_member(Connection& c, std::string_view member_id) {
  PARLEY_ASSIGN_OR_RETURN(auto m, MemberRepo::find(c, member_id));
  if (!m) return unknown("member", member_id);
  return m->account_id;
}
Result<std::string> account_of_webhook(Connection& c, std::string_view webhook_id) {
  PARLEY_ASSIGN_OR_RETURN(auto w, WebhookRepo::find_any(c, webhook_id));
  if (!w) return unknown("webhook", webhook_id);
  return w->account_id;
}
Result<std::string> account_of_contact(Connection& c, std::string_view contact_id) {
  PARLEY_ASSIGN_OR_RETURN(auto account, ErasureRepo::account_of(c, contact_id));
  if (!account) return unknown("contact", contact_id);
  return *account;
}

CliAudit account_update_audit(const std::string& id) {
  return {.rule = {"account.update", "account", audit_account_snapshot},
          .target_id = id,
          .account_id = id};
}

int run_admin_audited(const GlobalOptions& global, CliAudit audit,
                      const std::function<Result<std::string>(Services&)>& body) {
  return run_admin(global, [&](Services& plain) { return run_audited(plain, audit, body); });
}

Result<std::string> run_audited(Services& plain, CliAudit audit,
                                const std::function<Result<std::string>(Services&)>& body) {
  AuditEvent event;
  event.actor = {"cli", std::nullopt, "admin CLI (" + os_user() + ")", std::nullopt};
  event.action = audit.rule.action;
  event.target_type = audit.rule.target_type;
  AuditTargetRef target{audit.account_id, audit.target_id, audit.parent_id};
  if (target.account_id.empty() && !target.id.empty() && audit.account_of) {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, plain.db.read());
    // An unknown target is left to the command, which says so in its own words.
    auto account = audit.account_of(c, target.id);
    if (account.ok()) target.account_id = *account;
  }
  const bool created = target.id.empty();
  AuditStep step(plain.db, plain.clock, plain.random, std::move(event), audit.rule.snapshot,
                 std::move(target));
  PARLEY_TRY(step.begin());
  Services s{step.db(), plain.clock, plain.random};
  PARLEY_ASSIGN_OR_RETURN(std::string out, body(s));
  const std::string id = created ? audit_created_id(out) : std::string();
  if (created && audit.account_id.empty() && audit.account_of && !id.empty()) {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, plain.db.read());
    PARLEY_ASSIGN_OR_RETURN(std::string account, audit.account_of(c, id));
    step.set_account(std::move(account));
  }
  PARLEY_TRY(step.finish(id, std::nullopt));
  return out;
}

}  // namespace parley
