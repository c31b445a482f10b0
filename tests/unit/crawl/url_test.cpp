// URL parsing, normalisation and resolution: RFC 3986 §5.4's examples, and the cases that make
// two links to one page compare equal.
#include "crawl/url.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

std::string norm(std::string_view s) {
  auto url = parse_url(s);
  return url ? url->text() : "(none)";
}

TEST(UrlTest, ParsesTheParts) {
  auto url = parse_url("HTTPS://Docs.Example.COM:8443/a/b?x=1&y=2#top");
  ASSERT_TRUE(url);
  EXPECT_EQ(url->scheme, "https");
  EXPECT_EQ(url->host, "docs.example.com");
  EXPECT_EQ(url->port, 8443);
  EXPECT_EQ(url->path, "/a/b");
  EXPECT_EQ(url->query, "x=1&y=2");
  EXPECT_EQ(url->origin(), "https://docs.example.com:8443");
  EXPECT_EQ(url->path_and_query(), "/a/b?x=1&y=2");
  EXPECT_EQ(url->text(), "https://docs.example.com:8443/a/b?x=1&y=2");
}

TEST(UrlTest, NormalisesCaseDefaultPortDotSegmentsAndFragment) {
  EXPECT_EQ(norm("HTTP://Example.COM:80/a/./b/../c?x#f"), "http://example.com/a/c?x");
  EXPECT_EQ(norm("https://example.com:443/"), "https://example.com/");
  EXPECT_EQ(norm("https://example.com:80/"), "https://example.com:80/");
  EXPECT_EQ(norm("http://example.com:/x"), "http://example.com/x");
  auto url = parse_url("http://example.com");
  ASSERT_TRUE(url);
  EXPECT_EQ(url->port, 80);
  EXPECT_EQ(url->path, "/");
  EXPECT_EQ(url->text(), "http://example.com/");
  EXPECT_EQ(norm("http://example.com?q"), "http://example.com/?q");
  EXPECT_EQ(norm("http://example.com/a?"), "http://example.com/a");
  EXPECT_EQ(norm("http://example.com/a/b/../../../.."), "http://example.com/");
}

TEST(UrlTest, NormalisesPercentEncoding) {
  EXPECT_EQ(norm("http://example.com/%7ejoe/%41%2d"), "http://example.com/~joe/A-");
  EXPECT_EQ(norm("http://example.com/a%2fb"), "http://example.com/a%2Fb");  // kept: reserved
  EXPECT_EQ(norm("http://example.com/a%2Fb?c=%3d%3D"), "http://example.com/a%2Fb?c=%3D%3D");
  EXPECT_EQ(norm("http://example.com/a b/ü"), "http://example.com/a%20b/%C3%BC");
  EXPECT_EQ(norm("http://example.com/100%/%zz"), "http://example.com/100%25/%25zz");
  EXPECT_EQ(norm("http://example.com/a/%2E%2E/b"), "http://example.com/b");  // dots decoded first
  EXPECT_EQ(norm("http://example.com/a?x=<y>"), "http://example.com/a?x=%3Cy%3E");
  EXPECT_EQ(normalize_percent_encoding("/%7e%7E%2f%e3%83%84"), "/~~%2F%E3%83%84");
}

TEST(UrlTest, HostsIpv6AndInternationalNames) {
  EXPECT_EQ(norm("http://[2001:DB8::0:1]:8080/x"), "http://[2001:db8::1]:8080/x");
  auto v6 = parse_url("http://[::1]/");
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->origin(), "http://[::1]");
  EXPECT_EQ(norm("https://Bücher.example/"), "https://xn--bcher-kva.example/");
  EXPECT_EQ(norm("http://127.0.0.1:8080/"), "http://127.0.0.1:8080/");
}

TEST(UrlTest, RefusesWhatIsNotAnAbsoluteHttpUrl) {
  for (const char* bad :
       {"", "example.com/a", "/a/b", "//example.com/a", "ftp://example.com/", "mailto:a@b.c",
        "javascript:alert(1)", "http:/example.com", "http://", "http://user:pw@example.com/",
        "http://example.com:0/", "http://example.com:65536/", "http://example.com:8o/",
        "http://[::1/", "http://[1.2.3.4]/", "http://exa mple.com/", "http://exa%6Dple.com/",
        "http://example.com:80:80/"}) {
    EXPECT_FALSE(parse_url(bad).has_value()) << bad;
  }
}

TEST(UrlTest, IgnoresSpacesAroundAndLineBreaksInside) {
  EXPECT_EQ(norm("  https://example.com/a\n/b\t \n"), "https://example.com/a/b");
}

// RFC 3986 §5.4.1 and §5.4.2, base "http://a/b/c/d;p?q". Fragments are dropped; a result that is
// not http(s) ("g:h") is none.
struct Resolution {
  const char* reference;
  const char* expected;
};

