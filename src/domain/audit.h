// The audit log's rules: who did what to which target, the changed fields with their old and new
// values (secrets redacted), appended to the account's hash chain in the caller's transaction;
// the chain's verification and its purge after a year. A target's state is read by a snapshot
// function (domain/audit_snapshots.h); domain/audited_database.h runs it around a change.
// Stateless functions; thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/random.h"
#include "store/audit_repo.h"
#include "store/db.h"

namespace parley {

// Who made a change: a team member (id, email), an API key (id, name), or the admin CLI (no id;
// "admin CLI (<OS user>)"). Never a secret.
struct AuditActor {
  std::string type;  // member, key, cli
  std::optional<std::string> id;
  std::string name;
  std::optional<std::string> address;  // the client's address as the server computes it
};

// A target's audited fields: name → the value as JSON text ("\"Support\"", "true", "null").
using AuditSnapshot = std::map<std::string, std::string>;

// Which target a snapshot reads.
struct AuditTargetRef {
  std::string account_id;
  std::string id;
  std::string parent_id;  // the agent of a source or a webhook's route, when the path names it
};

// The target's fields as they are in the transaction of `c`; nothing when it does not exist.
using AuditSnapshotFn =
    std::function<Result<std::optional<AuditSnapshot>>(Connection& c, const AuditTargetRef& t)>;

// What a route or command records: its action and the type of its target, and how to read the
// target (empty for actions that change no fields of their own: an export, a refresh).
struct AuditRule {
  std::string action;       // "agent.update"
  std::string target_type;  // "agent"
  AuditSnapshotFn snapshot;
};

struct AuditEvent {
  std::string account_id;
  AuditActor actor;
  std::string action;
  std::string target_type;
  std::optional<std::string> target_id;
  std::optional<AuditSnapshot> before;  // nothing: did not exist (a creation)
  std::optional<AuditSnapshot> after;   // nothing: no longer exists (a deletion)
  std::optional<std::string> details;   // a JSON object
};

// Whether a field holds a secret: its values are written as "[redacted]" (the change is kept).
bool audit_field_is_secret(std::string_view field);

// The changed fields as a JSON array of {field, old, new}, in field order; "[]" when none.
std::string audit_changes_json(const std::optional<AuditSnapshot>& before,
                               const std::optional<AuditSnapshot>& after);

// Appends the event to its account's chain on `c` (inside the caller's write transaction).
Result<AuditRecord> append_audit(Connection& c, const Clock& clock, Random& random,
                                 const AuditEvent& event);

// The result of walking the chains: ok, or the first bad entry and what is wrong with it.
struct AuditVerdict {
  bool ok = true;
  int64_t chains = 0;
  int64_t entries = 0;
  std::string account_id;               // of the first bad entry
  int64_t seq = 0;                      // its place in the chain
  std::optional<std::string> entry_id;  // none when the entry is missing
  std::string problem;                  // "edited", "deleted", "reordered", ...
  std::string message;
};

// Walks every chain (or one account's) from its checkpoint, reading in pages.
Result<AuditVerdict> verify_audit(Database& db, const std::optional<std::string>& account_id);

// Deletes entries older than `keep_ms`, chain by chain in small transactions, moving each chain's
// checkpoint. A chain that does not verify is left whole (the others are purged) and the result
// is then an error naming it. Returns how many were deleted.
Result<int64_t> purge_audit(Database& db, const Clock& clock, int64_t keep_ms);

inline constexpr int64_t kAuditKeepMs = 365LL * 24 * 60 * 60 * 1000;

}  // namespace parley
