// The console's routes, one registration function per resource file in src/console;
// register_console_routes (api/routes.h) calls them all. Later console parts (live chat,
// webhooks, sources, data) add their own function here and a line in console_routes.cpp.
#pragma once

#include "api/app.h"
#include "http/router.h"

namespace parley {

void register_console_session_routes(Router& router, App& app);  // login, logout, me
void register_console_member_routes(Router& router, App& app);
void register_console_account_routes(Router& router, App& app);  // plan changes
void register_console_key_routes(Router& router, App& app);
void register_console_agent_routes(Router& router, App& app);
void register_console_live_chat_routes(Router& router, App& app);  // takeover, reply, end
void register_console_webhook_routes(Router& router, App& app);

}  // namespace parley
