#include "store/rate_window_repo.h"

namespace parley {

Result<void> RateWindowRepo::save(Connection& c, const RateWindow& w) {
  PARLEY_TRY(c.execute(
      "INSERT INTO rate_windows (key_id, window_start, count) SELECT $1, $2, $3"
      " WHERE EXISTS (SELECT 1 FROM api_keys WHERE id = $1)"
      " ON CONFLICT (key_id) DO UPDATE SET window_start = excluded.window_start, count = excluded.count",
      {w.key_id, w.window_start_ms, w.count}));
  return {};
}

Result<std::vector<RateWindow>> RateWindowRepo::current(Connection& c, int64_t now_ms) {
  std::vector<RateWindow> out;
  int64_t start = now_ms - now_ms % 60'000;
  PARLEY_TRY(c.query("SELECT key_id, window_start, count FROM rate_windows WHERE window_start = $1", {start},
                     [&](const Row& r) { out.push_back({r.text(0), r.int64(1), r.int64(2)}); }));
  return out;
}

}  // namespace parley
