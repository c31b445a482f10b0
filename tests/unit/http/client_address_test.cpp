#include "http/client_address.h"

#include <gtest/gtest.h>

#include <map>

namespace parley {
namespace {

// A request from `peer` carrying `headers` (names lower-case).
struct FakeRequest {
  std::map<std::string, std::string, std::less<>> headers;
  Request req;
  explicit FakeRequest(std::string peer, std::map<std::string, std::string, std::less<>> h = {})
      : headers(std::move(h)) {
    req.remote_address = std::move(peer);
    req.set_header_source(this, [](const void* native, std::string_view name) -> std::string_view {
      const auto& all = static_cast<const FakeRequest*>(native)->headers;
      std::string lower(name);
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      auto it = all.find(lower);
      return it == all.end() ? std::string_view() : std::string_view(it->second);
    });
  }
};

ClientAddress make(ClientAddressOptions o) {
  auto made = ClientAddress::make(o);
  EXPECT_TRUE(made.ok());
  return *made;
}

TEST(AddressGroup, GroupsIpv6ByTheConfiguredPrefixAndLeavesIpv4Alone) {
  EXPECT_EQ(address_group("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 64), "2001:db8:1:2::/64");
  EXPECT_EQ(address_group("2001:db8:1:2::1", 64), address_group("2001:db8:1:2:ffff::9", 64));
  EXPECT_NE(address_group("2001:db8:1:2::1", 64), address_group("2001:db8:1:3::1", 64));
  EXPECT_EQ(address_group("2001:db8:1:2::1", 48), "2001:db8:1::/48");
  EXPECT_EQ(address_group("2001:DB8::1", 128), "2001:db8::1");
  EXPECT_EQ(address_group("[2001:db8::1]", 64), "2001:db8::/64");
  EXPECT_EQ(address_group("fe80::1%eth0", 64), "fe80::/64");
  EXPECT_EQ(address_group("203.0.113.7", 64), "203.0.113.7");
  EXPECT_EQ(address_group("::ffff:203.0.113.7", 64), "203.0.113.7");  // IPv4 mapped is IPv4
  EXPECT_EQ(address_group("not an address", 64), "not an address");
  EXPECT_FALSE(parse_client_ip(std::string_view("1.2.3.4\0junk", 12)).has_value());
  EXPECT_EQ(address_group("", 64), "");
}

TEST(AddressBlock, ParsesCidrAndRefusesGarbage) {
  auto v4 = parse_address_block("10.0.0.0/8");
  ASSERT_TRUE(v4.ok());
  EXPECT_TRUE(v4->contains(*parse_client_ip("10.200.3.4")));
  EXPECT_FALSE(v4->contains(*parse_client_ip("11.0.0.1")));
  EXPECT_FALSE(v4->contains(*parse_client_ip("::a00:1")));  // IPv4-compatible is not IPv4
  auto v6 = parse_address_block("fc00::/7");
  ASSERT_TRUE(v6.ok());
  EXPECT_TRUE(v6->contains(*parse_client_ip("fd12::1")));
  EXPECT_FALSE(v6->contains(*parse_client_ip("2001:db8::1")));
  auto one = parse_address_block("192.0.2.1");
  ASSERT_TRUE(one.ok());
  EXPECT_TRUE(one->contains(*parse_client_ip("192.0.2.1")));
  EXPECT_FALSE(one->contains(*parse_client_ip("192.0.2.2")));
  for (const char* bad : {"10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/8x", "proxy.local", ""}) {
    auto r = parse_address_block(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidRequest) << bad;
  }
  EXPECT_FALSE(ClientAddress::make({.ipv6_prefix = 0}).ok());
  EXPECT_FALSE(ClientAddress::make({.trusted_proxies = {"10.0.0.0/40"}}).ok());
}

TEST(ClientAddress, BelievesTheHeaderOnlyFromATrustedProxy) {
  auto client = make({.header = "X-Forwarded-For", .trusted_proxies = {"10.0.0.0/8"}});
  FakeRequest from_proxy("10.1.2.3", {{"x-forwarded-for", "198.51.100.9, 203.0.113.7"}});
  EXPECT_EQ(client.of(from_proxy.req), "203.0.113.7");  // the entry the proxy added
  FakeRequest from_stranger("192.0.2.50", {{"x-forwarded-for", "203.0.113.7"}});
  EXPECT_EQ(client.of(from_stranger.req), "192.0.2.50");
  FakeRequest without_header("10.1.2.3");
  EXPECT_EQ(client.of(without_header.req), "10.1.2.3");
  auto no_header = make({});
  EXPECT_EQ(no_header.of(from_proxy.req), "10.1.2.3");
}

TEST(ClientAddress, GroupsWhatTheProxySaysByIpv6Prefix) {
  auto client = make({.header = "X-Forwarded-For"});  // loopback and private ranges trusted
  FakeRequest a("127.0.0.1", {{"x-forwarded-for", "2001:db8:5:6::1"}});
  FakeRequest b("::1", {{"x-forwarded-for", "2001:db8:5:6:ffff:1:2:3"}});
  EXPECT_EQ(client.of(a.req), "2001:db8:5:6::/64");
  EXPECT_EQ(client.of(a.req), client.of(b.req));
  FakeRequest direct("2001:db8:7:8::42");
  EXPECT_EQ(client.of(direct.req), "2001:db8:7:8::/64");
  auto exact = make({.ipv6_prefix = 128});
  EXPECT_EQ(exact.of(direct.req), "2001:db8:7:8::42");
}

}  // namespace
}  // namespace parley
