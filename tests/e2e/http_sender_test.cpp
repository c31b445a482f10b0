// The one outbound client (net/http_sender.h) against a real loopback server: a pinned call with
// its method, headers and body; the response body kept up to the cap; a streamed body and a call
// stopped part-way; and the guarded sender refusing a host that resolves to a private address
// before anything is sent.
#include "net/http_sender.h"

#include <gtest/gtest.h>

#include "fake_llm_server.h"

namespace parley::e2e {
namespace {

class OneAnswerResolver final : public Resolver {
 public:
  explicit OneAnswerResolver(std::string address) : address_(std::move(address)) {}
  Result<std::vector<IpAddress>> resolve(const std::string&) override {
    return std::vector<IpAddress>{*parse_ip(address_)};
  }

 private:
  std::string address_;
};

class HttpSenderTest : public ::testing::Test {
 protected:
  uint16_t port() const {
    std::string base = server_.base_url();
    return static_cast<uint16_t>(std::stoi(base.substr(base.rfind(':') + 1)));
  }
  // A call to a name that resolves nowhere (.invalid): only the pin reaches the server.
  SendRequest call(const std::string& path) {
    SendRequest r;
    r.url = "http://api.invalid:" + std::to_string(port()) + path;
    r.allow_http = true;
    r.connect_timeout_ms = 5000;
    r.timeout_ms = 5000;
    return r;
  }
  PinnedTarget loopback() { return {"api.invalid", port(), *parse_ip("127.0.0.1")}; }

  FakeLlmServer server_;
};

TEST_F(HttpSenderTest, APinnedCallSendsItsMethodHeadersAndBodyAndKeepsTheBodyUpToTheCap) {
  server_.script({{200, "application/json", {"0123456789"}}});
  SendRequest r = call("/orders/A1");
  r.method = "PUT";
  r.headers = {{"X-Api-Key", "k-123"}};
  r.body = R"({"note":"hi"})";
  r.max_response_bytes = 4;
  PinnedTarget target = loopback();
  SendOutcome out = send_to(r, &target);
  EXPECT_EQ(out.failure, SendFailure::kNone);
  EXPECT_EQ(out.status, 200);
  EXPECT_EQ(out.body, "0123");
  EXPECT_TRUE(out.truncated);
  auto got = server_.requests();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].method, "PUT");
  EXPECT_EQ(got[0].path, "/orders/A1");
  EXPECT_EQ(got[0].headers["host"], "api.invalid:" + std::to_string(port()));
  EXPECT_EQ(got[0].headers["x-api-key"], "k-123");
  EXPECT_EQ(got[0].body, R"({"note":"hi"})");
}

TEST_F(HttpSenderTest, ABodyUnderTheCapIsWholeAndWithoutACapDropped) {
  server_.script({{404, "application/json", {"missing"}}});
  SendRequest r = call("/x");
  r.method = "GET";
  r.max_response_bytes = 64;
  PinnedTarget target = loopback();
  SendOutcome kept = send_to(r, &target);
  EXPECT_EQ(kept.status, 404);
  EXPECT_EQ(kept.error, "HTTP 404");
  EXPECT_EQ(kept.body, "missing");
  EXPECT_FALSE(kept.truncated);
  r.max_response_bytes = 0;
  SendOutcome dropped = send_to(r, &target);
  EXPECT_EQ(dropped.status, 404);
  EXPECT_EQ(dropped.body, "");
  EXPECT_EQ(server_.requests()[0].method, "GET");
}

TEST_F(HttpSenderTest, AStreamedBodyArrivesPieceByPieceUntilTheReaderStops) {
  // The second piece comes only after a long pause, which the stop cuts short.
  server_.script({{200, "text/event-stream", {"first", "second"}, 60000}});
  SendRequest r = call("/stream");
  std::string seen;
  r.on_body = [&](std::string_view piece) {
    seen += piece;
    return false;
  };
  PinnedTarget target = loopback();
  SendOutcome out = send_to(r, &target);
  EXPECT_EQ(out.failure, SendFailure::kStopped);
  EXPECT_FALSE(out.status.has_value());
  EXPECT_EQ(seen, "first");
}

TEST_F(HttpSenderTest, TheBodyOfAnErrorStatusIsNotStreamed) {
  server_.script({{500, "application/json", {R"({"error":"boom"})"}}});
  SendRequest r = call("/stream");
  bool called = false;
  r.on_body = [&](std::string_view) { return called = true; };
  PinnedTarget target = loopback();
  SendOutcome out = send_to(r, &target);
  EXPECT_EQ(out.status, 500);
  EXPECT_FALSE(called);
}

TEST_F(HttpSenderTest, TheGuardedSenderRefusesBeforeSendingAnything) {
  OneAnswerResolver resolver("10.0.0.7");
  CurlSender sender(resolver, {});
  SendRequest r;
  r.url = "https://hooks.example.com:" + std::to_string(port()) + "/x";
  SendOutcome refused = sender.send(r);
  EXPECT_EQ(refused.failure, SendFailure::kAddress);
  EXPECT_EQ(refused.error, "refused: hooks.example.com resolves to non-public address 10.0.0.7");
  EXPECT_FALSE(refused.status.has_value());
  r.url = "http://hooks.example.com/x";
  EXPECT_EQ(sender.send(r).failure, SendFailure::kUrl);
  EXPECT_TRUE(server_.requests().empty());
}

}  // namespace
}  // namespace parley::e2e
