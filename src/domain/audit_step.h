// One audited change as a front (console, public API, admin CLI) runs it: begin() reads the target
// before; the change's code writes through db(), an AuditedDatabase when the target is known and
// has a snapshot, so the entry is appended in the change's own transaction; finish(), after the
// change succeeded, appends the entry in a transaction of its own when no write recorded it (a
// creation, named by the id it answered with; a service that writes through its own database
// handle; an action without fields of its own, such as an export). One per request; not shared
// across threads.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "domain/audited_database.h"

namespace parley {

// How an HTTP route that changes something is recorded: its rule (action, target type, snapshot)
// and where the target's id comes from. With a snapshot and an id known before the handler runs,
// the entry is appended in the change's own transaction; otherwise just after a 2xx answer.
struct RouteAudit {
  enum class Target {
    kParam,    // the path parameter `param`
    kAccount,  // the caller's account
    kCreated,  // the answer's data.id (or id)
  };
  AuditRule rule;
  Target target = Target::kParam;
  int param = 0;
  int parent_param = -1;  // the path parameter of the target's parent (a source's agent)
};

class AuditStep {
 public:
  // `event` holds the account, actor, action and target type; `target` the target's id when known
  // (empty for a creation) and its account.
  AuditStep(Database& db, const Clock& clock, Random& random, AuditEvent event,
            AuditSnapshotFn snapshot, AuditTargetRef target);

  // Reads the target as it is before the change.
  Result<void> begin();
  // The database the change is written through.
  Database& db() { return audited_ ? static_cast<Database&>(*audited_) : db_; }
  // For a creation whose account is known only from what was created (the admin CLI's `account
  // create`): sets the account of the entry.
  void set_account(std::string account_id);
  // After a successful change. `created_id`: the id a creation answered with (ignored when the
  // target was known). `details`: a JSON object for an action without fields. Nothing is appended
  // when the target's fields did not change.
  Result<void> finish(std::string_view created_id, const std::optional<std::string>& details);

 private:
  Database& db_;
  const Clock& clock_;
  Random& random_;
  AuditEvent event_;
  AuditSnapshotFn snapshot_;
  AuditTargetRef target_;
  std::optional<AuditSnapshot> before_;
  std::optional<AuditedDatabase> audited_;
};

// The id an answer or a command's output names: its data.id, else its id; empty when neither.
std::string audit_created_id(std::string_view json);

}  // namespace parley
