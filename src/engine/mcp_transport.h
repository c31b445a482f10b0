// One message of the Model Context Protocol's Streamable HTTP transport, as the MCP client
// (engine/mcp_client.h) sends it: a POST through the outbound loop, pinned to the checked address,
// with the session's headers and the server's secret header, whose answer may be JSON or an event
// stream (read until the response with the request's id arrives, then the transfer stops; other
// messages on the stream are ignored). Stateless; thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/result.h"
#include "engine/mcp_client.h"

namespace parley {

// A JSON-RPC response object's text and the session the HTTP answer named.
struct McpAnswer {
  std::string message;  // empty for a notification's answer
  std::string session_id;
};
using McpDone = std::function<void(Result<McpAnswer>)>;

// Sends `body` (a request with `id`, or a notification when `id` is 0) and calls `done` once, on
// the outbound loop. Errors: unreachable, 504 timeout, a status named, "did not answer as MCP
// servers do", and 404 not_found when a server that gave a session forgets it.
void mcp_post(const McpEndpoint& endpoint, const McpSession* session, int64_t id, std::string body,
              McpDone done);

// The error of an answer that is not MCP.
ApiError mcp_not_spoken();

}  // namespace parley
