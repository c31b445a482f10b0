// The public API's routes (/api/v1), one registration function per resource file in src/api;
// register_api_routes calls them all. The server (src/server/routes.h) registers every front.
#pragma once

#include "api/api_context.h"
#include "http/router.h"

namespace parley {

void register_agent_routes(Router& router, ApiContext& app);
void register_source_routes(Router& router, ApiContext& app);
void register_conversation_routes(Router& router, ApiContext& app);
void register_lead_routes(Router& router, ApiContext& app);
void register_contact_routes(Router& router, ApiContext& app);
void register_webhook_routes(Router& router, ApiContext& app);
void register_event_routes(Router& router, ApiContext& app);
void register_chat_routes(Router& router, ApiContext& app);
// POST /mcp: the MCP server (api/mcp.h), behind the same key and rate limit.
void register_mcp_routes(Router& router, ApiContext& app);

// Every /api/v1 route, and /mcp.
void register_api_routes(Router& router, ApiContext& app);

// The OpenAI-compatible front, /openai/v1 (api/openai_routes.cpp): the same keys and gates,
// OpenAI's shapes.
void register_openai_routes(Router& router, ApiContext& app);

}  // namespace parley
