// The SSRF guard: URLs that must be refused (every trick of the issue) and public ones that pass,
// with a fake resolver so that no test depends on the network.
#include "net/url_guard.h"

#include <gtest/gtest.h>

#include <map>

#include "net/pinned_curl.h"

namespace parley {
namespace {

class FakeResolver final : public Resolver {
 public:
  std::map<std::string, std::vector<std::string>> names = {
      {"hooks.example.com", {"93.184.216.34"}},
      {"dual.example.com", {"93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"}},
      {"rebind.example.com", {"93.184.216.34", "127.0.0.1"}},
      {"internal.example.com", {"10.1.2.3"}},
      {"metadata.example.com", {"169.254.169.254"}},
      {"v6local.example.com", {"fd00::1"}},
      {"mapped.example.com", {"::ffff:127.0.0.1"}},
  };
  Result<std::vector<IpAddress>> resolve(const std::string& host) override {
    auto it = names.find(host);
    if (it == names.end()) return ApiError::invalid("does not resolve");
    std::vector<IpAddress> out;
    for (const auto& t : it->second) out.push_back(*parse_ip(t));
    return out;
  }
};

struct RefusedCase {
  const char* url;
  const char* why;
};

class RefusedUrl : public ::testing::TestWithParam<RefusedCase> {};

TEST_P(RefusedUrl, IsRefusedWithInvalidRequestNamingUrl) {
  FakeResolver resolver;
  auto r = check_webhook_url(GetParam().url, resolver, /*allow_private=*/false);
  ASSERT_FALSE(r.ok()) << GetParam().url << " (" << GetParam().why << ") was accepted";
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidRequest);
  EXPECT_NE(r.error().message.find("'url'"), std::string::npos) << r.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Table, RefusedUrl,
    ::testing::Values(
        RefusedCase{"http://hooks.example.com/x", "plain http"},
        RefusedCase{"ftp://hooks.example.com/x", "other scheme"},
        RefusedCase{"hooks.example.com/x", "no scheme"}, RefusedCase{"", "empty"},
        RefusedCase{"https://", "no host"},
        RefusedCase{"https://user:pass@hooks.example.com/", "user and password"},
        RefusedCase{"https://user@hooks.example.com/", "user name"},
        RefusedCase{"https://hooks.example.com@127.0.0.1/", "user part hiding the real host"},
        RefusedCase{"https://localhost/", "localhost"},
        RefusedCase{"https://api.localhost/", "*.localhost"},
        RefusedCase{"https://127.0.0.1/", "loopback"},
        RefusedCase{"https://127.1/", "short loopback"},
        RefusedCase{"https://0x7f000001/", "hex loopback"},
        RefusedCase{"https://2130706433/", "decimal loopback"},
        RefusedCase{"https://0177.0.0.1/", "octal loopback"},
        RefusedCase{"https://0x7f.0.0.1/", "hex part"},
        RefusedCase{"https://\xef\xbc\x91\xef\xbc\x92\xef\xbc\x97.0.0.1/", "full-width digits"},
        RefusedCase{"https://0.0.0.0/", "unspecified"},
        RefusedCase{"https://10.0.0.1/", "private 10/8"},
        RefusedCase{"https://172.16.5.4/", "private 172.16/12"},
        RefusedCase{"https://172.31.255.255/", "private 172.16/12 end"},
        RefusedCase{"https://192.168.1.1/", "private 192.168/16"},
        RefusedCase{"https://169.254.169.254/latest/meta-data/", "metadata, link-local"},
        RefusedCase{"https://100.64.0.1/", "CGNAT"},
        RefusedCase{"https://100.100.100.200/", "cloud metadata in CGNAT"},
        RefusedCase{"https://224.0.0.1/", "multicast"},
        RefusedCase{"https://255.255.255.255/", "broadcast"},
        RefusedCase{"https://240.0.0.1/", "reserved 240/4"},
        RefusedCase{"https://198.18.0.1/", "benchmarking"},
        RefusedCase{"https://198.19.255.1/", "benchmarking end"},
        RefusedCase{"https://192.0.2.10/", "documentation TEST-NET-1"},
        RefusedCase{"https://198.51.100.7/", "documentation TEST-NET-2"},
        RefusedCase{"https://203.0.113.9/", "documentation TEST-NET-3"},
        RefusedCase{"https://192.0.0.8/", "IETF protocol assignments"},
        RefusedCase{"https://[::1]/", "IPv6 loopback"},
        RefusedCase{"https://[::]/", "IPv6 unspecified"},
        RefusedCase{"https://[::ffff:127.0.0.1]/", "IPv4-mapped loopback"},
        RefusedCase{"https://[::ffff:7f00:1]/", "IPv4-mapped loopback, hex"},
        RefusedCase{"https://[::ffff:93.184.216.34]/", "IPv4-mapped, any"},
        RefusedCase{"https://[::127.0.0.1]/", "IPv4-compatible"},
        RefusedCase{"https://[64:ff9b::7f00:1]/", "NAT64"},
        RefusedCase{"https://[2002:7f00:1::]/", "6to4"},
        RefusedCase{"https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "Teredo"},
        RefusedCase{"https://[fc00::1]/", "unique-local"},
        RefusedCase{"https://[fd12:3456::1]/", "unique-local fd"},
        RefusedCase{"https://[fe80::1]/", "IPv6 link-local"},
        RefusedCase{"https://[fe80::1%25eth0]/", "zone id"},
        RefusedCase{"https://[ff02::1]/", "IPv6 multicast"},
        RefusedCase{"https://[2001:db8::1]/", "IPv6 documentation"},
        RefusedCase{"https://internal.example.com/", "name resolving to a private address"},
        RefusedCase{"https://metadata.example.com/", "name resolving to metadata"},
        RefusedCase{"https://rebind.example.com/", "one of several addresses is loopback"},
        RefusedCase{"https://v6local.example.com/", "name resolving to unique-local"},
        RefusedCase{"https://mapped.example.com/", "name resolving to a mapped loopback"},
        RefusedCase{"https://hooks.example.com:0/", "port zero"},
        RefusedCase{"https://hooks.example.com:99999/", "port out of range"},
        RefusedCase{"https://hooks.example.com:80x/", "port not a number"},
        RefusedCase{"https://hooks example.com/", "space"},
        RefusedCase{"https://hooks.example.com\\@127.0.0.1/", "backslash"},
        RefusedCase{"https://%31%32%37.0.0.1/", "percent-encoded host"},
        RefusedCase{"https://256.1.1.1/", "not an address"},
        RefusedCase{"https://1.2.3.4.5/", "five parts"},
        RefusedCase{"https://foo.123/", "numeric top-level label"},
        RefusedCase{"https://printer.local/", ".local"},
        RefusedCase{"https://db.internal/", ".internal"}));

TEST(UrlGuard, ParseIpTakesTheWholeText) {
  using namespace std::string_view_literals;
  EXPECT_FALSE(parse_ip("1.2.3.4\0"sv).has_value());
  EXPECT_FALSE(parse_ip("1.2.3.4\0junk"sv).has_value());
  EXPECT_FALSE(parse_ip("::1\0"sv).has_value());
  EXPECT_TRUE(parse_ip("1.2.3.4"sv).has_value());
}

TEST(UrlGuard, PublicUrlsPass) {
  FakeResolver resolver;
  for (const char* url :
       {"https://hooks.example.com/webhook", "https://HOOKS.example.com:8443/a?b=c#d",
        "https://dual.example.com/", "https://93.184.216.34/hook", "https://1.1.1.1/",
        "https://[2606:2800:220:1:248:1893:25c8:1946]/x", "https://hooks.example.com./",
        "HTTPS://hooks.example.com/"}) {
    auto r = check_webhook_url(url, resolver, false);
    EXPECT_TRUE(r.ok()) << url << ": " << (r.ok() ? "" : r.error().message);
  }
}

TEST(UrlGuard, NameThatDoesNotResolveNowIsLeftToDeliveryTime) {
  FakeResolver resolver;
  EXPECT_TRUE(check_webhook_url("https://not-yet.example.org/x", resolver, false).ok());
  auto parsed = parse_webhook_url("https://not-yet.example.org/x");
  ASSERT_TRUE(parsed.ok());
  EXPECT_FALSE(address_for_delivery(*parsed, resolver, false).ok());
}

TEST(UrlGuard, DeliveryRefusesANameThatNowResolvesToLoopback) {
  FakeResolver resolver;
  auto parsed = parse_webhook_url("https://hooks.example.com/x");
  ASSERT_TRUE(parsed.ok());
  ASSERT_TRUE(address_for_delivery(*parsed, resolver, false).ok());
  resolver.names["hooks.example.com"] = {"127.0.0.1"};
  auto r = address_for_delivery(*parsed, resolver, false);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("127.0.0.1"), std::string::npos);
}

TEST(UrlGuard, DeliveryPinsTheCheckedAddress) {
  FakeResolver resolver;
  auto parsed = parse_webhook_url("https://hooks.example.com:8443/x");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->host, "hooks.example.com");
  EXPECT_EQ(parsed->port, 8443);
  auto ip = address_for_delivery(*parsed, resolver, false);
  ASSERT_TRUE(ip.ok());
  EXPECT_EQ(ip->text(), "93.184.216.34");
}

