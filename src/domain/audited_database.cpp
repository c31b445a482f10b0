#include "domain/audited_database.h"

namespace parley {

AuditedDatabase::AuditedDatabase(Database& inner, const Clock& clock, Random& random,
                                 AuditEvent event, AuditSnapshotFn snapshot, AuditTargetRef target)
    : inner_(inner),
      state_(std::make_shared<State>(clock, random, std::move(event), std::move(snapshot),
                                     std::move(target))) {}

WriteFn AuditedDatabase::wrap(WriteFn fn) const {
  return [state = state_, fn = std::move(fn)](Connection& c) -> Result<void> {
    // The chain first: the "before" read next is then what the account's last change left.
    PARLEY_TRY(AuditRepo::hold_chain(c, state->event.account_id));
    PARLEY_ASSIGN_OR_RETURN(auto before, state->snapshot(c, state->target));
    PARLEY_TRY(fn(c));
    PARLEY_ASSIGN_OR_RETURN(auto after, state->snapshot(c, state->target));
    // A unit of work that left the target as it was (bookkeeping) is not a change of it.
    if (before == after) return {};
    AuditEvent e = state->event;
    e.before = std::move(before);
    e.after = std::move(after);
    PARLEY_TRY(append_audit(c, state->clock, state->random, e));
    state->recorded.store(true);
    return {};
  };
}

}  // namespace parley
