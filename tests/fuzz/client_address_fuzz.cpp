// Fuzzes the client address every per-address limit keys on (http/client_address.h): the address
// parser, the CIDR parser of --trusted-proxies and the IPv6 grouping. The first byte picks the
// prefix; the rest is the text. Checks that an IPv6 address is always reduced to a network of the
// prefix that groups to itself (so two addresses of one /64 always share one key), that an IPv4
// address keys alone, and that a block contains its own network address.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "http/client_address.h"

using namespace parley;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const int prefix = 1 + data[0] % 128;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

  std::string group = address_group(text, prefix);
  if (auto ip = parse_client_ip(text)) {
    size_t slash = group.find('/');
    if (slash == std::string::npos) {
      // IPv4 (or IPv6 with the whole 128 bits): one address, printed canonically.
      auto again = parse_client_ip(group);
      FUZZ_CHECK(again.has_value());
      FUZZ_CHECK(address_group(group, prefix) == group);
    } else {
      FUZZ_CHECK(group.substr(slash + 1) == std::to_string(prefix));
      std::string network = group.substr(0, slash);
      auto net = parse_client_ip(network);
      FUZZ_CHECK(net.has_value());
      FUZZ_CHECK(address_group(network, prefix) == group);  // the network is in its own group
      auto block = parse_address_block(group);
      FUZZ_CHECK(block.ok());
      FUZZ_CHECK(block->contains(*ip));  // the address is in the network it was grouped to
    }
  } else {
    FUZZ_CHECK(group == text);  // not an address: kept as it is
  }

  if (auto block = parse_address_block(text); block.ok()) {
    FUZZ_CHECK(block->prefix >= 0 && block->prefix <= 128);
    FUZZ_CHECK(block->contains(block->bytes));
  }
  return 0;
}
