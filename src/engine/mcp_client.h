// The client side of the Model Context Protocol's Streamable HTTP transport (protocol version
// 2025-06-18), as the `openai` engine uses a remote MCP server's tools: `initialize`, the
// `notifications/initialized` notice and `tools/list` (every page) make a session and its tools;
// `tools/call` runs one tool. Each message is one POST through the outbound loop
// (net/outbound.h), pinned to the address the URL guard checked; the answer may be JSON or an
// event stream, read until the response to the request arrives. A server that forgets the
// session (404) is initialised again once. Nothing blocks: each function returns at once and
// calls `done` exactly once, on the outbound loop's thread (or at once on the calling thread
// when nothing could be sent). Stateless functions; thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"
#include "net/pinned_curl.h"

namespace parley {

inline constexpr std::string_view kMcpProtocolVersion = "2025-06-18";

// Where one server is and how to reach it for one reply.
struct McpEndpoint {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;  // the server's secret header, opened
  std::optional<PinnedTarget> pin;      // the checked address (always set outside unit tests)
  std::string_view ca_bundle;           // must outlive the calls; empty: the system's CAs
  int64_t timeout_ms = 10'000;          // each HTTP request
  size_t max_result_bytes = 16 * 1024;  // of a tool's result handed on
};

struct RemoteMcpTool {
  std::string name;
  std::string description;
  std::string input_schema = R"({"type":"object","properties":{}})";  // JSON Schema object
};

// An initialised session and the server's tools (every one it lists; the caller filters).
struct McpSession {
  std::string id;                // Mcp-Session-Id; empty for a server that keeps none
  std::string protocol_version;  // what the server chose
  std::vector<RemoteMcpTool> tools;
};

// What a tool call gave: the text handed to the model, and whether the server said the tool
// failed (`isError`), or the call itself did.
struct McpCallResult {
  std::string text;  // JSON: {"content": "...", "structuredContent": {...}} or {"error": "..."}
  bool is_error = false;
  // The session the call used, when it had to be made again (the server forgot the old one).
  std::optional<McpSession> new_session;
};

// Initialises a session and lists its tools. Errors (never quoting the server's words, which
// the model would read): the server could not be reached, took too long, or did not speak MCP.
void mcp_open_session(const McpEndpoint& endpoint, std::function<void(Result<McpSession>)> done);

// Calls `tool` with the model's arguments (a JSON object's text; anything else is sent as {}).
// Never an error: what went wrong is the result's text, with `is_error`.
void mcp_call_tool(const McpEndpoint& endpoint, const McpSession& session, std::string tool,
                   std::string arguments_json, std::function<void(McpCallResult)> done);

// The model's view of a `tools/call` result object (exposed for tests): its text content joined
// and its structured content, cut to `max_bytes`.
McpCallResult mcp_result_text(std::string_view result_json, size_t max_bytes);

}  // namespace parley
