#include "engine/mcp_client.h"

#include <rapidjson/document.h>

#include <memory>

#include "core/json.h"
#include "core/log.h"
#include "crawl/user_agent.h"
#include "engine/mcp_transport.h"

namespace parley {

namespace {
ApiError not_mcp() { return mcp_not_spoken(); }

constexpr int kMaxToolPages = 10;
constexpr size_t kMaxTools = 500;
constexpr size_t kMaxErrorChars = 500;

std::string request_body(int64_t id, std::string_view method, std::string_view params_json) {
  JsonWriter w;
  w.begin_object().key("jsonrpc").string("2.0");
  if (id != 0) w.key("id").integer(id);
  w.key("method").string(method).key("params").raw(params_json).end_object();
  return w.str();
}

// The `result` object of a response, or an error saying what the server answered.
Result<rapidjson::Document> result_of(const std::string& message) {
  auto parsed = parse_json_value(message);
  if (!parsed.ok() || !parsed->IsObject()) return not_mcp();
  auto error = parsed->FindMember("error");
  if (error != parsed->MemberEnd()) {
    std::string text(string_member(error->value, "message").substr(0, kMaxErrorChars));
    return ApiError::invalid(text.empty() ? "The MCP server refused the request." : text);
  }
  auto result = parsed->FindMember("result");
  if (result == parsed->MemberEnd() || !result->value.IsObject()) return not_mcp();
  rapidjson::Document out;
  out.CopyFrom(result->value, out.GetAllocator());
  return out;
}

// Opening a session: initialize, initialized, then tools/list page after page.
struct Opening : std::enable_shared_from_this<Opening> {
  McpEndpoint ep;
  McpSession session;
  std::function<void(Result<McpSession>)> done;
  int pages = 0;

  void fail(ApiError e) {
    auto finish = std::move(done);
    finish(std::move(e));
  }

  void start() {
    JsonWriter params;
    params.begin_object().key("protocolVersion").string(kMcpProtocolVersion);
    params.key("capabilities").begin_object().end_object();
    params.key("clientInfo").begin_object().key("name").string("parley");
    params.key("version").string(parley_version()).end_object().end_object();
    mcp_post(ep, nullptr, 1, request_body(1, "initialize", params.view()),
             [self = shared_from_this()](Result<McpAnswer> answer) {
               self->initialized(std::move(answer));
             });
  }

  void initialized(Result<McpAnswer> answer) {
    if (!answer.ok()) return fail(answer.error());
    auto result = result_of(answer->message);
    if (!result.ok()) return fail(result.error());
    session.id = answer->session_id;
    session.protocol_version = std::string(string_member(*result, "protocolVersion"));
    if (session.protocol_version.empty()) return fail(not_mcp());
    mcp_post(ep, &session, 0, request_body(0, "notifications/initialized", "{}"),
             [self = shared_from_this()](Result<McpAnswer> answer) {
               if (!answer.ok()) return self->fail(answer.error());
               self->list("");
             });
  }

  void list(const std::string& cursor) {
    JsonWriter params;
    params.begin_object();
    if (!cursor.empty()) params.key("cursor").string(cursor);
    params.end_object();
    mcp_post(
        ep, &session, 2, request_body(2, "tools/list", params.view()),
        [self = shared_from_this()](Result<McpAnswer> answer) { self->listed(std::move(answer)); });
  }

