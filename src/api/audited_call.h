// The public API's audit step: runs an audited route's handler (api_context.h add_api_route with a
// RouteAudit) with its writes recorded in the audit log as the API key that made them (its id and
// name), from the client's address. Called on the request's thread.
#pragma once

#include "api/api_context.h"

namespace parley {

Response run_audited_api_call(ApiContext& app, Request& req, const KeyEntry& key,
                              const RouteAudit& audit, const ApiHandler& handler);

}  // namespace parley
