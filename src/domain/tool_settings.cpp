#include "domain/tool_settings.h"

#include <algorithm>
#include <cctype>

#include "core/json.h"
#include "domain/agent_settings.h"
#include "model/tool_settings.h"

namespace parley {

namespace {
std::string_view text_of(const rapidjson::Value& v) { return {v.GetString(), v.GetStringLength()}; }

const rapidjson::Value* find(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject()) return nullptr;
  auto it = object.FindMember(name);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

bool is_marker(const rapidjson::Value* v) {
  return v != nullptr && v->IsString() && text_of(*v) == kRedactedSecret;
}

// An HTTP header name (RFC 9110 token characters).
bool is_header_name(std::string_view name) {
  if (name.empty() || name.size() > 100) return false;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) continue;
    if (std::string_view("!#$%&'*+-.^_`|~").find(c) == std::string_view::npos) return false;
  }
  return true;
}

// Headers the MCP transport sets itself, which a setting may not replace.
bool is_transport_header(std::string name) {
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view own : {"accept", "content-type", "content-length", "host", "mcp-session-id",
                               "mcp-protocol-version", "connection", "transfer-encoding"})
    if (name == own) return true;
  return false;
}

Result<void> invalid(const std::string& at, std::string_view rule) {
  return ApiError::invalid("Setting '" + at + "' must be " + std::string(rule) + ".");
}

// A secret member that is either the marker or a non-empty string without line breaks.
Result<void> check_secret(const rapidjson::Value* v, const std::string& at) {
  if (v == nullptr || (v->IsString() && v->GetStringLength() > 0 && v->GetStringLength() <= 4096 &&
                       text_of(*v).find_first_of("\r\n") == std::string_view::npos))
    return ok_result();
  return invalid(at, "a string of 1 to 4096 characters without line breaks");
}

Result<void> check_mcp_server(const rapidjson::Value& v, const std::string& at,
                              const rapidjson::Value& all, rapidjson::SizeType index) {
  if (!v.IsObject()) return invalid(at, "an object");
  const rapidjson::Value* name = find(v, "name");
  if (name == nullptr || !name->IsString() || !is_tool_identifier(text_of(*name), 20))
    return invalid(at + ".name", "1 to 20 letters, digits, '_' or '-'");
  for (rapidjson::SizeType j = 0; j < index; ++j) {
    const rapidjson::Value* other = find(all[j], "name");
    if (other != nullptr && *other == *name)
      return ApiError::invalid("Setting '" + at + ".name' repeats the name of mcpServers[" +
                               std::to_string(j) + "].");
  }
  const rapidjson::Value* url = find(v, "url");
  if (url == nullptr || !url->IsString() || !is_web_url(text_of(*url)))
    return invalid(at + ".url", "an http or https URL");
  const rapidjson::Value* header = find(v, "headerName");
  const rapidjson::Value* secret = find(v, "headerValue");
  if (header != nullptr && (!header->IsString() || !is_header_name(text_of(*header)) ||
                            is_transport_header(std::string(text_of(*header)))))
    return invalid(at + ".headerName",
                   "an HTTP header name other than those the transport sets (Accept, "
                   "Content-Type, Mcp-Session-Id, …)");
  PARLEY_TRY(check_secret(secret, at + ".headerValue"));
  if ((header == nullptr) != (secret == nullptr))
    return ApiError::invalid("Setting '" + at + ".headerName' and '" + at +
                             ".headerValue' must be given together.");
  const rapidjson::Value* tools = find(v, "allowedTools");
  if (tools == nullptr || !tools->IsArray() || tools->Size() > kMaxMcpAllowedTools)
    return invalid(at + ".allowedTools",
                   "an array of at most " + std::to_string(kMaxMcpAllowedTools) + " tool names");
  for (rapidjson::SizeType t = 0; t < tools->Size(); ++t) {
    if (!(*tools)[t].IsString() || !is_mcp_tool_name(text_of((*tools)[t])))
      return invalid(at + ".allowedTools[" + std::to_string(t) + "]",
                     "a tool name of 1 to 64 letters, digits, '_', '-' or '.'");
  }
  for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) {
    std::string_view member = text_of(m->name);
    if (member != "name" && member != "url" && member != "headerName" && member != "headerValue" &&
        member != "allowedTools")
      return ApiError::invalid("Setting '" + at + "' has an unknown member '" +
                               std::string(member) +
                               "'. Known: name, url, headerName, headerValue, allowedTools.");
  }
  return ok_result();
}

Result<void> check_web_search(const rapidjson::Value& v) {
  for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) {
    std::string_view member = text_of(m->name);
    if (member != "enabled" && member != "provider" && member != "url" && member != "apiKey" &&
        member != "maxResults" && member != "fetchPages")
      return ApiError::invalid("Setting 'webSearch' has an unknown member '" + std::string(member) +
                               "'. Known: enabled, provider, url, apiKey, maxResults, fetchPages.");
  }
  const rapidjson::Value* enabled = find(v, "enabled");
  if (enabled != nullptr && !enabled->IsBool()) return invalid("webSearch.enabled", "a boolean");
  const rapidjson::Value* fetch = find(v, "fetchPages");
  if (fetch != nullptr && !fetch->IsBool()) return invalid("webSearch.fetchPages", "a boolean");
  const rapidjson::Value* provider = find(v, "provider");
  std::string_view chosen = kSearxng;
  if (provider != nullptr) {
    if (!provider->IsString() ||
        (text_of(*provider) != kSearxng && text_of(*provider) != kBraveSearch))
      return invalid("webSearch.provider", "searxng or brave");
    chosen = text_of(*provider);
  }
  const rapidjson::Value* url = find(v, "url");
  if (url != nullptr && (!url->IsString() || !is_web_url(text_of(*url))))
    return invalid("webSearch.url", "an http or https URL");
  const bool on = enabled != nullptr && enabled->GetBool();
  if (on && chosen == kSearxng && url == nullptr)
    return ApiError::invalid(
        "Setting 'webSearch.url' is required with the searxng provider: the "
        "address of the SearXNG instance.");
  const rapidjson::Value* key = find(v, "apiKey");
  PARLEY_TRY(check_secret(key, "webSearch.apiKey"));
  if (on && chosen == kBraveSearch && key == nullptr)
    return ApiError::invalid("Setting 'webSearch.apiKey' is required with the brave provider.");
  const rapidjson::Value* results = find(v, "maxResults");
  if (results != nullptr &&
      (!results->IsInt64() || results->GetInt64() < 1 || results->GetInt64() > kMaxWebResults))
    return invalid("webSearch.maxResults",
                   "an integer from 1 to " + std::to_string(kMaxWebResults));
  return ok_result();
}

