// POST /mcp: the Model Context Protocol's Streamable HTTP transport, stateless (no
// Mcp-Session-Id; docs/decisions/mcp.md). Behind the API's gate chain without its scope check
// (401 for a missing or unknown key, 429, 403 plan_required), then one JSON-RPC 2.0 message per
// request: initialize, ping, tools/list and tools/call answer in application/json; notifications
// and responses get 202 with no body. GET and DELETE answer 405 (the router's Allow: POST): the
// server offers no stream of its own and keeps no session to end.
#include <cctype>
#include <string>

#include "api/mcp.h"
#include "api/routes.h"
#include "crawl/user_agent.h"
#include "http/responses.h"

namespace parley {

namespace {
// JSON-RPC 2.0's error codes.
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;

// `id` is the request's id as JSON text ("null" when it could not be read).
Response rpc_error(int status, std::string_view id, int code, std::string_view message) {
  JsonWriter w;
  w.begin_object().key("jsonrpc").string("2.0").key("id").raw(id);
  w.key("error").begin_object().key("code").integer(code).key("message").string(message);
  w.end_object().end_object();
  return json_response(status, w);
}

Response rpc_result(std::string_view id, std::string_view result) {
  JsonWriter w;
  w.begin_object().key("jsonrpc").string("2.0").key("id").raw(id).key("result").raw(result);
  w.end_object();
  return json_response(200, w);
}

Response accepted() {
  Response r;
  r.status = 202;
  r.content_type = "text/plain";
  return r;
}

// A tools/call result: the structured content, also as text for clients that read only text;
// or the error's message with isError, and its code in _meta["parley/error"].
std::string tool_result_json(const ToolResult& result) {
  JsonWriter w;
  w.begin_object().key("content").begin_array().begin_object().key("type").string("text");
  if (result.ok()) {
    w.key("text").string(*result).end_object().end_array();
    w.key("structuredContent").raw(*result);
    w.key("isError").boolean(false);
  } else {
    const ApiError& error = result.error();
    w.key("text").string(error.message).end_object().end_array();
    w.key("isError").boolean(true);
    // The API's error code (and when to retry), for clients that act on them rather than read.
    w.key("_meta").begin_object().key("parley/error").begin_object();
    w.key("code").string(error_code_name(error.code));
    if (error.retry_after_s > 0) w.key("retryAfterSeconds").integer(error.retry_after_s);
    w.end_object().end_object();
  }
  w.end_object();
  return w.str();
}

// A header's value in lower case without spaces or tabs (media types are case-insensitive).
std::string lower(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c != ' ' && c != '\t')
      out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

bool is_supported_version(std::string_view v) {
  return v == kMcpProtocolVersion || v == kMcpOlderProtocolVersion;
}

Response initialize(std::string_view id, const rapidjson::Value* params) {
  std::string_view requested =
      params != nullptr ? string_member(*params, "protocolVersion") : std::string_view();
  if (requested.empty()) {
    return rpc_error(200, id, kInvalidParams, "'params.protocolVersion' is required (a string).");
  }
  JsonWriter w;
  w.begin_object();
  // The client's version when the server speaks it, else the newest the server speaks (the
  // client then decides whether it can go on).
  w.key("protocolVersion")
      .string(is_supported_version(requested) ? requested : kMcpProtocolVersion);
  w.key("capabilities").begin_object().key("tools").begin_object();
  w.key("listChanged").boolean(false).end_object().end_object();
  w.key("serverInfo").begin_object().key("name").string("parley").key("title").string("Parley");
  w.key("version").string(parley_version()).end_object();
  w.key("instructions")
      .string(
          "Parley's agents answer questions from their own knowledge. list_agents gives the "
          "agent ids the other tools take; ask_agent asks one (pass its conversationId back "
          "to continue a conversation).");
  w.end_object();
  return rpc_result(id, w.view());
}

Response list_tools(std::string_view id, const ApiCall& call) {
  JsonWriter w;
  w.begin_object().key("tools").begin_array();
  for (const McpTool& tool : mcp_tools()) {
    if (!call.key.allows(tool.scope)) continue;
    const bool writes = tool.name == "ask_agent" || tool.name == "upsert_contact";
    w.begin_object();
    w.key("name").string(tool.name);
    w.key("title").string(tool.title);
    w.key("description").string(tool.description);
    w.key("inputSchema").raw(tool.input_schema);
    w.key("outputSchema").raw(tool.output_schema);
    w.key("annotations").begin_object();
    w.key("title").string(tool.title);
    w.key("readOnlyHint").boolean(!writes);
    w.key("destructiveHint").boolean(false);
    w.key("idempotentHint").boolean(tool.name == "upsert_contact" || !writes);
    w.key("openWorldHint").boolean(false);
    w.end_object();
    w.end_object();
  }
  w.end_array().end_object();
  return rpc_result(id, w.view());
}

Response call_tool(std::string_view id, const rapidjson::Value* params, ApiCall& call) {
  if (params == nullptr) return rpc_error(200, id, kInvalidParams, "'params' is required.");
  const auto name_it = params->FindMember("name");
  if (name_it == params->MemberEnd() || !name_it->value.IsString()) {
    return rpc_error(200, id, kInvalidParams, "'params.name' is required (a string).");
  }
  std::string_view name(name_it->value.GetString(), name_it->value.GetStringLength());
  const McpTool* tool = find_mcp_tool(name);
  if (tool == nullptr) {
    return rpc_error(200, id, kInvalidParams, "Unknown tool '" + std::string(name) + "'.");
  }
  static const rapidjson::Value kNoArguments(rapidjson::kObjectType);
  const rapidjson::Value* args = &kNoArguments;
  if (auto it = params->FindMember("arguments"); it != params->MemberEnd() && !it->value.IsNull()) {
    if (!it->value.IsObject()) {
      return rpc_error(200, id, kInvalidParams, "'params.arguments' must be an object.");
    }
    args = &it->value;
  }
  // The id outlives this request's document: a later answer writes it.
  ToolAnswer answer = [id = std::string(id)](ToolResult result) {
    return rpc_result(id, tool_result_json(result));
  };
  if (!call.key.allows(tool->scope)) {
    return answer(ApiError{ErrorCode::kInsufficientScope,
                           "This API key lacks the '" + std::string(scope_name(tool->scope)) +
                               "' scope needed by " + std::string(tool->name) + "."});
  }
  if (tool->run_later != nullptr) {
    auto started = tool->run_later(call, *args, answer);
    return started.ok() ? std::move(started).value() : answer(started.error());
  }
  return answer(tool->run(call, *args));
}

Result<Response> handle(ApiCall& call) {
  const Request& req = call.req;
  if (auto version = req.header("MCP-Protocol-Version");
      !version.empty() && !is_supported_version(version)) {
    return rpc_error(400, "null", kInvalidRequest,
                     "Unsupported MCP-Protocol-Version '" + std::string(version) +
                         "'; this server speaks 2025-06-18 and 2025-03-26.");
  }
  if (const std::string type = lower(req.header("Content-Type"));
      type.substr(0, type.find(';')) != "application/json") {
    return rpc_error(415, "null", kInvalidRequest, "The Content-Type must be application/json.");
  }
  if (const std::string accept = lower(req.header("Accept"));
      !accept.empty() && accept.find("application/json") == std::string::npos &&
      accept.find("*/*") == std::string::npos &&
      accept.find("application/*") == std::string::npos) {
    return rpc_error(406, "null", kInvalidRequest,
                     "The Accept header must allow application/json: the server answers in JSON.");
  }
  auto parsed = parse_json_value(req.body);
  if (!parsed.ok()) {
    return rpc_error(400, "null", kParseError, "Parse error: the body is not valid JSON.");
  }
  const rapidjson::Document& msg = *parsed;
  if (msg.IsArray()) {
    return rpc_error(400, "null", kInvalidRequest,
                     "Batches are not supported: send one JSON-RPC message per request.");
  }
  if (!msg.IsObject()) {
    return rpc_error(400, "null", kInvalidRequest, "The body must be a JSON-RPC 2.0 object.");
  }
  const auto id_it = msg.FindMember("id");
  const bool has_id = id_it != msg.MemberEnd();
  if (has_id && !id_it->value.IsString() && !id_it->value.IsInt64()) {
    return rpc_error(400, "null", kInvalidRequest, "'id' must be a string or an integer.");
  }
  const std::string id = has_id ? to_json(id_it->value) : "null";
  if (string_member(msg, "jsonrpc") != "2.0") {
    return rpc_error(400, id, kInvalidRequest, "'jsonrpc' must be \"2.0\".");
  }
  const auto method_it = msg.FindMember("method");
  if (method_it == msg.MemberEnd()) {
    // A client's response to a server request: the server sends none, so there is nothing to do.
    if (has_id && (msg.HasMember("result") || msg.HasMember("error"))) return accepted();
    return rpc_error(400, id, kInvalidRequest, "'method' is required.");
  }
  if (!method_it->value.IsString()) {
    return rpc_error(400, id, kInvalidRequest, "'method' must be a string.");
  }
  std::string_view method(method_it->value.GetString(), method_it->value.GetStringLength());
  if (!has_id) return accepted();  // a notification (notifications/initialized, cancelled, …)
  const rapidjson::Value* params = nullptr;
  if (auto it = msg.FindMember("params"); it != msg.MemberEnd() && !it->value.IsNull()) {
    if (!it->value.IsObject())
      return rpc_error(200, id, kInvalidParams, "'params' must be an object.");
    params = &it->value;
  }
  if (method == "initialize") return initialize(id, params);
  if (method == "ping") return rpc_result(id, "{}");
  if (method == "tools/list") return list_tools(id, call);
  if (method == "tools/call") return call_tool(id, params, call);
  return rpc_error(200, id, kMethodNotFound, "Method not found: '" + std::string(method) + "'.");
}
}  // namespace

void register_mcp_routes(Router& router, ApiContext& app) {
  add_api_route_any_scope(router, app, "POST", "/mcp", Execution::kPool, handle);
}

}  // namespace parley
