#include "crawl/robots.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "crawl/path_pattern.h"
#include "crawl/url.h"

namespace parley {
namespace {

enum class Key { kUserAgent, kAllow, kDisallow, kSitemap, kCrawlDelay, kOther };

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           auto low = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
           return low(x) == low(y);
         });
}

// The keys of RFC 9309 and Crawl-delay, with the misspellings that common parsers accept.
Key key_of(std::string_view k) {
  for (auto name : {"user-agent", "useragent", "user agent"}) {
    if (iequals(k, name)) return Key::kUserAgent;
  }
  if (iequals(k, "allow")) return Key::kAllow;
  for (auto name : {"disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"}) {
    if (iequals(k, name)) return Key::kDisallow;
  }
  for (auto name : {"sitemap", "site-map"}) {
    if (iequals(k, name)) return Key::kSitemap;
  }
  for (auto name : {"crawl-delay", "crawldelay", "crawl delay"}) {
    if (iequals(k, name)) return Key::kCrawlDelay;
  }
  return Key::kOther;
}

// The product token at the start of a user-agent value ("ParleyBot/1.0" → "ParleyBot").
std::string_view product_token_of(std::string_view value) {
  size_t n = 0;
  while (n < value.size() &&
         ((value[n] >= 'a' && value[n] <= 'z') || (value[n] >= 'A' && value[n] <= 'Z') ||
          value[n] == '-' || value[n] == '_')) {
    ++n;
  }
  return value.substr(0, n);
}

std::optional<double> parse_delay(std::string_view value) {
  double d = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), d);
  if (ec != std::errc() || end == value.data() || !std::isfinite(d) || d < 0) return std::nullopt;
  return d;
}

// The rules and delay of the groups that name one kind of user agent.
struct Chosen {
  bool found = false;
  std::vector<std::pair<bool, std::string>> rules;
  std::optional<double> delay;
};

}  // namespace

RobotsRules RobotsRules::allow_all() { return RobotsRules(); }

RobotsRules RobotsRules::disallow_all() {
  RobotsRules r;
  r.rules_.push_back({false, "/"});
  return r;
}

RobotsRules RobotsRules::parse(std::string_view body, std::string_view product_token) {
  if (body.size() > kMaxBytes) body = body.substr(0, kMaxBytes);
  if (body.starts_with("\xEF\xBB\xBF")) body.remove_prefix(3);

  RobotsRules out;
  Chosen ours, star;
  bool group_ours = false, group_star = false;
  bool last_was_agent = false;  // consecutive user-agent lines start one group

  while (!body.empty()) {
    size_t end = body.find_first_of("\r\n");
    std::string_view line = body.substr(0, end);
    body = end == std::string_view::npos ? std::string_view() : body.substr(end + 1);
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    line = trim(line);
    if (line.empty()) continue;

    // "key: value"; a known key followed by a space instead of ':' is read too.
    size_t sep = line.find(':');
    std::string_view key, value;
    if (sep != std::string_view::npos) {
      key = trim(line.substr(0, sep));
      value = trim(line.substr(sep + 1));
    } else {
      size_t space = line.find_first_of(" \t");
      if (space == std::string_view::npos) continue;
      key = line.substr(0, space);
      value = trim(line.substr(space + 1));
    }

    switch (key_of(key)) {
      case Key::kUserAgent: {
        if (!last_was_agent) group_ours = group_star = false;
        last_was_agent = true;
        if (value.starts_with('*')) {
          group_star = star.found = true;
        } else {
          std::string_view token = product_token_of(value);
          if (!token.empty() && iequals(token, product_token)) group_ours = ours.found = true;
        }
        break;
      }
      case Key::kAllow:
      case Key::kDisallow: {
        last_was_agent = false;
        if (value.empty()) break;  // "Disallow:" with nothing: no rule
        bool allow = key_of(key) == Key::kAllow;
        std::string pattern = normalize_path_pattern(value);
        if (group_ours) ours.rules.emplace_back(allow, pattern);
        if (group_star) star.rules.emplace_back(allow, std::move(pattern));
        break;
      }
      case Key::kCrawlDelay: {
        last_was_agent = false;
        auto delay = parse_delay(value);
        if (!delay) break;
        if (group_ours && !ours.delay) ours.delay = delay;
        if (group_star && !star.delay) star.delay = delay;
        break;
      }
      case Key::kSitemap:
        if (!value.empty() &&
            std::find(out.sitemaps_.begin(), out.sitemaps_.end(), value) == out.sitemaps_.end()) {
          out.sitemaps_.emplace_back(value);
        }
        break;
      case Key::kOther:
        break;
    }
  }

  Chosen& chosen = ours.found ? ours : star;
  for (auto& [allow, pattern] : chosen.rules) out.rules_.push_back({allow, std::move(pattern)});
  out.crawl_delay_ = chosen.delay;
  return out;
}

bool RobotsRules::allowed(std::string_view path_and_query) const {
  std::string path = normalize_percent_encoding(path_and_query);
  if (path.empty() || path[0] != '/') path.insert(path.begin(), '/');
  if (path == "/robots.txt") return true;
  // The longest matching pattern decides; of two as long, Allow.
  bool found = false, allow = true;
  size_t best = 0;
  for (const auto& rule : rules_) {
    if (found && rule.pattern.size() < best) continue;
    if (!path_pattern_matches(rule.pattern, path)) continue;
    if (!found || rule.pattern.size() > best) {
      allow = rule.allow;
    } else {
      allow = allow || rule.allow;
    }
    best = rule.pattern.size();
    found = true;
  }
  return allow;
}

}  // namespace parley