// Seals the secret member `member` of `entry`, or puts back `stored`'s when it is the marker.
Result<void> seal_member(rapidjson::Value& entry, const char* member,
                         const rapidjson::Value* stored, const char* url_member,
                         const std::string& at, rapidjson::Document::AllocatorType& alloc,
                         const SecretSealer* sealer) {
  auto it = entry.FindMember(member);
  if (it == entry.MemberEnd()) return ok_result();
  const std::string secret = at + "." + member;
  if (is_marker(&it->value)) {
    const rapidjson::Value* old = stored ? find(*stored, member) : nullptr;
    if (old == nullptr || !old->IsString())
      return ApiError::invalid("'" + secret + "' has no stored value to keep: give the secret.");
    const rapidjson::Value* new_url = find(entry, url_member);
    const rapidjson::Value* old_url = find(*stored, url_member);
    auto url_text = [](const rapidjson::Value* u) {
      return u && u->IsString() ? std::string(text_of(*u)) : std::string();
    };
    if (secret_destination(url_text(new_url)) != secret_destination(url_text(old_url)))
      return ApiError::invalid("'" + secret + "' must be given again when '" + at + "." +
                               url_member +
                               "' changes: a stored secret is only kept for the address it was set "
                               "for.");
    it->value.CopyFrom(*old, alloc);
    return ok_result();
  }
  if (sealer == nullptr)
    return ApiError::invalid("'" + secret +
                             "' cannot be stored: this server has no secret key to seal it with "
                             "(PARLEY_SECRET_KEY, docs/configuration.md).");
  std::string sealed = (*sealer)(text_of(it->value));
  it->value.SetString(sealed.c_str(), static_cast<rapidjson::SizeType>(sealed.size()), alloc);
  return ok_result();
}

void redact_member(rapidjson::Value& entry, const char* member,
                   rapidjson::Document::AllocatorType& alloc) {
  if (!entry.IsObject()) return;
  auto it = entry.FindMember(member);
  if (it == entry.MemberEnd()) return;
  it->value.SetString(kRedactedSecret.data(),
                      static_cast<rapidjson::SizeType>(kRedactedSecret.size()), alloc);
}
}  // namespace

bool is_tool_setting(std::string_view name) { return name == "mcpServers" || name == "webSearch"; }

Result<void> check_tool_setting(const std::string& name, const rapidjson::Value& value) {
  if (name == "webSearch") return check_web_search(value);
  if (name != "mcpServers") return ok_result();
  if (value.Size() > kMaxMcpServers)
    return ApiError::invalid("Setting 'mcpServers' may hold at most " +
                             std::to_string(kMaxMcpServers) + " servers.");
  for (rapidjson::SizeType i = 0; i < value.Size(); ++i)
    PARLEY_TRY(check_mcp_server(value[i], "mcpServers[" + std::to_string(i) + "]", value, i));
  return ok_result();
}

Result<void> seal_tool_secrets(const rapidjson::Value* stored_settings, const std::string& name,
                               rapidjson::Value& value, rapidjson::Document::AllocatorType& alloc,
                               const SecretSealer* sealer) {
  const rapidjson::Value* stored = stored_settings ? find(*stored_settings, name.c_str()) : nullptr;
  if (name == "webSearch") {
    return seal_member(value, "apiKey", stored && stored->IsObject() ? stored : nullptr, "url",
                       "webSearch", alloc, sealer);
  }
  if (name != "mcpServers") return ok_result();
  for (rapidjson::SizeType i = 0; i < value.Size(); ++i) {
    rapidjson::Value& entry = value[i];
    const rapidjson::Value* old = nullptr;
    const rapidjson::Value* name = find(entry, "name");
    if (stored != nullptr && stored->IsArray() && name != nullptr) {
      for (const auto& s : stored->GetArray()) {
        const rapidjson::Value* n = find(s, "name");
        if (n != nullptr && *n == *name) old = &s;
      }
    }
    PARLEY_TRY(seal_member(entry, "headerValue", old, "url",
                           "mcpServers[" + std::to_string(i) + "]", alloc, sealer));
  }
  return ok_result();
}

void redact_tool_secrets(rapidjson::Document& settings) {
  auto& alloc = settings.GetAllocator();
  auto servers = settings.FindMember("mcpServers");
  if (servers != settings.MemberEnd() && servers->value.IsArray())
    for (auto& entry : servers->value.GetArray()) redact_member(entry, "headerValue", alloc);
  auto search = settings.FindMember("webSearch");
  if (search != settings.MemberEnd()) redact_member(search->value, "apiKey", alloc);
}

}  // namespace parley
