#include "model/tool_settings.h"

#include <cctype>

#include "model/tool_settings_reader.h"

namespace parley {

namespace {
using Value = rapidjson::Value;

std::string string_member(const Value& object, const char* name) {
  if (!object.IsObject()) return {};
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsString()) return {};
  return {it->value.GetString(), it->value.GetStringLength()};
}

bool has_line_break(std::string_view s) {
  return s.find_first_of("\r\n") != std::string_view::npos;
}

bool is_web_address(std::string_view url) {
  return (url.rfind("https://", 0) == 0 || url.rfind("http://", 0) == 0) && !has_line_break(url);
}

std::vector<McpServerSetting> mcp_servers_of(const Value& doc) {
  std::vector<McpServerSetting> out;
  auto list = doc.FindMember("mcpServers");
  if (list == doc.MemberEnd() || !list->value.IsArray()) return out;
  for (const auto& item : list->value.GetArray()) {
    if (!item.IsObject() || out.size() == kMaxMcpServers) continue;
    McpServerSetting s;
    s.name = string_member(item, "name");
    s.url = string_member(item, "url");
    s.header_name = string_member(item, "headerName");
    s.header_sealed = string_member(item, "headerValue");
    if (!is_tool_identifier(s.name, 20) || !is_web_address(s.url)) continue;
    if (has_line_break(s.header_name) || s.header_name.find(':') != std::string::npos) continue;
    bool same_name = false;
    for (const auto& other : out) same_name = same_name || other.name == s.name;
    if (same_name) continue;
    auto tools = item.FindMember("allowedTools");
    if (tools != item.MemberEnd() && tools->value.IsArray()) {
      for (const auto& t : tools->value.GetArray()) {
        if (!t.IsString() || s.allowed_tools.size() == kMaxMcpAllowedTools) continue;
        std::string name(t.GetString(), t.GetStringLength());
        if (is_mcp_tool_name(name)) s.allowed_tools.push_back(std::move(name));
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

WebSearchSetting web_search_of(const Value& doc) {
  WebSearchSetting w;
  auto it = doc.FindMember("webSearch");
  if (it == doc.MemberEnd() || !it->value.IsObject()) return w;
  const Value& v = it->value;
  auto enabled = v.FindMember("enabled");
  w.enabled = enabled != v.MemberEnd() && enabled->value.IsBool() && enabled->value.GetBool();
  if (std::string provider = string_member(v, "provider"); !provider.empty()) w.provider = provider;
  w.url = string_member(v, "url");
  w.api_key_sealed = string_member(v, "apiKey");
  auto results = v.FindMember("maxResults");
  if (results != v.MemberEnd() && results->value.IsInt64() && results->value.GetInt64() >= 1 &&
      results->value.GetInt64() <= kMaxWebResults)
    w.max_results = results->value.GetInt64();
  auto fetch = v.FindMember("fetchPages");
  if (fetch != v.MemberEnd() && fetch->value.IsBool()) w.fetch_pages = fetch->value.GetBool();
  // Without a provider it knows, or an address for SearXNG, there is nothing to search with.
  if (w.provider != kSearxng && w.provider != kBraveSearch) w.enabled = false;
  if (w.provider == kSearxng && !is_web_address(w.url)) w.enabled = false;
  if (!w.url.empty() && !is_web_address(w.url)) w.enabled = false;
  return w;
}
}  // namespace

bool is_tool_identifier(std::string_view name, size_t max) {
  if (name.empty() || name.size() > max) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
  return true;
}

bool is_mcp_tool_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.')
      return false;
  return true;
}

ToolSettings tool_settings_of(const Value& settings) {
  ToolSettings t;
  if (!settings.IsObject()) return t;
  t.mcp_servers = mcp_servers_of(settings);
  t.web_search = web_search_of(settings);
  return t;
}

}  // namespace parley
