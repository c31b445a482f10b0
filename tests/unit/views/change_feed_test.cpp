// The change feed: a stream sends its first look at once and again only when the look changes,
// looks only when the change counter moved (or the idle look is due), passes its cursor to the look,
// ends with an `error` event when the look fails, holds owners to their shares and the process to
// its cap, gives a share back when a stream ends, and ends every stream on stop.
#include "views/change_feed.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

namespace parley {
namespace {

// A client connection that records what it was sent.
class Recorder final : public Responder {
 public:
  bool claim() override { return !claimed_.exchange(true); }
  void send(Response r) override { record(std::to_string(r.status)); }
  void begin(Response head) override { record("begin " + std::to_string(head.status) + " " + std::string(head.content_type)); }
  bool write(std::string_view piece) override {
    record(std::string(piece));
    return !gone_;
  }
  bool behind(std::function<void()>) override { return false; }
  void end() override { record("end"); }
  void abort() override { record("abort"); }
  void expire_at(std::chrono::steady_clock::time_point, std::function<Response()>) override {}

  std::vector<std::string> seen() {
    std::lock_guard lock(mu_);
    return seen_;
  }
  // Waits up to 2 s for `n` records.
  bool wait_for(size_t n) {
    for (int i = 0; i < 200; ++i) {
      if (seen().size() >= n) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }
  std::atomic<bool> gone_{false};

 private:
  void record(std::string s) {
    std::lock_guard lock(mu_);
    seen_.push_back(std::move(s));
  }
  std::atomic<bool> claimed_{false};
  std::mutex mu_;
  std::vector<std::string> seen_;
};

ChangeFeed::Options fast() {
  ChangeFeed::Options o;
  o.interval_ms = 10;
  o.idle_look_ms = 10;
  o.max_streams = 3;
  return o;
}

std::shared_ptr<Recorder> open(Response r) {
  auto out = std::make_shared<Recorder>();
  EXPECT_TRUE(static_cast<bool>(r.deferred)) << r.status << " " << r.body;
  if (r.deferred) r.deferred(out);
  return out;
}

TEST(ChangeFeed, SendsTheFirstLookAndThenOnlyChanges) {
  ChangeFeed feed(fast());
  std::atomic<int> version{1};
  auto out = open(feed.stream("inbox", ChangeFeed::whole([&]() -> Result<std::string> { return "{\"v\":" + std::to_string(version) + "}"; }),
                              {{"member:m1", 2}}));
  ASSERT_TRUE(out->wait_for(2));
  std::this_thread::sleep_for(std::chrono::milliseconds(60));  // several looks, nothing new
  EXPECT_EQ(out->seen(), (std::vector<std::string>{"begin 200 text/event-stream", "event: inbox\ndata: {\"v\":1}\n\n"}));
  version = 2;
  ASSERT_TRUE(out->wait_for(3));
  EXPECT_EQ(out->seen()[2], "event: inbox\ndata: {\"v\":2}\n\n");
  EXPECT_EQ(feed.open_streams(), 1u);
}

TEST(ChangeFeed, AFailedLookEndsTheStreamWithAnErrorEvent) {
  ChangeFeed feed(fast());
  std::atomic<bool> fail{false};
  auto out = open(feed.stream("conversation", ChangeFeed::whole([&]() -> Result<std::string> {
    if (fail) return ApiError::not_found("No conversation 'c'.");
    return std::string("{}");
  }), {}));
  ASSERT_TRUE(out->wait_for(2));
  fail = true;
  ASSERT_TRUE(out->wait_for(4));
  auto seen = out->seen();
  EXPECT_EQ(seen[2], "event: error\ndata: {\"error\":{\"code\":\"not_found\",\"message\":\"No conversation 'c'.\"}}\n\n");
  EXPECT_EQ(seen[3], "end");
  for (int i = 0; i < 100 && feed.open_streams() > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(feed.open_streams(), 0u);
  // A look failing at once is a plain error answer.
  Response missing = feed.stream("conversation", ChangeFeed::whole([]() -> Result<std::string> { return ApiError::not_found("gone"); }), {});
  EXPECT_EQ(missing.status, 404);
  EXPECT_FALSE(static_cast<bool>(missing.deferred));
}

TEST(ChangeFeed, SharesAndTheCapAreHeldAndGivenBack) {
  ChangeFeed feed(fast());  // at most 3 in all
  auto look = ChangeFeed::whole([]() -> Result<std::string> { return std::string("{}"); });
  auto a = open(feed.stream("e", look, {{"conversation:c1", 2}}));
  auto b = open(feed.stream("e", look, {{"conversation:c1", 2}}));
  Response third = feed.stream("e", look, {{"conversation:c1", 2}});
  EXPECT_EQ(third.status, 429);
  EXPECT_NE(third.body.find("rate_limited"), std::string::npos);
  EXPECT_NE(third.body.find("this conversation"), std::string::npos);
  auto c = open(feed.stream("e", look, {{"conversation:c2", 2}}));
  Response over = feed.stream("e", look, {{"conversation:c3", 2}});
  EXPECT_EQ(over.status, 503);
  // Stopping ends every stream and refuses new ones.
  feed.stop();
  for (auto& out : {a, b, c}) EXPECT_EQ(out->seen().back(), "end");
  EXPECT_EQ(feed.open_streams(), 0u);
  EXPECT_EQ(feed.stream("e", look, {}).status, 503);  // stopped
}

// Anonymous streams once could take every stream of the process and starve the team's inbox.
TEST(ChangeFeed, AnonymousStreamsLeaveTheMembersReserve) {
  ChangeFeed::Options options = fast();
  options.max_streams = 4;
  options.reserved_for_members = 2;
  ChangeFeed feed(options);
  auto look = ChangeFeed::whole([]() -> Result<std::string> { return std::string("{}"); });
  EXPECT_EQ(feed.visitors_share().max, 2u);
  auto v1 = open(feed.stream("conversation", look, {{"address:a", 20}, feed.visitors_share()}));
  auto v2 = open(feed.stream("conversation", look, {{"address:b", 20}, feed.visitors_share()}));
  Response v3 = feed.stream("conversation", look, {{"address:c", 20}, feed.visitors_share()});
  EXPECT_EQ(v3.status, 503);
  EXPECT_NE(v3.body.find("anonymous live streams"), std::string::npos);
  auto m1 = open(feed.stream("inbox", look, {{"member:m1", 5}}));
  auto m2 = open(feed.stream("inbox", look, {{"member:m2", 5}}));
  EXPECT_EQ(feed.open_streams(), 4u);
}

TEST(ChangeFeed, AClientThatLeftIsFoundByTheHeartbeatAndItsShareComesBack) {
  ChangeFeed::Options o = fast();
  o.heartbeat_ms = 20;  // a comment line after 20 ms of silence
  o.max_streams = 10;
  ChangeFeed feed(o);
  auto look = ChangeFeed::whole([]() -> Result<std::string> { return std::string("{}"); });
  auto a = open(feed.stream("e", look, {{"member:m", 1}}));
  EXPECT_EQ(feed.stream("e", look, {{"member:m", 1}}).status, 429);
  ASSERT_TRUE(a->wait_for(3));
  EXPECT_EQ(a->seen()[2], ": keep-alive\n\n");
  a->gone_ = true;
  for (int i = 0; i < 200 && feed.open_streams() > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(feed.open_streams(), 0u);
  auto again = open(feed.stream("e", look, {{"member:m", 1}}));
  EXPECT_TRUE(again->wait_for(2));
}

TEST(ChangeFeed, LooksOnlyWhenTheChangeCounterMovesAndKeepsTheStreamsCursor) {
  std::atomic<uint64_t> epoch{1};
  ChangeFeed::Options o = fast();
  o.idle_look_ms = 60'000;
  o.changes = [&] { return epoch.load(); };
  ChangeFeed feed(o);
  std::atomic<int> looks{0};
  std::atomic<int> messages{1};
  std::mutex mu;
  std::vector<std::string> cursors;
  // A look that sends the messages after its cursor, as the widget's stream does.
  auto out = open(feed.stream(
      "conversation",
      [&](std::string& cursor) -> Result<std::optional<std::string>> {
        ++looks;
        {
          std::lock_guard lock(mu);
          cursors.push_back(cursor);
        }
        int after = cursor.empty() ? 0 : std::stoi(cursor);
        if (messages == after) return std::optional<std::string>();
        std::string sent;
        for (int m = after + 1; m <= messages; ++m) sent += "m" + std::to_string(m);
        cursor = std::to_string(messages.load());
        return std::optional<std::string>(sent);
      },
      {}));
  ASSERT_TRUE(out->wait_for(2));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // six ticks of the counter, no move
  EXPECT_EQ(looks, 1);
  messages = 3;
  epoch = 2;
  ASSERT_TRUE(out->wait_for(3));
  EXPECT_EQ(out->seen()[2], "event: conversation\ndata: m2m3\n\n");  // what changed, not all
  EXPECT_EQ(looks, 2);
  std::lock_guard lock(mu);
  EXPECT_EQ(cursors, (std::vector<std::string>{"", "1"}));
}

TEST(ChangeFeed, AChangeMadeWhileAStreamOpensIsLookedForOnceItJoins) {
  std::atomic<uint64_t> epoch{1};
  ChangeFeed::Options o = fast();
  o.idle_look_ms = 60'000;
  o.changes = [&] { return epoch.load(); };
  ChangeFeed feed(o);
  std::atomic<int> looks{0};
  Response r = feed.stream(
      "conversation",
      [&](std::string& cursor) -> Result<std::optional<std::string>> {
        if (++looks == 1) {
          epoch = 2;  // a takeover committed just after the first look read the conversation
          cursor = "before";
          return std::optional<std::string>("before");
        }
        if (cursor == "after") return std::optional<std::string>();
        cursor = "after";
        return std::optional<std::string>("after");
      },
      {});
  // The feed's thread makes its pass for epoch 2 before the stream has joined.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto out = open(std::move(r));
  ASSERT_TRUE(out->wait_for(3));
  EXPECT_EQ(out->seen()[2], "event: conversation\ndata: after\n\n");
}

}  // namespace
}  // namespace parley
