// The console's long-lived state, owned by the server and reached through ConsoleContext: its options
// (session lifetime, login limits) and the login throttle. Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>

#include "console/login_throttle.h"
#include "core/clock.h"

namespace parley {

struct ConsoleOptions {
  int64_t session_ttl_ms = 12 * 60 * 60 * 1000;  // 12 hours from login
  LoginLimits login;
  // Uploads: the largest request body of a file source's upload and of a contact import (413
  // beyond, before the body is read), and the most rows one contact import may hold.
  size_t file_upload_max_bytes = 25 * 1024 * 1024;
  size_t contact_import_max_bytes = 64 * 1024 * 1024;
  int64_t contact_import_max_rows = 200'000;
};

struct ConsoleServices {
  // `shared`: the database nodes share, where login attempts are counted; null: in memory.
  ConsoleServices(const Clock& clock, ConsoleOptions o, Database* shared = nullptr)
      : options(o), logins(clock, o.login, shared) {}

  const ConsoleOptions options;
  LoginThrottle logins;
};

}  // namespace parley
