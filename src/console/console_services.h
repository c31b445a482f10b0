// The console's long-lived state, owned by the server and reached through ConsoleContext: its options
// (session lifetime, login limits) and the login throttle. Thread-safe.
#pragma once

#include <cstdint>

#include "console/login_throttle.h"
#include "core/clock.h"

namespace parley {

struct ConsoleOptions {
  int64_t session_ttl_ms = 12 * 60 * 60 * 1000;  // 12 hours from login
  LoginLimits login;
};

struct ConsoleServices {
  // `shared`: the database nodes share, where login attempts are counted; null: in memory.
  ConsoleServices(const Clock& clock, ConsoleOptions o, Database* shared = nullptr)
      : options(o), logins(clock, o.login, shared) {}

  const ConsoleOptions options;
  LoginThrottle logins;
};

}  // namespace parley
