#include "store/worker_lease_repo.h"

namespace parley {

Result<bool> WorkerLeaseRepo::claim(Connection& c, std::string_view name, std::string_view owner,
                                    int64_t now, int64_t until) {
  bool held = false;
  PARLEY_TRY(c.query(
      "INSERT INTO worker_leases (name, owner, lease_until) VALUES ($1, $2, $3) "
      "ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until "
      "WHERE worker_leases.owner = excluded.owner OR worker_leases.lease_until < $4 RETURNING "
      "owner",
      {name, owner, until, now}, [&](const Row& r) { held = r.text_view(0) == owner; }));
  return held;
}

Result<void> WorkerLeaseRepo::release(Connection& c, std::string_view name,
                                      std::string_view owner) {
  PARLEY_TRY(c.execute("UPDATE worker_leases SET lease_until = 0 WHERE name = $1 AND owner = $2",
                       {name, owner}));
  return {};
}

}  // namespace parley