  void listed(Result<McpAnswer> answer) {
    if (!answer.ok()) return fail(answer.error());
    auto result = result_of(answer->message);
    if (!result.ok()) return fail(result.error());
    auto tools = result->FindMember("tools");
    if (tools == result->MemberEnd() || !tools->value.IsArray()) return fail(not_mcp());
    for (const auto& t : tools->value.GetArray()) {
      if (!t.IsObject() || session.tools.size() == kMaxTools) continue;
      RemoteMcpTool tool;
      tool.name = std::string(string_member(t, "name"));
      tool.description = std::string(string_member(t, "description"));
      auto schema = t.FindMember("inputSchema");
      if (schema != t.MemberEnd() && schema->value.IsObject())
        tool.input_schema = to_json(schema->value);
      if (!tool.name.empty()) session.tools.push_back(std::move(tool));
    }
    std::string next(string_member(*result, "nextCursor"));
    if (!next.empty() && ++pages < kMaxToolPages) return list(next);
    auto finish = std::move(done);
    finish(std::move(session));
  }
};

std::string error_text(std::string_view message) {
  JsonWriter w;
  w.begin_object().key("error").string(message).end_object();
  return w.str();
}

void call_once(const McpEndpoint& ep, const McpSession& session, const std::string& tool,
               const std::string& arguments, std::function<void(Result<McpAnswer>)> done) {
  auto parsed = parse_json_value(arguments);
  JsonWriter params;
  params.begin_object().key("name").string(tool).key("arguments");
  if (parsed.ok() && parsed->IsObject())
    params.value(*parsed);
  else
    params.begin_object().end_object();
  params.end_object();
  mcp_post(ep, &session, 3, request_body(3, "tools/call", params.view()), std::move(done));
}

McpCallResult answered(Result<McpAnswer> answer, size_t max_bytes) {
  if (!answer.ok()) return {error_text(answer.error().message), true, std::nullopt};
  auto parsed = parse_json_value(answer->message);
  if (parsed.ok() && parsed->IsObject() && parsed->HasMember("error")) {
    auto result = result_of(answer->message);
    return {error_text(result.error().message), true, std::nullopt};
  }
  if (!parsed.ok() || !parsed->IsObject()) return {error_text(not_mcp().message), true, {}};
  auto result = parsed->FindMember("result");
  if (result == parsed->MemberEnd() || !result->value.IsObject())
    return {error_text(not_mcp().message), true, std::nullopt};
  return mcp_result_text(to_json(result->value), max_bytes);
}
}  // namespace

McpCallResult mcp_result_text(std::string_view result_json, size_t max_bytes) {
  auto parsed = parse_json_value(result_json);
  if (!parsed.ok() || !parsed->IsObject()) return {error_text(not_mcp().message), true, {}};
  const rapidjson::Document& result = *parsed;
  std::string text;
  auto content = result.FindMember("content");
  if (content != result.MemberEnd() && content->value.IsArray()) {
    for (const auto& item : content->value.GetArray()) {
      if (string_member(item, "type") != "text") continue;
      if (!text.empty()) text += "\n";
      text += string_member(item, "text");
    }
  }
  auto is_error = result.FindMember("isError");
  const bool failed =
      is_error != result.MemberEnd() && is_error->value.IsBool() && is_error->value.GetBool();
  std::string structured;
  auto sc = result.FindMember("structuredContent");
  if (sc != result.MemberEnd() && sc->value.IsObject()) structured = to_json(sc->value);
  // What the model reads is capped: text first, the structured form only when it fits whole.
  bool cut = false;
  if (text.size() > max_bytes) {
    size_t at = max_bytes;
    while (at > 0 && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) --at;
    text.resize(at);
    cut = true;
  }
  JsonWriter w;
  w.begin_object();
  if (failed) {
    w.key("error").string(text.empty() ? "The tool failed." : text);
  } else {
    w.key("content").string(text);
    if (!structured.empty() && text.size() + structured.size() <= max_bytes)
      w.key("structuredContent").raw(structured);
  }
  if (cut) w.key("truncated").boolean(true);
  w.end_object();
  return {w.str(), failed, std::nullopt};
}

void mcp_open_session(const McpEndpoint& endpoint, std::function<void(Result<McpSession>)> done) {
  auto opening = std::make_shared<Opening>();
  opening->ep = endpoint;
  opening->done = std::move(done);
  opening->start();
}

void mcp_call_tool(const McpEndpoint& endpoint, const McpSession& session, std::string tool,
                   std::string arguments_json, std::function<void(McpCallResult)> done) {
  auto ep = std::make_shared<McpEndpoint>(endpoint);
  auto name = std::make_shared<std::string>(std::move(tool));
  auto args = std::make_shared<std::string>(std::move(arguments_json));
  call_once(*ep, session, *name, *args,
            [ep, name, args, done = std::move(done)](Result<McpAnswer> answer) mutable {
              if (answer.ok() || answer.error().code != ErrorCode::kNotFound)
                return done(answered(std::move(answer), ep->max_result_bytes));
              // The server forgot the session: a new one, and the call once more in it.
              log_info("mcp_session_renewed", {{"url", std::string_view(ep->url)}});
              mcp_open_session(*ep, [ep, name, args,
                                     done = std::move(done)](Result<McpSession> opened) mutable {
                if (!opened.ok()) return done({error_text(opened.error().message), true, {}});
                auto session = std::make_shared<McpSession>(std::move(opened).value());
                call_once(*ep, *session, *name, *args,
                          [ep, session, done = std::move(done)](Result<McpAnswer> again) mutable {
                            McpCallResult out = answered(std::move(again), ep->max_result_bytes);
                            out.new_session = *session;
                            done(std::move(out));
                          });
              });
            });
}

}  // namespace parley
