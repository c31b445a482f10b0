#include "http/client_address.h"

#include <arpa/inet.h>

#include <algorithm>
#include <charconv>
#include <cstring>

namespace parley {

namespace {
std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool is_mapped_v4(const std::array<uint8_t, 16>& a) {
  for (int i = 0; i < 10; ++i)
    if (a[i] != 0) return false;
  return a[10] == 0xff && a[11] == 0xff;
}

// Zeroes every bit past the first `prefix`.
void mask(std::array<uint8_t, 16>& a, int prefix) {
  for (int i = 0; i < 16; ++i) {
    int keep = std::min(8, std::max(0, prefix - i * 8));
    a[i] = static_cast<uint8_t>(keep == 0 ? 0 : a[i] & (0xff << (8 - keep)));
  }
}
}  // namespace

std::optional<std::array<uint8_t, 16>> parse_client_ip(std::string_view text) {
  text = trim(text);
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']')
    text = text.substr(1, text.size() - 2);
  // inet_pton reads a C string: "1.2.3.4\0junk" must not pass as 1.2.3.4.
  if (text.empty() || text.size() > 45 || text.find('\0') != std::string_view::npos)
    return std::nullopt;
  std::string s(text);
  if (size_t zone = s.find('%'); zone != std::string::npos) s.resize(zone);  // fe80::1%eth0
  std::array<uint8_t, 16> out{};
  in_addr v4{};
  if (inet_pton(AF_INET, s.c_str(), &v4) == 1) {
    out[10] = out[11] = 0xff;
    std::memcpy(out.data() + 12, &v4, 4);
    return out;
  }
  in6_addr v6{};
  if (inet_pton(AF_INET6, s.c_str(), &v6) == 1) {
    std::memcpy(out.data(), &v6, 16);
    return out;
  }
  return std::nullopt;
}

bool AddressBlock::contains(const std::array<uint8_t, 16>& address) const {
  std::array<uint8_t, 16> masked = address;
  mask(masked, prefix);
  return masked == bytes;
}

Result<AddressBlock> parse_address_block(std::string_view text) {
  text = trim(text);
  auto bad = [&] {
    return ApiError::invalid("'" + std::string(text) + "' is not an address block (CIDR).");
  };
  size_t slash = text.find('/');
  auto ip = parse_client_ip(text.substr(0, slash));
  if (!ip) return bad();
  AddressBlock block;
  block.bytes = *ip;
  bool v4 = is_mapped_v4(*ip);
  if (slash != std::string_view::npos) {
    std::string_view digits = text.substr(slash + 1);
    int prefix = -1;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), prefix);
    if (ec != std::errc() || end != digits.data() + digits.size() || prefix < 0 ||
        prefix > (v4 ? 32 : 128)) {
      return bad();
    }
    block.prefix = v4 ? prefix + 96 : prefix;
  }
  mask(block.bytes, block.prefix);
  return block;
}

std::string address_group(std::string_view address, int ipv6_prefix) {
  auto ip = parse_client_ip(address);
  if (!ip) return std::string(address);
  char text[INET6_ADDRSTRLEN] = {};
  if (is_mapped_v4(*ip)) {
    inet_ntop(AF_INET, ip->data() + 12, text, sizeof text);
    return text;
  }
  if (ipv6_prefix >= 128) {
    inet_ntop(AF_INET6, ip->data(), text, sizeof text);
    return text;
  }
  mask(*ip, ipv6_prefix);
  inet_ntop(AF_INET6, ip->data(), text, sizeof text);
  return std::string(text) + "/" + std::to_string(ipv6_prefix);
}

Result<ClientAddress> ClientAddress::make(const ClientAddressOptions& options) {
  if (options.ipv6_prefix < 1 || options.ipv6_prefix > 128) {
    return ApiError::invalid("The IPv6 grouping prefix must be between 1 and 128.");
  }
  ClientAddress out;
  out.header_ = options.header;
  out.ipv6_prefix_ = options.ipv6_prefix;
  for (const auto& text : options.trusted_proxies) {
    if (trim(text).empty()) continue;
    PARLEY_ASSIGN_OR_RETURN(auto block, parse_address_block(text));
    out.trusted_.push_back(block);
  }
  return out;
}

std::string ClientAddress::of(const Request& req) const {
  std::string_view address = req.remote_address;
  if (!header_.empty()) {
    auto peer = parse_client_ip(req.remote_address);
    bool trusted = false;
    for (const auto& block : trusted_)
      if (peer && block.contains(*peer)) trusted = true;
    if (trusted) {
      std::string_view value = req.header(header_);
      size_t comma = value.rfind(',');
      std::string_view last =
          trim(comma == std::string_view::npos ? value : value.substr(comma + 1));
      if (!last.empty()) address = last;
    }
  }
  return address_group(address, ipv6_prefix_);
}

}  // namespace parley
