// The settings whose values are not free-form are refused with a message naming the setting (and
// the item) when the value is not one they take: the engine, the hand-off address, the allowed
// domains, the offers' names and links, the provider's URL.
#include <gtest/gtest.h>

#include "domain/agent_settings.h"

namespace parley {
namespace {

std::string refusal(const std::string& update) {
  auto merged = merge_agent_settings("{}", update);
  return merged.ok() ? "" : merged.error().message;
}

TEST(AgentSettingValues, TheEngineIsRetrievalOrOpenai) {
  EXPECT_EQ(refusal(R"({"engine":"retrieval"})"), "");
  EXPECT_EQ(refusal(R"({"engine":"openai"})"), "");
  EXPECT_EQ(refusal(R"({"engine":"foo"})"), "Setting 'engine' must be retrieval or openai.");
}

TEST(AgentSettingValues, TheHandoffAddressIsAnEmail) {
  EXPECT_EQ(refusal(R"({"handoffEmail":"team@example.com"})"), "");
  EXPECT_EQ(refusal(R"({"handoffEmail":"nope"})"), "Setting 'handoffEmail' must be an email address.");
}

TEST(AgentSettingValues, AllowedDomainsAreHosts) {
  EXPECT_EQ(refusal(R"({"allowedDomains":["example.com","https://Shop.Example.com:8443/a","*.example.org","xn--bcher-kva.example"]})"), "");
  EXPECT_EQ(refusal(R"({"allowedDomains":["example.com","not a domain"]})"),
            "Setting 'allowedDomains[1]' must be a domain such as example.com.");
  EXPECT_EQ(refusal(R"({"allowedDomains":[""]})"), "Setting 'allowedDomains[0]' must be a domain such as example.com.");
  EXPECT_EQ(refusal(R"({"allowedDomains":[7]})"), "Setting 'allowedDomains[0]' must be a domain such as example.com.");
}

TEST(AgentSettingValues, OffersHaveANameAndAWebLink) {
  EXPECT_EQ(refusal(R"({"buttons":[{"label":"Shop","url":"https://shop.example"}]})"), "");
  EXPECT_EQ(refusal(R"({"buttons":[{"label":"x"}]})"), "Setting 'buttons[0].url' must be an http or https URL.");
  EXPECT_EQ(refusal(R"j({"buttons":[{"label":"x","url":"javascript:alert(1)"}]})j"),
            "Setting 'buttons[0].url' must be an http or https URL.");
  EXPECT_EQ(refusal(R"({"buttons":["x"]})"), "Setting 'buttons[0]' must be an object.");
  EXPECT_EQ(refusal(R"({"products":[{"name":"Hat","url":"http://shop.example/hat"},{"url":"https://shop.example"}]})"),
            "Setting 'products[1].name' must be a non-empty string.");
}

TEST(AgentSettingValues, AProductsImageIsAWebLinkToo) {
  EXPECT_EQ(
      refusal(
          R"({"products":[{"name":"Hat","url":"https://shop.example/hat","image":"https://cdn.example/h.png"}]})"),
      "");
  EXPECT_EQ(
      refusal(R"({"products":[{"name":"Hat","url":"https://shop.example/hat","image":null}]})"),
      "");
  for (const char* image : {"javascript:alert(1)", "data:image/svg+xml,<svg onload=alert(1)>",
                            "//cdn.example/h.png", "", "7"}) {
    std::string settings =
        std::string(R"({"products":[{"name":"Hat","url":"https://shop.example/hat","image":")") +
        image + "\"}]}";
    EXPECT_EQ(refusal(settings), "Setting 'products[0].image' must be an http or https URL.")
        << image;
  }
  EXPECT_EQ(refusal(R"({"products":[{"name":"Hat","url":"https://shop.example/hat","image":7}]})"),
            "Setting 'products[0].image' must be an http or https URL.");
}

TEST(AgentSettingValues, TheProvidersUrlIsAWebUrl) {
  EXPECT_EQ(refusal(R"({"llm":{"baseUrl":"https://api.provider.example/v1"}})"), "");
  EXPECT_EQ(refusal(R"({"llm":{"model":"m"}})"), "");
  EXPECT_EQ(refusal(R"({"llm":{"baseUrl":"ftp://x"}})"), "Setting 'llm.baseUrl' must be an http or https URL.");
}

}  // namespace
}  // namespace parley
