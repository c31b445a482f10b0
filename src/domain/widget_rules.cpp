#include "domain/widget_rules.h"

#include <algorithm>
#include <cctype>

#include "store/visitor_queries.h"

namespace parley {

namespace {
std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}
}  // namespace

std::string domain_entry(std::string_view d) {
  if (auto p = d.find("://"); p != std::string_view::npos) d.remove_prefix(p + 3);
  d = d.substr(0, d.find_first_of("/?#"));
  d = d.substr(0, d.find(':'));
  if (d.rfind("*.", 0) == 0) d.remove_prefix(2);
  while (!d.empty() && d.back() == '.') d.remove_suffix(1);
  return lower(d);
}

bool is_domain_entry(std::string_view d) {
  std::string host = domain_entry(d);
  if (host.empty() || host.size() > 253 || host.front() == '.' || host.front() == '-') return false;
  return std::all_of(host.begin(), host.end(), [](unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
  });
}

WidgetRules read_widget_rules(const AgentSettings& settings) {
  WidgetRules rules;
  for (const auto& d : settings.widget.allowed_domains) {
    std::string host = domain_entry(d);
    if (!host.empty()) rules.allowed_domains.push_back(std::move(host));
  }
  for (const auto& c : settings.widget.blocked_countries) {
    if (auto code = normalise_country(c)) rules.blocked_countries.push_back(*code);
  }
  rules.messages_per_visitor = settings.widget.messages_per_visitor;
  return rules;
}

std::string origin_host(std::string_view origin) {
  std::string o = lower(origin);
  std::string_view rest(o);
  if (rest.rfind("https://", 0) == 0) {
    rest.remove_prefix(8);
  } else if (rest.rfind("http://", 0) == 0) {
    rest.remove_prefix(7);
  } else {
    return "";
  }
  if (rest.find_first_of("/?#@") != std::string_view::npos) return "";
  rest = rest.substr(0, rest.find(':'));
  while (!rest.empty() && rest.back() == '.') rest.remove_suffix(1);
  return std::string(rest);
}

bool origin_allowed(const WidgetRules& rules, std::string_view origin) {
  if (rules.allowed_domains.empty()) return true;
  std::string host = origin_host(origin);
  if (host.empty()) return false;
  for (const auto& d : rules.allowed_domains) {
    if (host == d) return true;
    if (host.size() > d.size() && host.compare(host.size() - d.size(), d.size(), d) == 0 &&
        host[host.size() - d.size() - 1] == '.')
      return true;
  }
  return false;
}

Result<void> check_origin(const WidgetRules& rules, std::string_view origin) {
  if (origin_allowed(rules, origin)) return {};
  if (origin.empty()) {
    return ApiError{ErrorCode::kOriginNotAllowed,
                    "The agent's widget is limited to its allowed domains; the request has no "
                    "'Origin' header."};
  }
  return ApiError{ErrorCode::kOriginNotAllowed,
                  "The widget may not be used on '" + std::string(origin) +
                      "'; it is not among the agent's allowed domains."};
}

std::optional<std::string> normalise_country(std::string_view value) {
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
  if (value.size() != 2) return std::nullopt;
  std::string code;
  for (unsigned char c : value) {
    if (!std::isalpha(c)) return std::nullopt;
    code.push_back(static_cast<char>(std::toupper(c)));
  }
  if (code == "XX") return std::nullopt;
  return code;
}

Result<void> check_country(const WidgetRules& rules, const std::optional<std::string>& country) {
  if (!country) return {};
  if (std::find(rules.blocked_countries.begin(), rules.blocked_countries.end(), *country) ==
      rules.blocked_countries.end())
    return {};
  return ApiError{ErrorCode::kCountryBlocked,
                  "The agent does not answer visitors from country '" + *country + "'."};
}

Result<void> check_visitor_messages(Connection& c, const WidgetRules& rules,
                                    std::string_view agent_id, std::string_view visitor_id,
                                    int64_t now_ms) {
  if (!rules.messages_per_visitor) return {};
  PARLEY_ASSIGN_OR_RETURN(int64_t sent, VisitorQueries::messages_since(c, agent_id, visitor_id,
                                                                       now_ms - kVisitorWindowMs));
  if (sent < *rules.messages_per_visitor) return {};
  return ApiError{ErrorCode::kVisitorLimitReached,
                  "This visitor has sent the " + std::to_string(*rules.messages_per_visitor) +
                      " messages the agent allows per visitor in 24 hours."};
}

}  // namespace parley
