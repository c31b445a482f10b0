#include "engine/completion_stream.h"

#include <gtest/gtest.h>

#include "core/json.h"

namespace parley {
namespace {

std::vector<std::string> events_of(const std::vector<std::string>& pieces) {
  std::vector<std::string> events;
  SseParser parser([&](std::string_view data) {
    events.emplace_back(data);
    return ok_result();
  });
  for (const auto& p : pieces) EXPECT_TRUE(parser.feed(p).ok());
  EXPECT_TRUE(parser.finish().ok());
  return events;
}

TEST(SseParser, SplitsEventsAtBlankLines) {
  auto events = events_of({"data: a\n\ndata: b\n\n"});
  EXPECT_EQ(events, (std::vector<std::string>{"a", "b"}));
}

TEST(SseParser, JoinsEventsSplitAtEveryByte) {
  std::string body = "data: {\"x\":1}\r\n\r\n: keep-alive\n\ndata:[DONE]\n\n";
  std::vector<std::string> pieces;
  for (char c : body) pieces.emplace_back(1, c);
  auto events = events_of(pieces);
  EXPECT_EQ(events, (std::vector<std::string>{"{\"x\":1}", "[DONE]"}));
}

TEST(SseParser, JoinsMultiLineDataAndIgnoresOtherFields) {
  auto events = events_of({"event: message\nid: 7\ndata: one\ndata: two\n\n"});
  EXPECT_EQ(events, (std::vector<std::string>{"one\ntwo"}));
}

TEST(SseParser, DeliversALastEventWithoutItsBlankLine) {
  auto events = events_of({"data: last"});
  EXPECT_EQ(events, (std::vector<std::string>{"last"}));
}

TEST(SseParser, StopsOnAHandlerError) {
  SseParser parser([](std::string_view) -> Result<void> { return ApiError::internal("no"); });
  EXPECT_FALSE(parser.feed("data: x\n\n").ok());
}

TEST(CompletionAssembler, HandsOnTextDeltasAndKeepsTheWhole) {
  std::string seen;
  CompletionAssembler a([&](std::string_view piece) {
    seen += "[" + std::string(piece) + "]";
    return true;
  });
  ASSERT_TRUE(
      a.apply(R"({"choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]})").ok());
  ASSERT_TRUE(a.apply(R"({"choices":[{"index":0,"delta":{"content":"lo"}}]})").ok());
  ASSERT_TRUE(a.apply(R"({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})").ok());
  ASSERT_TRUE(a.apply("[DONE]").ok());
  EXPECT_TRUE(a.done());
  EXPECT_EQ(seen, "[Hel][lo]");
  Completion c = a.take();
  EXPECT_EQ(c.text, "Hello");
  EXPECT_EQ(c.finish_reason, "stop");
  EXPECT_TRUE(c.tool_calls.empty());
}

TEST(CompletionAssembler, AssemblesToolCallsFromFragments) {
  CompletionAssembler a([](std::string_view) { return true; });
  ASSERT_TRUE(
      a.apply(
           R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"show_","arguments":""}}]}}]})")
          .ok());
  ASSERT_TRUE(
      a.apply(
           R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"buttons","arguments":"{\"q\":"}}]}}]})")
          .ok());
  ASSERT_TRUE(
      a.apply(
           R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_2","function":{"name":"b","arguments":"{}"}}]}}]})")
          .ok());
  ASSERT_TRUE(
      a.apply(
           R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"x\"}"}}]}}]})")
          .ok());
  ASSERT_TRUE(a.apply(R"({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]})").ok());
  Completion c = a.take();
  ASSERT_EQ(c.tool_calls.size(), 2u);
  EXPECT_EQ(c.tool_calls[0].id, "call_1");
  EXPECT_EQ(c.tool_calls[0].name, "show_buttons");
  EXPECT_EQ(c.tool_calls[0].arguments, R"({"q":"x"})");
  EXPECT_EQ(c.tool_calls[1].id, "call_2");
  EXPECT_EQ(c.tool_calls[1].name, "b");
  EXPECT_EQ(c.finish_reason, "tool_calls");
}

TEST(CompletionAssembler, RefusesMalformedChunksWithASafeMessage) {
  CompletionAssembler a([](std::string_view) { return true; });
  auto r = a.apply("{not json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInternal);
  CompletionAssembler b([](std::string_view) { return true; });
  auto e = b.apply(R"({"error":{"message":"key sk-secret is invalid"}})");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message.find("sk-secret"), std::string::npos);
}

TEST(CompletionAssembler, RemembersWhenTheListenerLeft) {
  CompletionAssembler a([](std::string_view) { return false; });
  ASSERT_TRUE(a.apply(R"({"choices":[{"delta":{"content":"x"}}]})").ok());
  EXPECT_TRUE(a.cancelled());
}


TEST(SseParser, RefusesAnEventWhoseDataLinesNeverEnd) {
  SseParser parser([](std::string_view) { return ok_result(); });
  std::string line = "data: " + std::string(1000, 'x') + "\n";
  Result<void> fed = ok_result();
  for (int i = 0; i < 2000 && fed.ok(); ++i) fed = parser.feed(line);
  ASSERT_FALSE(fed.ok());
  EXPECT_NE(fed.error().message.find("event too long"), std::string::npos);
}

TEST(SseParser, RefusesALineThatNeverEnds) {
  SseParser parser([](std::string_view) { return ok_result(); });
  Result<void> fed = parser.feed("data: ");
  for (int i = 0; i < 2000 && fed.ok(); ++i) fed = parser.feed(std::string(1000, '['));
  ASSERT_FALSE(fed.ok());
  EXPECT_NE(fed.error().message.find("line too long"), std::string::npos);
}

TEST(CompletionAssembler, RefusesAChunkNestedDeeperThanTheLimitWithoutRecursingIntoIt) {
  CompletionAssembler a([](std::string_view) { return true; });
  std::string deep = std::string(500'000, '[') + std::string(500'000, ']');
  auto r = a.apply(deep);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInternal);
  EXPECT_NE(r.error().message.find("not a JSON object"), std::string::npos);
  // 64 levels are still a chunk's business (and this one is simply not a completion chunk).
  std::string ok = std::string(kMaxJsonDepth - 1, '[') + std::string(kMaxJsonDepth - 1, ']');
  EXPECT_TRUE(a.apply(R"({"x":)" + ok + "}").ok());
}

TEST(CompletionAssembler, RefusesAReplyPastItsSizeLimit) {
  CompletionAssembler a([](std::string_view) { return true; });
  std::string piece(100'000, 'a');
  std::string chunk = R"({"choices":[{"index":0,"delta":{"content":")" + piece + R"("}}]})";
  Result<void> r = ok_result();
  int applied = 0;
  for (; applied < 100 && r.ok(); ++applied) r = a.apply(chunk);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("reply too long"), std::string::npos);
  EXPECT_LE(applied, 43);
}

}  // namespace
}  // namespace parley