class ResolveTest : public ::testing::TestWithParam<Resolution> {};

TEST_P(ResolveTest, Rfc3986Examples) {
  auto base = parse_url("http://a/b/c/d;p?q");
  ASSERT_TRUE(base);
  auto url = resolve_url(*base, GetParam().reference);
  EXPECT_EQ(url ? url->text() : "(none)", GetParam().expected) << GetParam().reference;
}

INSTANTIATE_TEST_SUITE_P(
    Normal, ResolveTest,
    ::testing::Values(Resolution{"g:h", "(none)"}, Resolution{"g", "http://a/b/c/g"},
                      Resolution{"./g", "http://a/b/c/g"}, Resolution{"g/", "http://a/b/c/g/"},
                      Resolution{"/g", "http://a/g"}, Resolution{"//g", "http://g/"},
                      Resolution{"?y", "http://a/b/c/d;p?y"}, Resolution{"g?y", "http://a/b/c/g?y"},
                      Resolution{"#s", "http://a/b/c/d;p?q"}, Resolution{"g#s", "http://a/b/c/g"},
                      Resolution{"g?y#s", "http://a/b/c/g?y"}, Resolution{";x", "http://a/b/c/;x"},
                      Resolution{"g;x", "http://a/b/c/g;x"},
                      Resolution{"g;x?y#s", "http://a/b/c/g;x?y"},
                      Resolution{"", "http://a/b/c/d;p?q"}, Resolution{".", "http://a/b/c/"},
                      Resolution{"./", "http://a/b/c/"}, Resolution{"..", "http://a/b/"},
                      Resolution{"../", "http://a/b/"}, Resolution{"../g", "http://a/b/g"},
                      Resolution{"../..", "http://a/"}, Resolution{"../../", "http://a/"},
                      Resolution{"../../g", "http://a/g"}));

INSTANTIATE_TEST_SUITE_P(
    Abnormal, ResolveTest,
    ::testing::Values(
        Resolution{"../../../g", "http://a/g"}, Resolution{"../../../../g", "http://a/g"},
        Resolution{"/./g", "http://a/g"}, Resolution{"/../g", "http://a/g"},
        Resolution{"g.", "http://a/b/c/g."}, Resolution{".g", "http://a/b/c/.g"},
        Resolution{"g..", "http://a/b/c/g.."}, Resolution{"..g", "http://a/b/c/..g"},
        Resolution{"./../g", "http://a/b/g"}, Resolution{"./g/.", "http://a/b/c/g/"},
        Resolution{"g/./h", "http://a/b/c/g/h"}, Resolution{"g/../h", "http://a/b/c/h"},
        Resolution{"g;x=1/./y", "http://a/b/c/g;x=1/y"}, Resolution{"g;x=1/../y", "http://a/b/c/y"},
        Resolution{"g?y/./x", "http://a/b/c/g?y/./x"},
        Resolution{"g?y/../x", "http://a/b/c/g?y/../x"}, Resolution{"g#s/./x", "http://a/b/c/g"},
        Resolution{"g#s/../x", "http://a/b/c/g"},
        // The compatible reading (§5.4.2): the base's own scheme without "//" is relative.
        Resolution{"http:g", "http://a/b/c/g"}));

TEST(UrlTest, ResolvesOtherSchemesAndHosts) {
  auto base = parse_url("https://example.com/docs/intro.html");
  ASSERT_TRUE(base);
  auto text = [&](std::string_view ref) {
    auto url = resolve_url(*base, ref);
    return url ? url->text() : "(none)";
  };
  EXPECT_EQ(text("HTTP://Other.example:80/x"), "http://other.example/x");
  EXPECT_EQ(text("//cdn.example.com/a.css"), "https://cdn.example.com/a.css");
  EXPECT_EQ(text("//cdn.example.com:8443"), "https://cdn.example.com:8443/");
  EXPECT_EQ(text("http:page"), "(none)");  // another scheme without an authority
  EXPECT_EQ(text("mailto:sales@example.com"), "(none)");
  EXPECT_EQ(text("javascript:void(0)"), "(none)");
  EXPECT_EQ(text("tel:+4912345"), "(none)");
  EXPECT_EQ(text("//user@evil.example/"), "(none)");
  EXPECT_EQ(text(" guide/start.html#install "), "https://example.com/docs/guide/start.html");
  EXPECT_EQ(text("../pricing?plan=pro"), "https://example.com/pricing?plan=pro");
  EXPECT_EQ(text("?page=2"), "https://example.com/docs/intro.html?page=2");
  EXPECT_EQ(text("%7Euser/"), "https://example.com/docs/~user/");
  EXPECT_EQ(text("a:b/c"), "(none)");  // "a:" is a scheme
  EXPECT_EQ(text("./a:b"), "https://example.com/docs/a:b");
}

}  // namespace
}  // namespace parley
