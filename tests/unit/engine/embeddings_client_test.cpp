// The embeddings call's request and the validation of the provider's answer: one finite vector
// per input, of one dimension, whatever the order of the items; anything else is refused
// without quoting the body.
#include "engine/embeddings_client.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

TEST(EmbeddingsClient, UrlAndBody) {
  EXPECT_EQ(embeddings_url("http://127.0.0.1:8000"), "http://127.0.0.1:8000/v1/embeddings");
  EXPECT_EQ(embeddings_url("https://api.example.com/v1/"), "https://api.example.com/v1/embeddings");
  EmbeddingsRequest r;
  r.model = "text-embedding-3-small";
  r.inputs = {"first \"chunk\"", "second"};
  EXPECT_EQ(embeddings_request_body(r),
            R"({"model":"text-embedding-3-small","input":["first \"chunk\"","second"]})");
}

TEST(EmbeddingsClient, ParsesVectorsInTheOrderOfTheirIndex) {
  auto v = parse_embeddings(
      R"({"object":"list","data":[{"object":"embedding","index":1,"embedding":[0.5,-1]},)"
      R"({"object":"embedding","index":0,"embedding":[1e-3,2]}],"model":"m","usage":{}})",
      2);
  ASSERT_TRUE(v.ok()) << v.error().message;
  ASSERT_EQ(v->size(), 2u);
  EXPECT_EQ((*v)[0], (std::vector<float>{1e-3f, 2}));
  EXPECT_EQ((*v)[1], (std::vector<float>{0.5f, -1}));
  // Without indexes, the order of the items.
  auto plain = parse_embeddings(R"({"data":[{"embedding":[1]},{"embedding":[2]}]})", 2);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ((*plain)[1], (std::vector<float>{2}));
}

TEST(EmbeddingsClient, RefusesMalformedAnswers) {
  const char* bad[] = {
      "",
      "[]",
      R"({"data":{}})",
      R"({"data":[{"index":0,"embedding":[1,2]}]})",                                // one of two
      R"({"data":[{"index":0,"embedding":[1,2]},{"index":0,"embedding":[1,2]}]})",  // repeated
      R"({"data":[{"index":0,"embedding":[1,2]},{"index":2,"embedding":[1,2]}]})",  // range
      R"({"data":[{"index":-1,"embedding":[1,2]},{"index":1,"embedding":[1,2]}]})",
      R"({"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[1,2,3]}]})",  // dims
      R"({"data":[{"index":0,"embedding":[]},{"index":1,"embedding":[]}]})",
      R"({"data":[{"index":0,"embedding":[1,"2"]},{"index":1,"embedding":[1,2]}]})",
      R"({"data":[{"index":0,"embedding":[1,1e300]},{"index":1,"embedding":[1,2]}]})",  // float
      R"({"data":[{"index":0,"embedding":[1,NaN]},{"index":1,"embedding":[1,2]}]})",
      R"({"data":[{"index":0},{"index":1,"embedding":[1,2]}]})",
      R"({"data":[7,{"index":1,"embedding":[1,2]}]})",
  };
  for (const char* body : bad) {
    auto v = parse_embeddings(body, 2);
    EXPECT_FALSE(v.ok()) << body;
  }
}

TEST(EmbeddingsClient, RefusesTooManyDimensionsAndDeepNesting) {
  std::string big = R"({"data":[{"index":0,"embedding":[)";
  for (size_t i = 0; i <= kMaxEmbeddingDimensions; ++i) big += (i ? ",1" : "1");
  big += "]}]}";
  EXPECT_FALSE(parse_embeddings(big, 1).ok());
  std::string deep = R"({"data":)" + std::string(100'000, '[') + std::string(100'000, ']') + "}";
  auto v = parse_embeddings(deep, 1);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.error().message.find("[[["), std::string::npos);
}

TEST(EmbeddingsClient, AnUnconfiguredOrTimedOutCallFailsBeforeSending) {
  EmbeddingsClient client;
  EmbeddingsRequest r;
  r.inputs = {"x"};
  EXPECT_FALSE(client.embed(r).ok());
  r.base_url = "http://127.0.0.1:9";
  r.model = "m";
  r.timeout_ms = 0;
  auto timed_out = client.embed(r);
  ASSERT_FALSE(timed_out.ok());
  EXPECT_EQ(timed_out.error().code, ErrorCode::kTimeout);
  r.inputs.clear();
  r.timeout_ms = 1000;
  auto none = client.embed(r);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

}  // namespace
}  // namespace parley
