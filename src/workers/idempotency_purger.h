// Removes idempotency keys whose 24 hours have ended (api/idempotency.h, store/idempotency_repo.h): once
// when constructed, before the node says it is listening, and then every ten minutes. An ended key
// is free again whether or not it was removed yet; this only bounds the table. Owns one thread;
// construct to start, destroy to stop.
#pragma once

#include "core/clock.h"
#include "core/periodic.h"
#include "store/db.h"

namespace parley {

class IdempotencyPurger {
 public:
  IdempotencyPurger(Database& db, const Clock& clock);

 private:
  void purge();

  Database& db_;
  const Clock& clock_;
  Periodic every_ten_minutes_;  // last: its thread stops before the members it uses go
};

}  // namespace parley
