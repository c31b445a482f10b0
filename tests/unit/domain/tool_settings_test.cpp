#include "domain/tool_settings.h"

#include <gtest/gtest.h>

#include "core/json.h"
#include "core/random.h"
#include "core/secret_box.h"
#include "domain/agent_settings.h"
#include "model/agent_settings.h"

namespace parley {
namespace {

constexpr const char* kShop =
    R"({"mcpServers":[{"name":"shop","url":"https://mcp.example.com/mcp","headerName":"Authorization",
        "headerValue":"Bearer s3cret","allowedTools":["lookup_order"]}]})";

struct Sealing {
  SecureRandom random;
  SecretBox box = SecretBox::generate(random);
  SecretSealer sealer = [this](std::string_view plaintext) {
    return box.seal(plaintext, "agt_1", random);
  };
};

TEST(ToolSettings, AHeaderSecretIsSealedWhenStoredAndRedactedWhenShown) {
  Sealing s;
  auto stored = merge_agent_settings("{}", kShop, &s.sealer);
  ASSERT_TRUE(stored.ok()) << stored.error().message;
  EXPECT_EQ(stored->find("s3cret"), std::string::npos);
  AgentSettings read = parse_agent_settings(*stored);
  ASSERT_EQ(read.tools.mcp_servers.size(), 1u);
  const McpServerSetting& server = read.tools.mcp_servers[0];
  EXPECT_EQ(server.name, "shop");
  EXPECT_EQ(server.header_name, "Authorization");
  EXPECT_EQ(server.allowed_tools, std::vector<std::string>{"lookup_order"});
  auto opened = s.box.open(server.header_sealed, "agt_1");
  ASSERT_TRUE(opened.ok());
  EXPECT_EQ(*opened, "Bearer s3cret");
  EXPECT_FALSE(s.box.open(server.header_sealed, "agt_2").ok());  // bound to its agent

  std::string shown = redact_agent_settings(*stored);
  EXPECT_EQ(shown.find("v1."), std::string::npos);
  EXPECT_NE(shown.find(R"("headerValue":"********")"), std::string::npos);
}

TEST(ToolSettings, TheMarkerKeepsTheSealedSecretOnlyForTheSameAddress) {
  Sealing s;
  auto stored = merge_agent_settings("{}", kShop, &s.sealer);
  ASSERT_TRUE(stored.ok());
  auto shown = parse_json_object(redact_agent_settings(*stored));
  ASSERT_TRUE(shown.ok());
  std::string back = R"({"mcpServers":)" + to_json((*shown)["mcpServers"]) + "}";
  auto kept = merge_agent_settings(*stored, back, &s.sealer);
  ASSERT_TRUE(kept.ok()) << kept.error().message;
  EXPECT_EQ(parse_agent_settings(*kept).tools.mcp_servers[0].header_sealed,
            parse_agent_settings(*stored).tools.mcp_servers[0].header_sealed);

  (*shown)["mcpServers"][0]["url"].SetString("https://evil.example.com/mcp");
  std::string moved = R"({"mcpServers":)" + to_json((*shown)["mcpServers"]) + "}";
  auto refused = merge_agent_settings(*stored, moved, &s.sealer);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("mcpServers[0].headerValue"), std::string::npos);
}

TEST(ToolSettings, ASecretWithoutAKeyIsRefused) {
  auto refused = merge_agent_settings("{}", kShop, nullptr);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kInvalidRequest);
  EXPECT_NE(refused.error().message.find("mcpServers[0].headerValue"), std::string::npos);
  // Without a secret no key is needed.
  EXPECT_TRUE(
      merge_agent_settings(
          "{}", R"({"mcpServers":[{"name":"a","url":"https://x.example/mcp","allowedTools":[]}]})")
          .ok());
}

TEST(ToolSettings, WebSearchIsReadWithItsDefaults) {
  Sealing s;
  auto stored = merge_agent_settings(
      "{}", R"({"webSearch":{"enabled":true,"url":"https://searx.example.org"}})", &s.sealer);
  ASSERT_TRUE(stored.ok());
  const WebSearchSetting web = parse_agent_settings(*stored).tools.web_search;
  EXPECT_TRUE(web.enabled);
  EXPECT_EQ(web.provider, "searxng");
  EXPECT_EQ(web.max_results, 3);
  EXPECT_TRUE(web.fetch_pages);

  auto brave = merge_agent_settings(
      "{}", R"({"webSearch":{"enabled":true,"provider":"brave","apiKey":"tok"}})", &s.sealer);
  ASSERT_TRUE(brave.ok()) << brave.error().message;
  EXPECT_EQ(brave->find("tok\""), std::string::npos);
  EXPECT_NE(redact_agent_settings(*brave).find(R"("apiKey":"********")"), std::string::npos);
  auto key = s.box.open(parse_agent_settings(*brave).tools.web_search.api_key_sealed, "agt_1");
  ASSERT_TRUE(key.ok());
  EXPECT_EQ(*key, "tok");
}

TEST(ToolSettings, EntriesThatBreakTheRulesAreRefusedNamingTheField) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"mcpServers":{}})", "'mcpServers' must be an array"},
      {R"({"mcpServers":[{"name":"","url":"https://x.example","allowedTools":[]}]})",
       "mcpServers[0].name"},
      {R"({"mcpServers":[{"name":"a","url":"https://x.example","allowedTools":["bad name"]}]})",
       "mcpServers[0].allowedTools[0]"},
      {R"({"mcpServers":[{"name":"a","url":"https://x.example","allowedTools":[],"headerName":"X-Key"}]})",
       "mcpServers[0].headerName"},
      {R"({"mcpServers":[{"name":"a","url":"https://x.example","allowedTools":[],"extra":1}]})",
       "unknown member 'extra'"},
      {R"({"webSearch":{"enabled":true,"provider":"brave"}})", "webSearch.apiKey"},
      {R"({"webSearch":{"enabled":"yes"}})", "webSearch.enabled"},
  };
  for (const auto& [settings, words] : cases) {
    auto r = merge_agent_settings("{}", settings);
    ASSERT_FALSE(r.ok()) << settings;
    EXPECT_NE(r.error().message.find(words), std::string::npos)
        << settings << ": " << r.error().message;
  }
}

}  // namespace
}  // namespace parley
