// The console gate's audit step (console/gate.h ConsoleAudit): runs a route's handler with its
// writes recorded in the audit log, as the member who made them, from the client's address.
// Called on the request's thread; thread-safe as the handler is.
#pragma once

#include "console/gate.h"

namespace parley {

Response run_audited_call(ConsoleContext& app, Request& req, const MemberSession& who,
                          std::string_view token, const ConsoleAudit& audit,
                          const ConsoleHandler& handler);

}  // namespace parley
