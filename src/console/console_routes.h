// The console's routes, one registration function per resource file in src/console;
// register_console_routes calls them all. Later console parts (live chat,
// webhooks, sources, data) add their own function here and a line in console_routes.cpp.
#pragma once

#include "console/console_context.h"
#include "http/router.h"

namespace parley {

void register_console_session_routes(Router& router, ConsoleContext& app);  // login, logout, me
void register_console_member_routes(Router& router, ConsoleContext& app);
void register_console_account_routes(Router& router, ConsoleContext& app);  // plan changes
void register_console_key_routes(Router& router, ConsoleContext& app);
void register_console_agent_routes(Router& router, ConsoleContext& app);
void register_console_live_chat_routes(Router& router,
                                       ConsoleContext& app);  // takeover, reply, end
void register_console_webhook_routes(Router& router, ConsoleContext& app);
void register_console_knowledge_routes(Router& router, ConsoleContext& app);  // sources
void register_console_crawl_routes(Router& router, ConsoleContext& app);      // website crawls
void register_console_data_routes(Router& router,
                                  ConsoleContext& app);  // conversations, leads, contacts
void register_console_import_routes(Router& router, ConsoleContext& app);  // contact CSV import
void register_console_inbox_routes(Router& router,
                                   ConsoleContext& app);  // live chats, as a list and a stream
void register_console_try_routes(Router& router, ConsoleContext& app);  // the "try it" chat
// An agent's "Test connection" of its language model.
void register_console_llm_check_routes(Router& router, ConsoleContext& app);
void register_console_workspace_routes(Router& router,
                                       ConsoleContext& app);  // Notion pages as knowledge
void register_console_audit_routes(Router& router, ConsoleContext& app);  // the audit log
void register_console_analytics_routes(Router& router,
                                       ConsoleContext& app);  // an agent's figures per day
void register_console_identity_routes(Router& router,
                                      ConsoleContext& app);             // widget identity secret
void register_console_gap_routes(Router& router, ConsoleContext& app);  // knowledge gaps, answers

// Every /console/v1 route.
void register_console_routes(Router& router, ConsoleContext& app);

void register_console_records_routes(Router& router, ConsoleContext& app);  // export, erasure
}  // namespace parley