TEST(UrlGuard, PrivateTargetsAllowedOnlyWhenConfigured) {
  FakeResolver resolver;
  EXPECT_FALSE(check_webhook_url("https://127.0.0.1:9443/x", resolver, false).ok());
  EXPECT_TRUE(check_webhook_url("https://127.0.0.1:9443/x", resolver, true).ok());
  // The form is still checked.
  EXPECT_FALSE(check_webhook_url("http://127.0.0.1:9443/x", resolver, true).ok());
  EXPECT_FALSE(check_webhook_url("https://0x7f000001/", resolver, true).ok());
}

TEST(UrlGuard, HttpOnlyWhereAskedFor) {
  EXPECT_FALSE(parse_target_url("http://llm.example.com/v1", false).ok());
  auto plain = parse_target_url("http://llm.example.com/v1", true);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->port, 80);
  auto local = parse_target_url("HTTP://127.0.0.1:8000/v1", true);
  ASSERT_TRUE(local.ok());
  EXPECT_EQ(local->port, 8000);
  EXPECT_EQ(parse_target_url("https://llm.example.com/v1", true)->port, 443);
  EXPECT_FALSE(parse_target_url("ftp://llm.example.com/", true).ok());
}

TEST(UrlGuard, APinnedTargetIsTheFirstCheckedAddress) {
  FakeResolver resolver;
  auto pinned = pin_target(*parse_webhook_url("https://dual.example.com:8443/x"), resolver, false);
  ASSERT_TRUE(pinned.ok());
  EXPECT_EQ(pinned->host, "dual.example.com");
  EXPECT_EQ(pinned->port, 8443);
  EXPECT_EQ(pinned->address.text(), "93.184.216.34");
  for (std::string url : {"https://rebind.example.com/", "https://nowhere.example.com/",
                          "https://internal.example.com/", "https://127.0.0.1/"})
    EXPECT_FALSE(pin_target(*parse_webhook_url(url), resolver, false).ok()) << url;
  // An internal name is refused even when it resolves to a public address.
  resolver.names["hooks.internal"] = {"93.184.216.34"};
  EXPECT_FALSE(pin_target(*parse_webhook_url("https://hooks.internal/"), resolver, false).ok());
  EXPECT_TRUE(pin_target(*parse_webhook_url("https://127.0.0.1/"), resolver, true).ok());
}

}  // namespace
}  // namespace parley
