#include "workers/audit_purger.h"

#include "core/log.h"
#include "domain/audit.h"

namespace parley {

AuditPurger::AuditPurger(Database& db, const Clock& clock)
    : db_(db), clock_(clock), every_six_hours_(std::chrono::hours(6), [this] { purge(); }) {
  // Once before the node says it is listening (a read per chain when nothing is a year old).
  purge();
}

void AuditPurger::purge() {
  auto removed = purge_audit(db_, clock_, kAuditKeepMs);
  if (!removed.ok()) {
    log_warn("audit log not purged", {{"error", std::string_view(removed.error().message)}});
  } else if (*removed > 0) {
    log_info("audit log purged", {{"entries", *removed}});
  }
}

}  // namespace parley
