// API key scopes (spec section 5). A key holds either every scope, present and future, or a set
// of named ones; sets are bit masks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parley {

enum class Scope : uint32_t {
  kAgentsRead = 1u << 0,
  kChat = 1u << 1,
  kConversationsRead = 1u << 2,
  kLeadsRead = 1u << 3,
  kContactsWrite = 1u << 4,
  kSourcesRead = 1u << 5,
  kSourcesWrite = 1u << 6,
  kWebhooksWrite = 1u << 7,
};

using ScopeMask = uint32_t;

inline constexpr ScopeMask mask(Scope s) { return static_cast<ScopeMask>(s); }

// Every scope's name, in the spec's order.
const std::vector<std::string_view>& all_scope_names();
std::optional<Scope> parse_scope(std::string_view name);
std::string_view scope_name(Scope scope);

// Parses "a,b,c" (spaces allowed). Returns nothing, and the offending name, when one is unknown.
std::optional<ScopeMask> parse_scope_list(std::string_view list, std::string* unknown = nullptr);
std::string scope_list(ScopeMask scopes);  // "a,b" in the spec's order
std::vector<std::string_view> scope_names(ScopeMask scopes);

}  // namespace parley
