// The SSRF guard for webhook URLs: parses a URL strictly (https only, no user:password part, no
// numeric host tricks, ASCII host names only), decides whether an address is public, and resolves
// a host into the addresses a delivery may connect to. A subscription is checked when it is made;
// every delivery checks again and pins the connection to the address it checked, so a name that
// later resolves to an internal address (DNS rebinding) reaches nothing.
//
// Stateless functions; a Resolver implementation must be thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace parley {

struct IpAddress {
  int family = 4;                   // 4 or 6
  std::array<uint8_t, 16> bytes{};  // IPv4 uses the first 4

  std::string text() const;  // "1.2.3.4" or "2001:db8::1" (no brackets)
};

// Parses canonical dotted-decimal IPv4 or IPv6 text (no brackets, no zone).
std::optional<IpAddress> parse_ip(std::string_view text);

// True when the address is a public unicast address: not loopback, private, link-local, CGNAT,
// unique-local, multicast, broadcast, reserved, benchmarking, documentation, metadata, nor an
// IPv6 form that embeds an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo).
bool is_public_address(const IpAddress& ip);

struct WebhookUrl {
  std::string host;  // lower-cased name, or the address text for a literal
  uint16_t port = 443;
  std::optional<IpAddress> literal;  // set when the host is an address
};

// Parses and checks the form of a webhook URL; errors are 400 invalid_request naming 'url'.
Result<WebhookUrl> parse_webhook_url(std::string_view url);
// The same form checks for another outbound URL; `allow_http` (only where private targets are
// allowed: tests and local development) also accepts http:// (default port 80).
Result<WebhookUrl> parse_target_url(std::string_view url, bool allow_http);

// Refuses internal names (localhost, *.localhost, *.local, *.internal, *.home.arpa).
Result<void> check_host_name(const WebhookUrl& url);

class Resolver {
 public:
  virtual ~Resolver() = default;
  // Every address the name resolves to; an error when it does not resolve.
  virtual Result<std::vector<IpAddress>> resolve(const std::string& host) = 0;
};

// getaddrinfo over the system resolver.
class SystemResolver final : public Resolver {
 public:
  Result<std::vector<IpAddress>> resolve(const std::string& host) override;
};

// The subscribe-time check: the URL's form, no internal name (localhost, *.local, *.internal),
// and every address its name resolves to now must be public. A name that does not resolve at all is
// accepted: the delivery-time check decides then. `allow_private` (tests and local development
// only) skips the address checks.
Result<WebhookUrl> check_webhook_url(std::string_view url, Resolver& resolver, bool allow_private);

// The delivery-time check: resolves the host and returns the address to pin the connection to;
// an error when it does not resolve or when any address it resolves to is not public.
Result<IpAddress> address_for_delivery(const WebhookUrl& url, Resolver& resolver,
                                       bool allow_private);

}  // namespace parley
