// Absolute http(s) URLs as the crawler compares them: RFC 3986 parsing, reference resolution
// (§5.2) and normalisation (§6.2.2: case, percent-encoding, dot segments; §6.2.3: default port,
// empty path). Two links to one page give one `Url::text()`, so a page is fetched once.
// docs/decisions/crawler.md lists the rules. Pure functions; a Url is a plain value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace parley {

struct Url {
  std::string scheme;  // "http" or "https", lower case
  std::string host;    // lower case (international names in their xn-- form); IPv6 without brackets
  uint16_t port = 0;   // explicit or the scheme's default
  std::string path;    // "/" when empty; dot segments removed; percent-encoding normalised
  std::string query;   // without '?', as given (percent-encoding normalised); empty when none

  std::string text() const;            // normalised absolute URL, default port dropped, no fragment
  std::string origin() const;          // scheme://host[:port]
  std::string path_and_query() const;  // path, then '?' and the query when there is one

  bool operator==(const Url&) const = default;
};

// An absolute http:// or https:// URL; nullopt for another scheme, a relative reference, user
// info ("user:pass@"), a bad host or port. Spaces around it, tabs and line breaks inside it are
// ignored (as browsers do with an href).
std::optional<Url> parse_url(std::string_view absolute);

// `reference` (an href as written) resolved against `base` (RFC 3986 §5.2; "http:g" with the
// base's scheme is read as relative, the compatible reading of §5.4.2); the fragment is dropped.
// nullopt when the result is not an http(s) URL (mailto:, javascript:, a bad host).
std::optional<Url> resolve_url(const Url& base, std::string_view reference);

// Percent-encoding normalised as in a path or query: %XX of an unreserved character decoded
// ("%7e" → "~"), other escapes upper-cased ("%2f" → "%2F", kept), a '%' that starts no escape
// written "%25", and bytes that may not appear literally (space, controls, non-ASCII,
// "<>\"{}|\\^`") escaped. Reserved characters ("/?:@!$&'()*+,;=") stay as they are.
std::string normalize_percent_encoding(std::string_view text);

}  // namespace parley
