#include "engine/api_actions.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <cctype>

#include "core/json.h"
#include "core/log.h"
#include "core/percent_encoding.h"

namespace parley {

namespace {
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 && hex_value(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

// Whether a segment is "." or "..", as written or once a server along the way has decoded it
// (any number of times: "%2e%2E", "%252e%252e"), so that no receiver or gateway climbs the path
// with the tenant's credentials.
bool is_dot_segment(std::string_view segment) {
  std::string text(segment);
  for (int round = 0; round < 4; ++round) {
    if (text == "." || text == "..") return true;
    std::string decoded = percent_decode(text);
    if (decoded == text) break;
    text = std::move(decoded);
  }
  return text == "." || text == "..";
}

// An argument as text: strings as they are, other JSON values serialised.
std::string argument_text(const rapidjson::Value& v) {
  if (v.IsString()) return {v.GetString(), v.GetStringLength()};
  return to_json(v);
}

std::string error_result(std::string_view message) {
  JsonWriter w;
  w.begin_object().key("error").string(message).end_object();
  return w.str();
}

}  // namespace

ToolSpec api_action_tool(const ApiAction& action) {
  JsonWriter w;
  w.begin_object().key("type").string("object").key("properties").begin_object();
  for (const auto& p : action.parameters) {
    w.key(p.name).begin_object().key("type").string("string");
    if (!p.description.empty()) w.key("description").string(p.description);
    w.end_object();
  }
  w.end_object().key("required").begin_array();
  for (const auto& p : action.parameters)
    if (p.required) w.string(p.name);
  w.end_array().end_object();
  std::string description =
      action.description.empty() ? "Calls " + action.name + "." : action.description;
  return {std::string(kApiActionToolPrefix) + action.name, description, w.str()};
}

Result<ActionRequest> build_action_request(const ApiAction& action,
                                           std::string_view arguments_json) {
  // The model writes the arguments; a user's message can steer it to write anything.
  auto parsed = parse_json_value(arguments_json);
  rapidjson::Document args;
  if (parsed.ok() && parsed->IsObject())
    args.Swap(*parsed);
  else
    args.SetObject();
  for (const auto& p : action.parameters) {
    auto it = args.FindMember(p.name.c_str());
    if (p.required && (it == args.MemberEnd() || it->value.IsNull())) {
      return ApiError::invalid("'" + p.name + "' is required.");
    }
  }
  // Arguments come from the model, which a user's message can steer: they may fill the path and
  // the query, never the scheme, host or port, so an action's headers (its credentials) only
  // ever go to the host its author wrote.
  size_t authority = action.url.find("://");
  size_t path_start =
      authority == std::string::npos ? 0 : action.url.find_first_of("/?#", authority + 3);
  if (path_start == std::string::npos) path_start = action.url.size();
  if (action.url.find('{') < path_start) {
    return ApiError::invalid("An action's URL may take parameters only in its path and query.");
  }
  size_t template_query = std::min(action.url.find_first_of("?#", path_start), action.url.size());
  ActionRequest out;
  std::vector<std::string> used;
  std::string& url = out.url;
  for (size_t i = 0; i < action.url.size(); ++i) {
    size_t close = action.url[i] == '{' ? action.url.find('}', i) : std::string::npos;
    if (close == std::string::npos) {
      url.push_back(action.url[i]);
      continue;
    }
    std::string name = action.url.substr(i + 1, close - i - 1);
    auto it = args.FindMember(name.c_str());
    if (it != args.MemberEnd() && !it->value.IsNull()) {
      std::string text = argument_text(it->value);
      if (i < template_query && is_dot_segment(text))
        return ApiError::invalid("'" + name + "' may not be '.' or '..'.");
      url += percent_encode(text);
    }
    used.push_back(name);
    i = close;
  }
  // Two arguments side by side ("{a}{b}" as "." and ".") can still make a dot segment.
  size_t path_end = std::min(url.find_first_of("?#", path_start), url.size());
  for (size_t at = path_start; at < path_end;) {
    size_t next = std::min(url.find('/', at + 1), path_end);
    std::string_view segment(url.data() + at, next - at);
    if (!segment.empty() && segment.front() == '/') segment.remove_prefix(1);
    if (is_dot_segment(segment)) {
      return ApiError::invalid("An action's path may not hold a '.' or '..' segment.");
    }
    at = next;
  }
  // The remaining declared parameters (undeclared ones the model invents are dropped).
  bool in_query = action.method == "GET" || action.method == "DELETE";
  JsonWriter body;
  body.begin_object();
  bool any_body = false;
  for (const auto& p : action.parameters) {
    if (std::find(used.begin(), used.end(), p.name) != used.end()) continue;
    auto it = args.FindMember(p.name.c_str());
    if (it == args.MemberEnd() || it->value.IsNull()) continue;
    if (in_query) {
      url += (url.find('?') == std::string::npos ? '?' : '&');
      url += percent_encode(p.name) + "=" + percent_encode(argument_text(it->value));
    } else {
      body.key(p.name).value(it->value);
      any_body = true;
    }
  }
  body.end_object();
  if (!in_query) out.body = any_body ? body.str() : "{}";
  return out;
}

std::string ApiActionCaller::call(const ApiAction& action, std::string_view arguments_json) const {
  auto built = build_action_request(action, arguments_json);
  if (!built.ok()) return error_result(built.error().message);
  SendRequest request;
  request.url = std::move(built->url);
  request.method = action.method;
  request.body = std::move(built->body);
  request.headers.emplace_back("Accept", "application/json");
  if (!request.body.empty()) request.headers.emplace_back("Content-Type", "application/json");
  for (const auto& header : action.headers) request.headers.push_back(header);
  request.max_response_bytes = options_.max_response_bytes;
  SendOutcome outcome = sender_.send(request);
  switch (outcome.failure) {
    case SendFailure::kNone:
      break;
    case SendFailure::kUrl:
      return error_result("The action's address is refused: it must be an https URL.");
    case SendFailure::kAddress:
      log_warn("api_action_refused", {{"action", std::string_view(action.name)}});
      return error_result("The action's address is refused: it is not a public address.");
    default:
      log_warn("api_action_failed", {{"action", std::string_view(action.name)},
                                     {"error", std::string_view(outcome.error.value_or(""))}});
      return error_result(outcome.failure == SendFailure::kTimeout
                              ? "The action took too long."
                              : "The action could not be reached.");
  }
  JsonWriter w;
  w.begin_object().key("status").integer(*outcome.status).key("body").string(outcome.body);
  if (outcome.truncated) w.key("truncated").boolean(true);
  w.end_object();
  return w.str();
}

Result<PinnedTarget> ApiActionCaller::provider_target(std::string_view base_url) const {
  // One message whatever the reason (malformed, internal name, private address, no address), so
  // that the answer tells a team member nothing about the server's network or its resolver.
  auto refused = [&](const ApiError& why) -> ApiError {
    log_warn("llm_provider_refused", {{"reason", std::string_view(why.message)}});
    return ApiError::internal(
        "The agent's llm.baseUrl is refused: it must be an https URL whose host resolves only to "
        "public addresses.");
  };
  auto url = parse_target_url(base_url, /*allow_http=*/options_.allow_private_targets);
  if (!url.ok()) return refused(url.error());
  auto target = pin_target(*url, resolver_, options_.allow_private_targets);
  if (!target.ok()) return refused(target.error());
  return std::move(*target);
}

Result<PinnedTarget> ApiActionCaller::tool_target(std::string_view url) const {
  auto refused = [&](const ApiError& why) -> ApiError {
    log_info("tool_address_refused", {{"reason", std::string_view(why.message)}});
    return ApiError::invalid(
        "The address is refused: it must be an https URL whose host resolves only to public "
        "addresses.");
  };
  auto parsed = parse_target_url(url, /*allow_http=*/options_.allow_private_targets);
  if (!parsed.ok()) return refused(parsed.error());
  auto target = pin_target(*parsed, resolver_, options_.allow_private_targets);
  if (!target.ok()) return refused(target.error());
  return std::move(*target);
}

}  // namespace parley
