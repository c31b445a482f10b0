#include "model/scopes.h"

#include <array>

namespace parley {

namespace {
constexpr std::array<std::pair<std::string_view, Scope>, 8> kScopes = {{
    {"agents:read", Scope::kAgentsRead},
    {"chat", Scope::kChat},
    {"conversations:read", Scope::kConversationsRead},
    {"leads:read", Scope::kLeadsRead},
    {"contacts:write", Scope::kContactsWrite},
    {"sources:read", Scope::kSourcesRead},
    {"sources:write", Scope::kSourcesWrite},
    {"webhooks:write", Scope::kWebhooksWrite},
}};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}
}  // namespace

const std::vector<std::string_view>& all_scope_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> v;
    for (auto& [name, s] : kScopes) v.push_back(name);
    return v;
  }();
  return names;
}

std::optional<Scope> parse_scope(std::string_view name) {
  for (auto& [n, s] : kScopes)
    if (n == name) return s;
  return std::nullopt;
}

std::string_view scope_name(Scope scope) {
  for (auto& [n, s] : kScopes)
    if (s == scope) return n;
  return "";
}

std::optional<ScopeMask> parse_scope_list(std::string_view list, std::string* unknown) {
  ScopeMask m = 0;
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view part = trim(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    if (part.empty()) continue;
    auto s = parse_scope(part);
    if (!s) {
      if (unknown) *unknown = std::string(part);
      return std::nullopt;
    }
    m |= mask(*s);
  }
  return m;
}

std::vector<std::string_view> scope_names(ScopeMask scopes) {
  std::vector<std::string_view> out;
  for (auto& [n, s] : kScopes)
    if (scopes & mask(s)) out.push_back(n);
  return out;
}

std::string scope_list(ScopeMask scopes) {
  std::string out;
  for (auto n : scope_names(scopes)) {
    if (!out.empty()) out += ',';
    out += n;
  }
  return out;
}

}  // namespace parley
