// Fuzzes the crawler's robots.txt reader and its URL normaliser. The first line of the input is a
// URL or a reference, the rest a robots.txt. Checks that parsing never fails or hangs, that
// /robots.txt is always allowed, that a path and its normalised form get one answer, and that a
// normalised URL normalises to itself (what the crawler's "fetched once" rests on). Each line of
// the rest is also a pattern, matched against the first line as a path by the greedy matcher and
// by a plain set-of-positions matcher, which must agree.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "crawl/path_pattern.h"
#include "crawl/robots.h"
#include "crawl/url.h"
#include "crawl/user_agent.h"
#include "fuzz_check.h"

namespace {

using namespace parley;

void check_url(std::string_view line) {
  auto url = parse_url(line);
  if (url) {
    FUZZ_CHECK(url->scheme == "http" || url->scheme == "https");
    FUZZ_CHECK(!url->host.empty() && url->port != 0);
    FUZZ_CHECK(!url->path.empty() && url->path[0] == '/');
    auto again = parse_url(url->text());
    FUZZ_CHECK(again && *again == *url);
    FUZZ_CHECK(normalize_percent_encoding(url->path) == url->path);
  }
  static const Url kBase = *parse_url("https://example.com/a/b/c?q");
  auto resolved = resolve_url(kBase, line);
  if (resolved) {
    auto again = parse_url(resolved->text());
    FUZZ_CHECK(again && *again == *resolved);
    // A URL already absolute and normal resolves to itself against any base.
    auto self = resolve_url(kBase, resolved->text());
    FUZZ_CHECK(self && *self == *resolved);
  }
}

// The obvious matcher: every position the pattern read so far can end at.
bool reference_match(std::string_view pattern, std::string_view path) {
  std::vector<size_t> ends{0}, next;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '$' && i + 1 == pattern.size()) return ends.back() == path.size();
    next.clear();
    if (c == '*') {
      for (size_t p = ends.front(); p <= path.size(); ++p) next.push_back(p);
    } else {
      for (size_t p : ends) {
        if (p < path.size() && path[p] == c) next.push_back(p + 1);
      }
    }
    if (next.empty()) return false;
    ends.swap(next);
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t newline = input.find('\n');
  std::string_view line = input.substr(0, newline);
  std::string_view body = newline == std::string_view::npos ? input : input.substr(newline + 1);

  check_url(line);

  auto rules = RobotsRules::parse(body, kRobotsProductToken);
  FUZZ_CHECK(rules.allowed("/robots.txt"));
  if (auto delay = rules.crawl_delay_seconds()) FUZZ_CHECK(*delay >= 0);
  for (const auto& sitemap : rules.sitemaps()) FUZZ_CHECK(!sitemap.empty());
  std::string path = "/" + std::string(line.substr(0, 200));
  FUZZ_CHECK(rules.allowed(path) == rules.allowed(normalize_percent_encoding(path)));
  (void)rules.allowed("/");
  std::string_view rest = body;
  for (int n = 0; n < 16 && !rest.empty(); ++n) {
    size_t end = rest.find('\n');
    std::string pattern = normalize_path_pattern(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    std::string target = normalize_percent_encoding(path);
    FUZZ_CHECK(path_pattern_matches(pattern, target) == reference_match(pattern, target));
  }
  FUZZ_CHECK(!RobotsRules::disallow_all().allowed(path) || path == "/robots.txt" ||
             normalize_percent_encoding(path) == "/robots.txt");
  return 0;
}
