#include "crawl/url.h"

#include <unicode/uidna.h>

#include <charconv>

#include "net/url_guard.h"

namespace parley {
namespace {

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

int hex_value(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_unreserved(unsigned char c) {
  return is_alpha(static_cast<char>(c)) || is_digit(static_cast<char>(c)) || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

// Characters a path or query may hold literally (RFC 3986 pchar, plus '/' and '?').
bool is_literal(unsigned char c) {
  if (is_unreserved(c)) return true;
  switch (c) {
    case '!':
    case '$':
    case '&':
    case '\'':
    case '(':
    case ')':
    case '*':
    case '+':
    case ',':
    case ';':
    case '=':
    case ':':
    case '@':
    case '/':
    case '?':
      return true;
    default:
      return false;
  }
}

void append_escape(std::string& out, unsigned char c) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  out += '%';
  out += kHex[c >> 4];
  out += kHex[c & 15];
}

// Spaces around an href are not part of it; tabs and line breaks inside it are dropped.
std::string clean(std::string_view s) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; };
  while (!s.empty() && (space(s.front()) || static_cast<unsigned char>(s.front()) < 0x20)) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (space(s.back()) || static_cast<unsigned char>(s.back()) < 0x20)) {
    s.remove_suffix(1);
  }
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c != '\t' && c != '\n' && c != '\r') out += c;
  }
  return out;
}

// RFC 3986 Appendix B: the five parts of a reference.
struct Parts {
  std::optional<std::string_view> scheme;
  std::optional<std::string_view> authority;
  std::string_view path;
  std::optional<std::string_view> query;
};

Parts split(std::string_view s) {
  Parts p;
  if (auto hash = s.find('#'); hash != std::string_view::npos) s = s.substr(0, hash);
  // A scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"; anything else is a relative path.
  if (!s.empty() && is_alpha(s[0])) {
    size_t i = 1;
    while (i < s.size() &&
           (is_alpha(s[i]) || is_digit(s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.')) {
      ++i;
    }
    if (i < s.size() && s[i] == ':') {
      p.scheme = s.substr(0, i);
      s.remove_prefix(i + 1);
    }
  }
  if (s.starts_with("//")) {
    s.remove_prefix(2);
    size_t end = s.find_first_of("/?");
    p.authority = s.substr(0, end);
    s = end == std::string_view::npos ? std::string_view() : s.substr(end);
  }
  if (auto q = s.find('?'); q != std::string_view::npos) {
    p.query = s.substr(q + 1);
    s = s.substr(0, q);
  }
  p.path = s;
  return p;
}

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lower(c);
  return out;
}

// A host name in ASCII: international names through IDNA (UTS #46), then only the characters a
// DNS name or registered name uses.
std::optional<std::string> normalize_host(std::string_view host) {
  if (host.empty()) return std::nullopt;
  std::string ascii;
  bool non_ascii = false;
  for (char c : host) non_ascii |= static_cast<unsigned char>(c) >= 0x80;
  if (non_ascii) {
    UErrorCode status = U_ZERO_ERROR;
    // An immutable UTS #46 object is safe to share between threads.
    static const UIDNA* idna = uidna_openUTS46(UIDNA_NONTRANSITIONAL_TO_ASCII, &status);
    if (idna == nullptr) return std::nullopt;
    status = U_ZERO_ERROR;
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    char buffer[256];
    int32_t n = uidna_nameToASCII_UTF8(idna, host.data(), static_cast<int32_t>(host.size()), buffer,
                                       sizeof buffer, &info, &status);
    if (U_FAILURE(status) || info.errors != 0 || n <= 0 ||
        n > static_cast<int32_t>(sizeof buffer)) {
      return std::nullopt;
    }
    ascii.assign(buffer, static_cast<size_t>(n));
  } else {
    ascii = lower_ascii(host);
  }
  for (char c : ascii) {
    if (!(is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_')) return std::nullopt;
  }
  return ascii;
}

// "host", "host:port", "[v6]" or "[v6]:port"; no user info.
bool parse_authority(std::string_view authority, Url& url) {
  if (authority.find('@') != std::string_view::npos) return false;
  std::string_view host = authority;
  std::string_view port;
  if (authority.starts_with('[')) {
    size_t close = authority.find(']');
    if (close == std::string_view::npos) return false;
    auto ip = parse_ip(lower_ascii(authority.substr(1, close - 1)));
    if (!ip || ip->family != 6) return false;
    url.host = ip->text();
    std::string_view rest = authority.substr(close + 1);
    if (!rest.empty()) {
      if (rest[0] != ':') return false;
      port = rest.substr(1);
    }
  } else {
    if (auto colon = authority.rfind(':'); colon != std::string_view::npos) {
      host = authority.substr(0, colon);
      port = authority.substr(colon + 1);
    }
    auto name = normalize_host(host);
    if (!name) return false;
    url.host = std::move(*name);
  }
  url.port = url.scheme == "https" ? 443 : 80;
  if (!port.empty()) {
    unsigned value = 0;
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || end != port.data() + port.size() || value == 0 || value > 65535) {
      return false;
    }
    url.port = static_cast<uint16_t>(value);
  }
  return true;
}

// RFC 3986 §5.2.4.
std::string remove_dot_segments(std::string_view in) {
  std::string out;
  auto pop_last = [&out] {
    size_t slash = out.rfind('/');
    out.erase(slash == std::string::npos ? 0 : slash);
  };
  while (!in.empty()) {
    if (in.starts_with("../")) {
      in.remove_prefix(3);
    } else if (in.starts_with("./")) {
      in.remove_prefix(2);
    } else if (in.starts_with("/./")) {
      in.remove_prefix(2);
    } else if (in == "/.") {
      in = "/";
    } else if (in.starts_with("/../")) {
      in.remove_prefix(3);
      pop_last();
    } else if (in == "/..") {
      in = "/";
      pop_last();
    } else if (in == "." || in == "..") {
      in = {};
    } else {
      size_t next = in.find('/', 1);
      out += in.substr(0, next);
      in = next == std::string_view::npos ? std::string_view() : in.substr(next);
    }
  }
  return out;
}

std::string finish_path(std::string_view raw) {
  std::string path = remove_dot_segments(normalize_percent_encoding(raw));
  if (path.empty() || path[0] != '/') path.insert(path.begin(), '/');
  return path;
}

bool is_http_scheme(std::string_view scheme) { return scheme == "http" || scheme == "https"; }

}  // namespace

std::string normalize_percent_encoding(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c == '%') {
      int hi = i + 2 < text.size() ? hex_value(text[i + 1]) : -1;
      int lo = i + 2 < text.size() ? hex_value(text[i + 2]) : -1;
      if (hi >= 0 && lo >= 0) {
        auto v = static_cast<unsigned char>(hi * 16 + lo);
        if (is_unreserved(v)) {
          out += static_cast<char>(v);
        } else {
          append_escape(out, v);
        }
        i += 2;
      } else {
        out += "%25";
      }
    } else if (is_literal(c)) {
      out += static_cast<char>(c);
    } else {
      append_escape(out, c);
    }
  }
  return out;
}

