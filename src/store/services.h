// The services domain functions need: the database, the clock and randomness, passed in (never
// reached through globals) so tests can substitute each.
#pragma once

#include "core/clock.h"
#include "core/random.h"
#include "store/db.h"

namespace parley {

struct Services {
  Database& db;
  const Clock& clock;
  Random& random;
};

}  // namespace parley
