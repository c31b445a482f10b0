// API actions: HTTP calls an agent is configured to make (setting `apiActions`: name,
// description, method, url template with {param} placeholders, parameters, headers) that the
// `openai` engine offers the model as tools. A call goes through the one outbound client
// (net/http_sender.h: https only; the host must resolve to public addresses only; the connection
// is pinned to the checked address; no redirects, no proxy), with a short timeout and a response
// size cap.
// Whatever happens, the model gets a JSON result (status and body, or an error), never the
// reply's failure. Client-side actions (`clientActions`, run in a web page) are never offered.
// ApiActionCaller is thread-safe when its Resolver is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"
#include "engine/openai_client.h"
#include "model/agent_settings.h"
#include "net/http_sender.h"
#include "net/pinned_curl.h"

namespace parley {

inline constexpr std::string_view kApiActionToolPrefix = "action_";

// The tool offered for an action: "action_<name>", its parameters as string properties.
ToolSpec api_action_tool(const ApiAction& action);

// The request an action makes for the model's arguments: placeholders replaced by the
// URL-encoded values; other arguments go in the query (GET, DELETE) or a JSON body. 400 naming
// the parameter when a required one is missing.
struct ActionRequest {
  std::string url;
  std::string body;  // JSON object, or empty
};
Result<ActionRequest> build_action_request(const ApiAction& action,
                                           std::string_view arguments_json);

struct ApiActionOptions {
  bool allow_private_targets = false;  // tests and local development only
  std::string ca_bundle;               // PEM trusted instead of the system's CAs (tests), or empty
  int64_t timeout_ms = 5000;
  size_t max_response_bytes = 16 * 1024;
};

class ApiActionCaller {
 public:
  ApiActionCaller(Resolver& resolver, ApiActionOptions options)
      : resolver_(resolver),
        options_(std::move(options)),
        sender_(resolver, {options_.allow_private_targets, options_.ca_bundle, options_.timeout_ms,
                           options_.timeout_ms}) {}

  // The JSON result handed to the model: {"status": 200, "body": "..."} (the body cut at the
  // cap, with "truncated": true) or {"error": "..."}.
  std::string call(const ApiAction& action, std::string_view arguments_json) const;

  // The address guard for the other URL a team member configures, an agent's own LLM provider:
  // https, an address checked once and to be pinned for the whole reply; with private targets
  // allowed (tests, development) http and any address too. 500 internal_error naming
  // `llm.baseUrl` when refused, the same message whatever the reason.
  Result<PinnedTarget> provider_target(std::string_view base_url) const;

  // The same guard for the addresses an agent's tools reach (an MCP server, a search provider,
  // a page a search found): 400 invalid_request saying the address is refused, the same message
  // whatever the reason.
  Result<PinnedTarget> tool_target(std::string_view url) const;
  // The CAs trusted for those calls (empty: the system's); lives as long as this caller.
  std::string_view ca_bundle() const { return options_.ca_bundle; }

 private:
  Resolver& resolver_;
  ApiActionOptions options_;
  mutable CurlSender sender_;  // keeps nothing between calls: safe from const call()
};

}  // namespace parley