std::string Url::origin() const {
  std::string out = scheme + "://";
  if (host.find(':') != std::string::npos) {
    out += '[' + host + ']';
  } else {
    out += host;
  }
  if (port != (scheme == "https" ? 443 : 80)) out += ':' + std::to_string(port);
  return out;
}

std::string Url::path_and_query() const { return query.empty() ? path : path + '?' + query; }

std::string Url::text() const { return origin() + path_and_query(); }

std::optional<Url> parse_url(std::string_view absolute) {
  std::string cleaned = clean(absolute);
  Parts p = split(cleaned);
  if (!p.scheme || !p.authority) return std::nullopt;
  Url url;
  url.scheme = lower_ascii(*p.scheme);
  if (!is_http_scheme(url.scheme)) return std::nullopt;
  if (!parse_authority(*p.authority, url)) return std::nullopt;
  url.path = finish_path(p.path);
  if (p.query) url.query = normalize_percent_encoding(*p.query);
  return url;
}

std::optional<Url> resolve_url(const Url& base, std::string_view reference) {
  std::string cleaned = clean(reference);
  Parts p = split(cleaned);
  if (p.scheme) {
    std::string scheme = lower_ascii(*p.scheme);
    if (!is_http_scheme(scheme)) return std::nullopt;
    if (p.authority || scheme != base.scheme) return parse_url(cleaned);
    // "http:g" against an http base: the scheme is ignored (RFC 3986 §5.4.2, for compatibility).
  }
  Url url;
  url.scheme = base.scheme;
  if (p.authority) {
    if (!parse_authority(*p.authority, url)) return std::nullopt;
    url.path = finish_path(p.path);
    if (p.query) url.query = normalize_percent_encoding(*p.query);
    return url;
  }
  url.host = base.host;
  url.port = base.port;
  if (p.path.empty()) {
    url.path = base.path;
    url.query = p.query ? normalize_percent_encoding(*p.query) : base.query;
    return url;
  }
  if (p.path[0] == '/') {
    url.path = finish_path(p.path);
  } else {
    // §5.2.3: the base path without its last segment, then the reference's path.
    std::string merged = base.path.substr(0, base.path.rfind('/') + 1);
    merged += p.path;
    url.path = finish_path(merged);
  }
  if (p.query) url.query = normalize_percent_encoding(*p.query);
  return url;
}

}  // namespace parley
