#include "engine/mcp_transport.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <memory>

#include "core/json.h"
#include "crawl/user_agent.h"
#include "engine/completion_stream.h"
#include "net/outbound.h"

namespace parley {

namespace {
constexpr size_t kMaxAnswerBytes = 1u << 20;

ApiError unreachable() { return ApiError::internal("The MCP server could not be reached."); }
ApiError not_mcp() { return mcp_not_spoken(); }

// One POST and its answer, JSON or an event stream. `id` 0: a notification (202, no body).
struct Exchange {
  explicit Exchange(int64_t id, McpDone done)
      : id(id),
        parser([this](std::string_view data) { return on_event(data); }),
        done(std::move(done)) {}

  Result<void> on_event(std::string_view data) {
    auto parsed = parse_json_value(data);
    if (!parsed.ok() || !parsed->IsObject()) return ok_result();  // not ours to judge
    auto rid = parsed->FindMember("id");
    if (rid != parsed->MemberEnd() && rid->value.IsInt64() && rid->value.GetInt64() == id &&
        (parsed->HasMember("result") || parsed->HasMember("error")))
      message = std::string(data);
    return ok_result();
  }

  bool on_body(std::string_view piece) {
    if (!decided) {
      size_t first = piece.find_first_not_of(" \t\r\n");
      if (first == std::string_view::npos) return true;
      json = piece[first] == '{' || piece[first] == '[';
      decided = true;
    }
    if (json) {
      if (raw.size() + piece.size() > kMaxAnswerBytes) {
        malformed = true;
        return false;
      }
      raw.append(piece);
      return true;
    }
    if (!parser.feed(piece).ok()) {
      malformed = true;
      return false;
    }
    return !message.has_value();  // the response came: the rest of the stream is not needed
  }

  Result<McpAnswer> outcome(const SendOutcome& sent, bool had_session) {
    McpAnswer answer;
    if (auto session = sent.header("Mcp-Session-Id")) answer.session_id = *session;
    if (message) {
      answer.message = std::move(*message);
      return answer;
    }
    if (malformed) return not_mcp();
    if (sent.failure == SendFailure::kTimeout)
      return ApiError{ErrorCode::kTimeout, "The MCP server took too long."};
    if (!sent.status) return unreachable();
    if (*sent.status == 404 && had_session)
      return ApiError::not_found("The MCP server ended the session.");
    if (!sent.succeeded())
      return ApiError::internal("The MCP server answered with status " +
                                std::to_string(*sent.status) + ".");
    if (id == 0) return answer;
    if (json) {
      answer.message = std::move(raw);
      return answer;
    }
    if (parser.finish().ok() && message) {
      answer.message = std::move(*message);
      return answer;
    }
    return not_mcp();
  }

  int64_t id;
  bool decided = false;
  bool json = false;
  bool malformed = false;
  std::string raw;
  std::optional<std::string> message;
  SseParser parser;
  McpDone done;
};

}  // namespace

ApiError mcp_not_spoken() {
  return ApiError::internal("The MCP server did not answer as MCP servers do.");
}

void mcp_post(const McpEndpoint& ep, const McpSession* session, int64_t id, std::string body,
              McpDone done) {
  auto exchange = std::make_shared<Exchange>(id, std::move(done));
  TransferCall call;
  SendRequest& r = call.request;
  r.url = ep.url;
  r.body = std::move(body);
  r.headers = {{"Content-Type", "application/json"},
               {"Accept", "application/json, text/event-stream"},
               {"User-Agent", crawler_user_agent()}};
  if (session != nullptr) {
    if (!session->id.empty()) r.headers.emplace_back("Mcp-Session-Id", session->id);
    r.headers.emplace_back("MCP-Protocol-Version", session->protocol_version);
  }
  for (const auto& h : ep.headers) r.headers.push_back(h);
  r.timeout_ms = ep.timeout_ms;
  r.connect_timeout_ms = std::min<int64_t>(ep.timeout_ms, 5000);
  r.allow_http = true;  // the URL guard decided (http only where private targets are allowed)
  r.response_headers = {"Mcp-Session-Id"};
  Exchange* reading = exchange.get();  // the transfer's callbacks hold `exchange`
  r.on_body = [reading](std::string_view piece) { return reading->on_body(piece); };
  call.pin = ep.pin;
  call.ca_bundle = ep.ca_bundle;
  const bool had_session = session != nullptr && !session->id.empty();
  call.done = [exchange, had_session](SendOutcome sent) {
    auto result = exchange->outcome(sent, had_session);
    auto finish = std::move(exchange->done);
    finish(std::move(result));
  };
  start_transfer(std::move(call));
}

}  // namespace parley
