// The MCP server behind POST /mcp (docs/mcp.md): the tools an MCP client may call with a Parley
// API key, each listed only when the key's scopes allow it. A tool's input is checked here (a
// message naming the argument); its work is the REST endpoint's own domain call, and its
// structured result is that endpoint's JSON body. The JSON-RPC and transport rules are in
// mcp_protocol.cpp, the schemas in mcp_schemas.cpp, ask_agent in mcp_ask.cpp. The tool table is
// immutable; every function is safe from many threads.
#pragma once

#include <rapidjson/document.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/api_context.h"
#include "core/result.h"
#include "http/message.h"
#include "model/scopes.h"

namespace parley {

// The protocol versions the server speaks, newest first (docs/decisions/mcp.md).
inline constexpr std::string_view kMcpProtocolVersion = "2025-06-18";
inline constexpr std::string_view kMcpOlderProtocolVersion = "2025-03-26";

// A tool's answer: its structured content (the text of a JSON object), or why the call failed,
// which the client receives as a tool result with isError and the message.
using ToolResult = Result<std::string>;
// Makes the HTTP response of the JSON-RPC request that called a tool from the tool's answer.
using ToolAnswer = std::function<Response(ToolResult)>;

struct McpTool {
  std::string_view name;
  Scope scope;  // the key must hold it for the tool to be listed or called
  std::string_view title;
  std::string_view description;
  std::string_view input_schema;   // JSON Schema (an object's text)
  std::string_view output_schema;  // the structured content's JSON Schema
  // A tool that answers at once.
  ToolResult (*run)(ApiCall& call, const rapidjson::Value& args) = nullptr;
  // A tool that answers later (ask_agent): returns a Response::later that sends answer(...) once
  // the tool is done, or the error that refused the call before it started.
  Result<Response> (*run_later)(ApiCall& call, const rapidjson::Value& args,
                                ToolAnswer answer) = nullptr;
};

// Every tool, in the order tools/list gives them.
const std::vector<McpTool>& mcp_tools();
// The tool named `name`, or null.
const McpTool* find_mcp_tool(std::string_view name);

// ask_agent (mcp_ask.cpp): the chat endpoint's turn, answered without a thread waiting.
Result<Response> ask_agent_tool(ApiCall& call, const rapidjson::Value& args, ToolAnswer answer);

// The schemas (mcp_schemas.cpp), one pair per tool.
struct ToolSchemas {
  std::string_view input;
  std::string_view output;
};
ToolSchemas mcp_schemas(std::string_view tool_name);

// Argument checks naming the argument: 400 invalid_request (a tool error) when `args` holds a
// member not in `allowed`, or when an integer argument is not one or is outside [min, max].
Result<void> only_arguments(const rapidjson::Value& args,
                            std::initializer_list<std::string_view> allowed);
Result<std::optional<int64_t>> integer_argument(const rapidjson::Value& args, std::string_view name,
                                                int64_t min, int64_t max);

}  // namespace parley
