// The console's long-lived state, owned by the server and reached through ConsoleContext: its
// options (session lifetime, login limits, who a request comes from) and the login throttle.
// Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>

#include "console/login_throttle.h"
#include "core/clock.h"
#include "http/client_address.h"

namespace parley {

struct ConsoleOptions {
  int64_t session_ttl_ms = 12 * 60 * 60 * 1000;  // 12 hours from login
  LoginLimits login;
  // The address login limits count under (a trusted proxy's header, IPv6 grouping).
  ClientAddressOptions client_address;
  // Owners may change their account's plan themselves; off: only the operator does (`parley
  // admin account set-plan`), for servers that bill outside Parley.
  bool self_service_plans = true;
  // Uploads: the largest request body of a file source's upload and of a contact import (413
  // beyond, before the body is read), and the most rows one contact import may hold.
  size_t file_upload_max_bytes = 25 * 1024 * 1024;
  size_t contact_import_max_bytes = 64 * 1024 * 1024;
  int64_t contact_import_max_rows = 200'000;
};

struct ConsoleServices {
  // `shared`: the database nodes share, where login attempts are counted; null: in memory.
  ConsoleServices(const Clock& clock, ConsoleOptions o, Database* shared = nullptr)
      : options(o),
        logins(clock, o.login, shared),
        client_address(make_client_address(o.client_address)) {}

  const ConsoleOptions options;
  LoginThrottle logins;
  const ClientAddress client_address;

 private:
  // Checked by check_node_options; the peer's address when invalid all the same.
  static ClientAddress make_client_address(const ClientAddressOptions& o) {
    auto made = ClientAddress::make(o);
    return made.ok() ? std::move(*made) : ClientAddress{};
  }
};

}  // namespace parley
