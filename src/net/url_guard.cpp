#include "net/url_guard.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <cstring>

namespace parley {

namespace {
ApiError bad_url(const std::string& why) { return ApiError::invalid("'url' " + why); }

bool in_v4(const uint8_t* a, uint8_t b0, uint8_t b1, uint8_t b2, int prefix) {
  uint32_t addr = (uint32_t{a[0]} << 24) | (uint32_t{a[1]} << 16) | (uint32_t{a[2]} << 8) | a[3];
  uint32_t net = (uint32_t{b0} << 24) | (uint32_t{b1} << 16) | (uint32_t{b2} << 8);
  uint32_t m = prefix == 0 ? 0 : ~uint32_t{0} << (32 - prefix);
  return (addr & m) == (net & m);
}

bool public_v4(const uint8_t* a) {
  struct Range {
    uint8_t b0, b1, b2;
    int prefix;
  };
  static constexpr Range kRefused[] = {
      {0, 0, 0, 8},        // "this network"
      {10, 0, 0, 8},       // private
      {100, 64, 0, 10},    // CGNAT (also cloud metadata at 100.100.100.200)
      {127, 0, 0, 8},      // loopback
      {169, 254, 0, 16},   // link-local, cloud metadata 169.254.169.254
      {172, 16, 0, 12},    // private
      {192, 0, 0, 24},     // IETF protocol assignments
      {192, 0, 2, 24},     // documentation TEST-NET-1
      {192, 88, 99, 24},   // 6to4 relay anycast
      {192, 168, 0, 16},   // private
      {198, 18, 0, 15},    // benchmarking
      {198, 51, 100, 24},  // documentation TEST-NET-2
      {203, 0, 113, 24},   // documentation TEST-NET-3
      {224, 0, 0, 4},      // multicast
      {240, 0, 0, 4},      // reserved, and the broadcast address 255.255.255.255
  };
  for (const auto& r : kRefused)
    if (in_v4(a, r.b0, r.b1, r.b2, r.prefix)) return false;
  return true;
}

bool in_v6(const std::array<uint8_t, 16>& a, std::initializer_list<uint8_t> net, int prefix) {
  std::array<uint8_t, 16> n{};
  size_t i = 0;
  for (uint8_t b : net) n[i++] = b;
  for (int bit = 0; bit < prefix; ++bit) {
    int byte = bit / 8, shift = 7 - bit % 8;
    if (((a[byte] >> shift) & 1) != ((n[byte] >> shift) & 1)) return false;
  }
  return true;
}

bool public_v6(const std::array<uint8_t, 16>& a) {
  // Only global unicast (2000::/3) can be public; that excludes ::, ::1, IPv4-mapped and
  // -compatible forms, unique-local fc00::/7, link-local fe80::/10, site-local and multicast.
  if ((a[0] & 0xE0) != 0x20) return false;
  if (in_v6(a, {0x20, 0x02}, 16)) return false;                          // 6to4 (embeds IPv4)
  if (in_v6(a, {0x20, 0x01, 0x00, 0x00}, 32)) return false;              // Teredo (embeds IPv4)
  if (in_v6(a, {0x20, 0x01, 0x00, 0x02, 0x00, 0x00}, 48)) return false;  // benchmarking
  if (in_v6(a, {0x20, 0x01, 0x00, 0x10}, 28)) return false;              // ORCHID
  if (in_v6(a, {0x20, 0x01, 0x00, 0x20}, 28)) return false;              // ORCHIDv2
  if (in_v6(a, {0x20, 0x01, 0x0d, 0xb8}, 32)) return false;              // documentation
  if (in_v6(a, {0x3f, 0xff}, 20)) return false;                          // documentation (2024)
  return true;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex_or_x(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == 'x' || c == 'X';
}

// A host made only of digits, hex letters, 'x' and dots whose labels all start with a digit is an
// address in some numeric form (127.1, 0x7f000001, 2130706433, 0177.0.0.1).
bool looks_numeric(std::string_view host) {
  if (host.empty()) return false;
  bool label_start = true;
  for (char c : host) {
    if (c == '.') {
      label_start = true;
      continue;
    }
    if (!is_hex_or_x(c)) return false;
    if (label_start && !is_digit(c)) return false;
    label_start = false;
  }
  return true;
}

bool valid_host_name(std::string_view host) {
  if (host.empty() || host.size() > 253) return false;
  size_t start = 0;
  std::string_view last;
  while (start <= host.size()) {
    size_t dot = host.find('.', start);
    std::string_view label =
        host.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-')
      return false;
    for (char c : label)
      if (!(is_digit(c) || (c >= 'a' && c <= 'z') || c == '-')) return false;
    last = label;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  bool all_digits = true;
  for (char c : last) all_digits = all_digits && is_digit(c);
  return !all_digits;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
}  // namespace

std::string IpAddress::text() const {
  char buf[INET6_ADDRSTRLEN] = {};
  inet_ntop(family == 4 ? AF_INET : AF_INET6, bytes.data(), buf, sizeof buf);
  return buf;
}

std::optional<IpAddress> parse_ip(std::string_view text) {
  // inet_pton reads a C string: a NUL would end the text early ("1.2.3.4\0junk").
  if (text.find('\0') != std::string_view::npos) return std::nullopt;
  std::string t(text);
  IpAddress ip;
  // inet_pton's AF_INET form accepts exactly four decimal parts, no octal or hex.
  if (inet_pton(AF_INET, t.c_str(), ip.bytes.data()) == 1) {
    ip.family = 4;
    return ip;
  }
  if (inet_pton(AF_INET6, t.c_str(), ip.bytes.data()) == 1) {
    ip.family = 6;
    return ip;
  }
  return std::nullopt;
}

bool is_public_address(const IpAddress& ip) {
  return ip.family == 4 ? public_v4(ip.bytes.data()) : public_v6(ip.bytes);
}

Result<WebhookUrl> parse_webhook_url(std::string_view url) { return parse_target_url(url, false); }

Result<WebhookUrl> parse_target_url(std::string_view url, bool allow_http) {
  if (url.empty()) return bad_url("must not be empty.");
  if (url.size() > 2048) return bad_url("must be at most 2048 characters.");
  for (unsigned char c : url) {
    if (c <= 0x20 || c == 0x7f) return bad_url("must not contain spaces or control characters.");
    if (c >= 0x80)
      return bad_url("must be ASCII; write an international host name in its xn-- form.");
    if (c == '\\') return bad_url("must not contain backslashes.");
  }
  constexpr std::string_view kHttps = "https://";
  constexpr std::string_view kHttp = "http://";
  std::string lower_start;
  for (size_t i = 0; i < std::min(url.size(), kHttps.size()); ++i)
    lower_start += static_cast<char>(std::tolower(static_cast<unsigned char>(url[i])));
  WebhookUrl out;
  size_t scheme_size = kHttps.size();
  if (allow_http && lower_start.rfind(kHttp, 0) == 0) {
    scheme_size = kHttp.size();
    out.port = 80;
  } else if (lower_start != kHttps) {
    return bad_url("must start with https://.");
  }
  std::string_view rest = url.substr(scheme_size);
  size_t end = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, end);
  if (authority.find('@') != std::string_view::npos)
    return bad_url("must not contain a user name or password.");
  if (authority.find('%') != std::string_view::npos)
    return bad_url("host must not be percent-encoded.");
  if (authority.empty()) return bad_url("must name a host.");

  std::string_view host_part = authority;
  std::string_view port_part;
  if (authority.front() == '[') {
    size_t close = authority.find(']');
    if (close == std::string_view::npos) return bad_url("has an unterminated IPv6 address.");
    host_part = authority.substr(1, close - 1);
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return bad_url("has a malformed host.");
      port_part = after.substr(1);
    }
    auto ip = parse_ip(host_part);
    if (!ip || ip->family != 6) return bad_url("has a malformed IPv6 address.");
    out.literal = ip;
    out.host = ip->text();
  } else {
    size_t colon = authority.rfind(':');
    if (colon != std::string_view::npos) {
      host_part = authority.substr(0, colon);
      port_part = authority.substr(colon + 1);
      if (port_part.empty()) return bad_url("has an empty port.");
    }
    std::string host;
    for (char c : host_part) host += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!host.empty() && host.back() == '.') host.pop_back();
    if (looks_numeric(host)) {
      auto ip = parse_ip(host);
      if (!ip)
        return bad_url("must give an IPv4 address in dotted-decimal form (four decimal numbers).");
      for (size_t i = 0; i < host.size(); ++i)
        if (is_digit(host[i]) && host[i] == '0' && (i == 0 || host[i - 1] == '.') &&
            i + 1 < host.size() && is_digit(host[i + 1]))
          return bad_url("must not write address parts with leading zeros.");
      out.literal = ip;
      out.host = ip->text();
    } else {
      if (!valid_host_name(host)) return bad_url("has an invalid host name.");
      out.host = host;
    }
  }
  if (!port_part.empty()) {
    if (port_part.size() > 5) return bad_url("has an invalid port.");
    int port = 0;
    for (char c : port_part) {
      if (!is_digit(c)) return bad_url("has an invalid port.");
      port = port * 10 + (c - '0');
    }
    if (port < 1 || port > 65535) return bad_url("has an invalid port.");
    out.port = static_cast<uint16_t>(port);
  }
  return out;
}

Result<std::vector<IpAddress>> SystemResolver::resolve(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  int rc = getaddrinfo(host.c_str(), nullptr, &hints, &res);
  if (rc != 0)
    return ApiError::invalid("'url' host " + host + " does not resolve: " + gai_strerror(rc));
  std::vector<IpAddress> out;
  for (addrinfo* p = res; p != nullptr; p = p->ai_next) {
    IpAddress ip;
    if (p->ai_family == AF_INET) {
      ip.family = 4;
      std::memcpy(ip.bytes.data(), &reinterpret_cast<sockaddr_in*>(p->ai_addr)->sin_addr, 4);
    } else if (p->ai_family == AF_INET6) {
      ip.family = 6;
      std::memcpy(ip.bytes.data(), &reinterpret_cast<sockaddr_in6*>(p->ai_addr)->sin6_addr, 16);
    } else {
      continue;
    }
    out.push_back(ip);
  }
  freeaddrinfo(res);
  if (out.empty()) return ApiError::invalid("'url' host " + host + " has no address.");
  return out;
}

Result<void> check_host_name(const WebhookUrl& url) {
  const std::string& host = url.host;
  if (host == "localhost" || ends_with(host, ".localhost") || ends_with(host, ".local") ||
      ends_with(host, ".internal") || ends_with(host, ".home.arpa")) {
    return bad_url(
        "must point to a public server; private and internal network addresses are refused.");
  }
  return {};
}

Result<WebhookUrl> check_webhook_url(std::string_view url, Resolver& resolver, bool allow_private) {
  PARLEY_ASSIGN_OR_RETURN(auto parsed, parse_webhook_url(url));
  if (allow_private) return parsed;
  PARLEY_TRY(check_host_name(parsed));
  if (parsed.literal) {
    if (!is_public_address(*parsed.literal)) {
      return bad_url(
          "must point to a public server; private and internal network addresses are refused.");
    }
    return parsed;
  }
  auto addresses = resolver.resolve(parsed.host);
  if (!addresses.ok()) return parsed;  // checked again, and pinned, at every delivery
  for (const auto& ip : *addresses) {
    if (!is_public_address(ip)) {
      return bad_url("must point to a public server; " + parsed.host +
                     " resolves to a private or internal network address.");
    }
  }
  return parsed;
}

Result<IpAddress> address_for_delivery(const WebhookUrl& url, Resolver& resolver,
                                       bool allow_private) {
  std::vector<IpAddress> addresses;
  if (url.literal) {
    addresses.push_back(*url.literal);
  } else {
    PARLEY_ASSIGN_OR_RETURN(addresses, resolver.resolve(url.host));
  }
  if (!allow_private) {
    for (const auto& ip : addresses)
      if (!is_public_address(ip)) {
        return ApiError::invalid("refused: " + url.host + " resolves to non-public address " +
                                 ip.text());
      }
  }
  for (const auto& ip : addresses)
    if (ip.family == 4) return ip;  // IPv4 first: loopback receivers and most hosts listen there
  return addresses.front();
}

}  // namespace parley
