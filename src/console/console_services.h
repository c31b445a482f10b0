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
  ConsoleServices(const Clock& clock, ConsoleOptions o) : options(o), logins(clock, o.login) {}

  const ConsoleOptions options;
  LoginThrottle logins;
};

}  // namespace parley
