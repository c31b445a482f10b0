#include "workers/idempotency_purger.h"

#include "core/log.h"
#include "store/idempotency_repo.h"

namespace parley {

IdempotencyPurger::IdempotencyPurger(Database& db, const Clock& clock)
    : db_(db), clock_(clock), every_ten_minutes_(std::chrono::minutes(10), [this] { purge(); }) {
  // The first purge runs before the server answers, so a restart starts from a bounded table.
  purge();
}

void IdempotencyPurger::purge() {
  const int64_t now = clock_.now_ms();
  auto removed = db_.write([now](Connection& c) -> Result<void> {
    PARLEY_TRY(IdempotencyRepo::purge(c, now));
    return {};
  });
  if (!removed.ok()) log_warn("idempotency keys not purged", {{"error", std::string_view(removed.error().message)}});
}

}  // namespace parley
