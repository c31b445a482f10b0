// GET /api/v1/openapi.json: the OpenAPI document as built, served without a key.
#include "chat_support.h"

namespace parley::e2e {
namespace {

TEST(OpenApi, TheDocumentIsServedWithoutAKey) {
  Server s(unlimited());
  auto r = s.get("/api/v1/openapi.json", "");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.header("content-type").rfind("application/json", 0), 0u) << r.header("content-type");
  EXPECT_EQ(r.header("x-ratelimit-limit"), "");
  auto doc = r.json();
  EXPECT_EQ(doc["openapi"], "3.1.0");
  const Json& chat = doc["paths"]["/api/v1/agents/{agentId}/chat"]["post"];
  EXPECT_EQ(chat["operationId"], "chatWithAgent");
  EXPECT_TRUE(chat["responses"].contains("429"));
  EXPECT_TRUE(doc["components"]["schemas"].contains("Error"));
  // Every operation has an operationId, and no two share one.
  std::set<std::string> ids;
  size_t operations = 0;
  for (const auto& [path, item] : doc["paths"].items()) {
    for (const auto& [method, op] : item.items()) {
      if (!op.is_object() || !op.contains("responses")) continue;
      ++operations;
      ASSERT_TRUE(op.contains("operationId")) << method << " " << path;
      ids.insert(op["operationId"].get<std::string>());
    }
  }
  EXPECT_GT(operations, 40u);
  EXPECT_EQ(ids.size(), operations);
}

}  // namespace
}  // namespace parley::e2e
