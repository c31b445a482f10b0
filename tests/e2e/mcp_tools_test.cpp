// POST /mcp, each MCP tool: its structured result (the REST endpoint's JSON), the chat turn
// ask_agent makes, and tool errors naming the argument. One server for the suite; each test makes
// its own account.
#include "mcp_support.h"

namespace parley::e2e {
namespace {

class McpTools : public McpTest {};

TEST_F(McpTools, AToolOutsideTheKeysScopesIsAToolError) {
  auto account = s().create_account();
  auto agent = s().create_agent(account);
  auto key = s().create_key(account, "agents:read");
  auto refused = call(key, "ask_agent", {{"agentId", agent}, {"message", "hi"}});
  auto text = error_text(refused);
  EXPECT_NE(text.find("'chat' scope"), std::string::npos) << text;
  EXPECT_EQ(refused["_meta"]["parley/error"]["code"], "insufficient_scope");
}

TEST_F(McpTools, ListAgentsGivesTheAccountsAgents) {
  auto c = chat_setup(s());
  s().create_agent(s().create_account());  // another account's
  auto data = structured(call(c.key, "list_agents", Json::object()))["data"];
  ASSERT_EQ(data.size(), 1u);
  EXPECT_EQ(data[0]["id"], c.agent);
  EXPECT_EQ(data[0]["status"], "untrained");
  EXPECT_NE(error_text(call(c.key, "list_agents", {{"extra", 1}})).find("'extra'"),
            std::string::npos);
}

TEST_F(McpTools, AskAgentIsAChatTurnThatContinuesItsConversation) {
  auto c = chat_setup(s(), R"({"showSources": true})");
  add_text(c, "Returns policy",
           "Returns are accepted within 30 days of delivery. Refunds go back to the original "
           "payment method.");
  auto first =
      structured(call(c.key, "ask_agent",
                      {{"agentId", c.agent}, {"message", "How many days do I have for returns?"}}));
  EXPECT_NE(first["reply"].get<std::string>().find("30 days"), std::string::npos) << first.dump();
  ASSERT_EQ(first["sources"].size(), 1u) << first.dump();
  EXPECT_EQ(first["sources"][0]["title"], "Returns policy");
  EXPECT_TRUE(first["sources"][0]["url"].is_null());  // a text source has no address
  auto conversation = first["conversationId"].get<std::string>();
  auto second = structured(
      call(c.key, "ask_agent",
           {{"agentId", c.agent}, {"message", "And refunds?"}, {"conversationId", conversation}}));
  EXPECT_EQ(second["conversationId"], conversation);

  auto got =
      structured(call(c.key, "get_conversation", {{"conversationId", conversation}}))["data"];
  EXPECT_EQ(got["channel"], "api");
  ASSERT_EQ(got["messages"].size(), 4u);
  EXPECT_EQ(got["messages"][0]["content"], "How many days do I have for returns?");
  EXPECT_EQ(got["messages"][1]["role"], "assistant");

  auto page = structured(call(c.key, "list_conversations", {{"agentId", c.agent}, {"limit", 10}}));
  ASSERT_EQ(page["data"].size(), 1u);
  EXPECT_EQ(page["data"][0]["id"], conversation);
  EXPECT_EQ(page["hasMore"], false);
  EXPECT_TRUE(page["nextCursor"].is_null());
}

TEST_F(McpTools, AskAgentErrorsAreToolErrorsNamingTheField) {
  auto c = chat_setup(s());
  EXPECT_NE(error_text(call(c.key, "ask_agent", {{"agentId", c.agent}})).find("'message'"),
            std::string::npos);
  EXPECT_NE(error_text(call(c.key, "ask_agent", {{"agentId", c.agent}, {"message", 5}}))
                .find("'message'"),
            std::string::npos);
  EXPECT_NE(error_text(call(c.key, "ask_agent", {{"agentId", c.agent}, {"message", "  "}}))
                .find("'message'"),
            std::string::npos);
  auto theirs = s().create_agent(s().create_account());
  auto refused = call(c.key, "ask_agent", {{"agentId", theirs}, {"message", "hi"}});
  auto text = error_text(refused);
  EXPECT_NE(text.find("No agent " + theirs), std::string::npos) << text;
  EXPECT_EQ(refused["_meta"]["parley/error"], (Json{{"code", "not_found"}}));
  text = error_text(call(c.key, "get_conversation", {{"conversationId", "cnv_nosuch"}}));
  EXPECT_NE(text.find("No conversation cnv_nosuch"), std::string::npos) << text;
  // Nothing was stored for the refused turns.
  EXPECT_EQ(agent_counts(s(), c)["conversations"], 0);
}

TEST_F(McpTools, SearchKnowledgeGivesPassagesWithTitleAndAddress) {
  auto c = chat_setup(s());
  add_text(c, "Shipping",
           "We ship to forty countries. Parcels abroad arrive within ten working days.");
  auto data =
      structured(call(c.key, "search_knowledge",
                      {{"agentId", c.agent}, {"query", "parcels abroad"}, {"limit", 3}}))["data"];
  ASSERT_GE(data.size(), 1u);
  EXPECT_EQ(data[0]["title"], "Shipping");
  EXPECT_TRUE(data[0]["url"].is_null());  // a text source has no address
  EXPECT_EQ(data[0]["sourceType"], "text");
  EXPECT_NE(data[0]["text"].get<std::string>().find("ten working days"), std::string::npos);
  // No turn: nothing is stored and no message counted.
  EXPECT_EQ(agent_counts(s(), c)["conversations"], 0);

  EXPECT_NE(error_text(call(c.key, "search_knowledge",
                            {{"agentId", c.agent}, {"query", "x"}, {"limit", 21}}))
                .find("'limit'"),
            std::string::npos);
  EXPECT_NE(error_text(call(c.key, "search_knowledge", {{"agentId", c.agent}})).find("'query'"),
            std::string::npos);
}

TEST_F(McpTools, ContactsAreUpsertedAndFound) {
  auto c = chat_setup(s());
  Json args = {{"agentId", c.agent}, {"email", "Ada@Example.com"}, {"name", "Ada"}};
  auto created = structured(call(c.key, "upsert_contact", args));
  EXPECT_EQ(created["result"], "created");
  EXPECT_EQ(created["data"]["email"], "ada@example.com");
  args["external_id"] = "u-1";
  auto updated = structured(call(c.key, "upsert_contact", args));
  EXPECT_EQ(updated["result"], "updated");
  EXPECT_EQ(updated["data"]["id"], created["data"]["id"]);

  auto found =
      structured(call(c.key, "find_contact", {{"agentId", c.agent}, {"email", "ADA@example.com"}}));
  EXPECT_EQ(found["data"]["id"], created["data"]["id"]);
  EXPECT_EQ(found["data"]["externalId"], "u-1");
  auto none =
      structured(call(c.key, "find_contact", {{"agentId", c.agent}, {"external_id", "nobody"}}));
  EXPECT_TRUE(none["data"].is_null());

  EXPECT_NE(error_text(call(c.key, "find_contact", {{"agentId", c.agent}}))
                .find("'email' or 'external_id'"),
            std::string::npos);
  EXPECT_NE(
      error_text(call(c.key, "upsert_contact", {{"agentId", c.agent}, {"email", "not-an-email"}}))
          .find("'email'"),
      std::string::npos);
  EXPECT_NE(error_text(call(c.key, "upsert_contact", {{"agentId", c.agent}, {"name", "No id"}}))
                .find("'external_id' or 'email'"),
            std::string::npos);
}

TEST_F(McpTools, LeadsArePagedAsTheRestListPagesThem) {
  auto c = chat_setup(s());
  auto page = structured(call(c.key, "list_leads", {{"agentId", c.agent}}));
  EXPECT_EQ(page["data"], Json::array());
  EXPECT_EQ(page["hasMore"], false);
  EXPECT_NE(
      error_text(call(c.key, "list_leads", {{"agentId", c.agent}, {"limit", 0}})).find("'limit'"),
      std::string::npos);
  EXPECT_NE(error_text(call(c.key, "list_leads", {{"agentId", c.agent}, {"cursor", "garbage"}}))
                .find("'cursor'"),
            std::string::npos);
  auto theirs = s().create_agent(s().create_account());
  EXPECT_NE(error_text(call(c.key, "list_leads", {{"agentId", theirs}})).find("No agent " + theirs),
            std::string::npos);
}

}  // namespace
}  // namespace parley::e2e
