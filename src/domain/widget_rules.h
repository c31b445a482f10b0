// The rules that apply to the chat widget and not to the API (spec section 4, chat rule 2): the
// agent's allowed domains (checked against the page's Origin), blocked countries (from a trusted
// header set by the proxy in front of the server) and messages per visitor. Read from the agent's
// settings `allowedDomains`, `blockedCountries` and `messagesPerVisitor`. Knows no HTTP;
// stateless and safe from many threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/agent_settings.h"
#include "store/db.h"

namespace parley {

// Messages per visitor are counted over this rolling window.
inline constexpr int64_t kVisitorWindowMs = 24LL * 60 * 60 * 1000;

struct WidgetRules {
  std::vector<std::string> allowed_domains;    // lower-case hosts; empty: every site
  std::vector<std::string> blocked_countries;  // upper-case ISO 3166-1 alpha-2 codes
  std::optional<int64_t> messages_per_visitor;
};

// From an agent's settings: domains as bare lower-case hosts, countries as codes; entries that
// give neither are ignored.
// "https://www.Example.com/shop" or "*.example.com" or "example.com." -> "www.example.com" /
// "example.com": an allowed domain as an owner typed it, as a bare lower-case host.
std::string domain_entry(std::string_view d);
// The entry names a host: letters, digits, dots and hyphens once scheme, path, port and a leading
// "*." are set aside (an international name in its xn-- form).
bool is_domain_entry(std::string_view d);

WidgetRules read_widget_rules(const AgentSettings& settings);

// The host of an Origin header value ("https://Shop.Example.com:8443" -> "shop.example.com");
// empty when it is not a http(s) origin.
std::string origin_host(std::string_view origin);

// True when a page at `origin` may use the widget: always when no domains are set; otherwise the
// origin's host must equal an allowed domain or be a subdomain of one. A missing origin is
// refused once domains are set.
bool origin_allowed(const WidgetRules& rules, std::string_view origin);

// 403 origin_not_allowed unless origin_allowed().
Result<void> check_origin(const WidgetRules& rules, std::string_view origin);

// The visitor's country from the trusted header's value: two letters, upper-cased; nothing for
// an empty, malformed or unknown ("XX") value.
std::optional<std::string> normalise_country(std::string_view header_value);

// 403 country_blocked when the country is among the blocked ones.
Result<void> check_country(const WidgetRules& rules, const std::optional<std::string>& country);

// 429 visitor_message_limit_reached when the visitor already sent `messages_per_visitor`
// messages to the agent in the last 24 hours.
Result<void> check_visitor_messages(Connection& c, const WidgetRules& rules,
                                    std::string_view agent_id, std::string_view visitor_id,
                                    int64_t now_ms);

}  // namespace parley
