// Who a request comes from, for every per-address limit (the widget's, the console's login): the
// peer's address, or the last entry of a trusted proxy's header when one is configured and the
// peer is one of the trusted proxies (a header from anyone else is the client's own word and is
// ignored). An IPv6 address is then reduced to its network of `ipv6_prefix` bits (/64 by
// default), because one subscriber is routinely given a whole /64 and could otherwise count as
// 2^64 clients. Immutable after construction; safe to use from every thread.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "http/message.h"

namespace parley {

struct ClientAddressOptions {
  // The request header a trusted proxy fills with the client's address ("X-Forwarded-For": its
  // last entry is taken, the one the proxy added); empty: the peer's address.
  std::string header;
  // The peers whose header is believed, as CIDR blocks ("10.0.0.0/8", "::1/128"); the default is
  // loopback and the private ranges, where a reverse proxy in front of Parley usually stands.
  std::vector<std::string> trusted_proxies = {"127.0.0.0/8",   "::1/128",        "10.0.0.0/8",
                                              "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"};
  // IPv6 clients are grouped by this many leading bits (1..128; 128: each address alone).
  int ipv6_prefix = 64;
};

// An address block: 16 bytes (IPv4 mapped into ::ffff:0:0/96) and a prefix length over them.
struct AddressBlock {
  std::array<uint8_t, 16> bytes{};
  int prefix = 128;
  bool contains(const std::array<uint8_t, 16>& address) const;
};

// The 16 bytes of an IPv4 or IPv6 address as text (IPv4 mapped); none when it is neither.
std::optional<std::array<uint8_t, 16>> parse_client_ip(std::string_view text);
// "10.0.0.0/8", "fc00::/7" or a bare address (a block of one); 400 naming the text otherwise.
Result<AddressBlock> parse_address_block(std::string_view text);
// The key a per-address limit counts under: an IPv4 address as it is, an IPv6 address as its
// network ("2001:db8:1:2::/64"), anything else (not an address) unchanged.
std::string address_group(std::string_view address, int ipv6_prefix);

class ClientAddress {
 public:
  // 400 invalid_request naming a trusted proxy that is not an address block, or a bad prefix.
  static Result<ClientAddress> make(const ClientAddressOptions& options);
  // The peer's address when no trusted proxy said otherwise, grouped (address_group).
  std::string of(const Request& req) const;

 private:
  std::string header_;
  std::vector<AddressBlock> trusted_;
  int ipv6_prefix_ = 64;
};

}  // namespace parley
