#include "workers/rate_window_writer.h"

#include <chrono>

#include "domain/rate_limiter.h"
#include "store/rate_window_repo.h"
#include "store/shared_window_repo.h"

namespace parley {

RateWindowWriter::RateWindowWriter(Database& db, RateLimiter& limiter)
    : db_(db), limiter_(limiter), every_second_(std::make_unique<Periodic>(std::chrono::seconds(1), [this] { tick(); })) {}

RateWindowWriter::~RateWindowWriter() {
  every_second_.reset();  // no tick runs beside the last flush
  flush();
  limiter_.return_unused(/*expired_only=*/false);
}

void RateWindowWriter::tick() {
  flush();
  limiter_.return_unused(/*expired_only=*/true);
  if (++ticks_ % 60 == 0 && db_.shared_by_nodes()) purge_shared_windows();
}

void RateWindowWriter::purge_shared_windows() {
  // The longest shared window is a day (a lasting one's, 30 days; SharedWindowRepo::purge): what
  // started two days ago has ended on every node.
  using namespace std::chrono;
  int64_t before = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count() - 2 * 86'400'000LL;
  (void)db_.write_volatile([before](Connection& c) -> Result<void> {
    PARLEY_TRY(SharedWindowRepo::purge(c, before));
    return {};
  });
}

void RateWindowWriter::flush() {
  auto dirty = limiter_.take_dirty();
  if (dirty.empty()) return;
  db_.write_async([dirty = std::move(dirty)](Connection& c) -> Result<void> {
    for (const auto& w : dirty) PARLEY_TRY(RateWindowRepo::save(c, w));
    return {};
  });
}

}  // namespace parley
