// Deletes audit entries older than a year (domain/audit.h purge_audit): once when constructed,
// before the node says it is listening, then every six hours, chain by chain in small
// transactions that move each chain's checkpoint so the rest still verifies. Nodes
// that share PostgreSQL may purge at the same time: each batch locks its chain's row, and a
// second node finds nothing left to delete. A chain that does not verify is not purged (the
// evidence stays; the log says so). Owns one thread; construct to start, destroy to stop.
#pragma once

#include "core/clock.h"
#include "core/periodic.h"
#include "store/db.h"

namespace parley {

class AuditPurger {
 public:
  AuditPurger(Database& db, const Clock& clock);

 private:
  void purge();

  Database& db_;
  const Clock& clock_;
  Periodic every_six_hours_;  // last: its thread stops before the members it uses go
};

}  // namespace parley
