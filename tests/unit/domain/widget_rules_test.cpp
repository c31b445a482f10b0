#include "domain/widget_rules.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

TEST(WidgetRules, ReadsTheAgentsSettings) {
  auto r = read_widget_rules(parse_agent_settings(
      R"({"allowedDomains": ["https://Shop.Example.com/path", "*.example.org", 3],
          "blockedCountries": ["fr", "XYZ", "de"], "messagesPerVisitor": 7})"));
  EXPECT_EQ(r.allowed_domains, (std::vector<std::string>{"shop.example.com", "example.org"}));
  EXPECT_EQ(r.blocked_countries, (std::vector<std::string>{"FR", "DE"}));
  EXPECT_EQ(r.messages_per_visitor, 7);
  auto none = read_widget_rules(parse_agent_settings("{}"));
  EXPECT_TRUE(none.allowed_domains.empty());
  EXPECT_FALSE(none.messages_per_visitor);
}

TEST(WidgetRules, OriginHost) {
  EXPECT_EQ(origin_host("https://Shop.Example.com:8443"), "shop.example.com");
  EXPECT_EQ(origin_host("http://localhost"), "localhost");
  EXPECT_EQ(origin_host("null"), "");
  EXPECT_EQ(origin_host("ftp://example.com"), "");
  EXPECT_EQ(origin_host("https://user@example.com"), "");
}

TEST(WidgetRules, OriginMatchesTheDomainOrASubdomain) {
  WidgetRules r;
  EXPECT_TRUE(origin_allowed(r, ""));
  EXPECT_TRUE(origin_allowed(r, "https://any.test"));
  r.allowed_domains = {"example.com"};
  EXPECT_TRUE(origin_allowed(r, "https://example.com"));
  EXPECT_TRUE(origin_allowed(r, "https://a.b.example.com"));
  EXPECT_TRUE(origin_allowed(r, "http://EXAMPLE.com:8080"));
  EXPECT_FALSE(origin_allowed(r, "https://notexample.com"));
  EXPECT_FALSE(origin_allowed(r, "https://example.com.evil.net"));
  EXPECT_FALSE(origin_allowed(r, ""));
  EXPECT_FALSE(origin_allowed(r, "null"));
  EXPECT_EQ(check_origin(r, "https://evil.test").error().code, ErrorCode::kOriginNotAllowed);
}

TEST(WidgetRules, CountriesAreTwoLetterCodes) {
  EXPECT_EQ(normalise_country(" de "), "DE");
  EXPECT_FALSE(normalise_country(""));
  EXPECT_FALSE(normalise_country("XX"));
  EXPECT_FALSE(normalise_country("D1"));
  EXPECT_FALSE(normalise_country("DEU"));
  WidgetRules r;
  r.blocked_countries = {"FR"};
  EXPECT_TRUE(check_country(r, std::nullopt).ok());
  EXPECT_TRUE(check_country(r, std::string("DE")).ok());
  EXPECT_EQ(check_country(r, std::string("FR")).error().code, ErrorCode::kCountryBlocked);
}

}  // namespace
}  // namespace parley
