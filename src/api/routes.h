// Every route of the server: the public API (one registration function per resource file),
// health and readiness.
#pragma once

#include "api/app.h"
#include "http/router.h"

namespace parley {

void register_agent_routes(Router& router, App& app);
void register_source_routes(Router& router, App& app);
// Every /console/v1 route (src/console).
void register_console_routes(Router& router, App& app);
void register_conversation_routes(Router& router, App& app);
void register_lead_routes(Router& router, App& app);
void register_contact_routes(Router& router, App& app);
void register_webhook_routes(Router& router, App& app);
void register_event_routes(Router& router, App& app);
void register_chat_routes(Router& router, App& app);

// Registers every route of the public API and /healthz, /readyz.
void register_routes(Router& router, App& app);

}  // namespace parley
