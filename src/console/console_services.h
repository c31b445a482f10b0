// The console's long-lived state, owned by the server and reached through ConsoleContext: its
// options (session lifetime, login limits, who a request comes from) and the login throttle.
// Thread-safe.
#pragma once

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
