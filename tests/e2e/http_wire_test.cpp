// HTTP/1.1 on the wire, spoken byte by byte over a raw socket: Expect: 100-continue, chunked
// request bodies, pipelining, requests split across many writes, HTTP/1.0 keep-alive, HEAD,
// the Date header, and the idle and read timeouts.
#include <chrono>
#include <thread>

#include "harness.h"
#include "raw_connection.h"

namespace parley::e2e {
namespace {

using namespace std::chrono_literals;

class HttpWire : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const Seed& seeded = seed("HttpWire", [](const Admin& a) {
      std::string account = a.create_account();
      std::string key = a.create_key(account);
      return Json{{"account", account}, {"key", key}, {"agent", a.create_agent(account)}};
    });
    server_ = new Server(unlimited(), {}, &seeded);
    account_ = new std::string(seeded.values["account"]);
    key_ = new std::string(seeded.values["key"]);
    agent_ = new std::string(seeded.values["agent"]);
  }
  static void TearDownTestSuite() {
    delete server_;
    delete account_;
    delete key_;
    delete agent_;
  }
  static std::string contacts_head(const std::string& extra) {
    return "POST /api/v1/agents/" + *agent_ + "/contacts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + *key_ +
           "\r\nContent-Type: application/json\r\n" + extra + "\r\n";
  }
  static Server* server_;
  static std::string* account_;
  static std::string* key_;
  static std::string* agent_;
};
Server* HttpWire::server_ = nullptr;
std::string* HttpWire::account_ = nullptr;
std::string* HttpWire::key_ = nullptr;
std::string* HttpWire::agent_ = nullptr;

TEST_F(HttpWire, ExpectContinueIsAnsweredBeforeTheBodyIsSent) {
  Connection c(server_->port());
  ASSERT_TRUE(c.connected());
  std::string body = R"({"email":"continue@example.com"})";
  c.send(contacts_head("Expect: 100-continue\r\nContent-Length: " + std::to_string(body.size()) + "\r\n"));
  std::string interim = c.read_until("\r\n\r\n");
  EXPECT_EQ(interim, "HTTP/1.1 100 Continue\r\n\r\n");
  c.send(body);
  std::string response = c.read_response();
  EXPECT_EQ(response.rfind("HTTP/1.1 201 Created\r\n", 0), 0u) << response;
  EXPECT_EQ(Json::parse(body_of(response))["data"]["email"], "continue@example.com");
}

TEST_F(HttpWire, ChunkedRequestBodyIsReassembled) {
  Connection c(server_->port());
  std::string part1 = R"({"email":"chun)", part2 = R"(ked@example.com"})";
  auto hex = [](size_t n) {
    char buf[16];
    snprintf(buf, sizeof buf, "%zx", n);
    return std::string(buf);
  };
  c.send(contacts_head("Transfer-Encoding: chunked\r\n") + hex(part1.size()) + "\r\n" + part1 + "\r\n");
  std::this_thread::sleep_for(50ms);
  c.send(hex(part2.size()) + ";ext=1\r\n" + part2 + "\r\n0\r\n\r\n");
  std::string response = c.read_response();
  ASSERT_EQ(response.rfind("HTTP/1.1 201", 0), 0u) << response;
  EXPECT_EQ(Json::parse(body_of(response))["data"]["email"], "chunked@example.com");
}

TEST_F(HttpWire, ChunkedBodyOverTheLimitIsPayloadTooLarge) {
  Connection c(server_->port());
  std::string chunk(512 * 1024, 'a');
  c.send(contacts_head("Transfer-Encoding: chunked\r\n"));
  for (int i = 0; i < 3; ++i) c.send("80000\r\n" + chunk + "\r\n");
  std::string response = c.read_response();
  EXPECT_EQ(response.rfind("HTTP/1.1 413", 0), 0u) << response.substr(0, 200);
  EXPECT_EQ(Json::parse(body_of(response))["error"]["code"], "payload_too_large");
  EXPECT_NE(response.find("\r\nConnection: close\r\n"), std::string::npos);
}

TEST_F(HttpWire, PipelinedRequestsAreAnsweredInOrder) {
  Connection c(server_->port());
  c.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /readyz HTTP/1.1\r\nHost: x\r\n\r\n"
         "GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
  std::vector<std::string> statuses, bodies;
  for (int i = 0; i < 4; ++i) {
    std::string r = c.read_response();
    statuses.push_back(r.substr(0, 12));
    bodies.push_back(body_of(r));
  }
  EXPECT_EQ(statuses, (std::vector<std::string>{"HTTP/1.1 200", "HTTP/1.1 200", "HTTP/1.1 404", "HTTP/1.1 200"}));
  EXPECT_EQ(Json::parse(bodies[0])["status"], "ok");
  EXPECT_EQ(Json::parse(bodies[1])["status"], "ready");
  EXPECT_EQ(Json::parse(bodies[2])["error"]["code"], "not_found");
  EXPECT_EQ(Json::parse(bodies[3])["status"], "ok");
}

TEST_F(HttpWire, RequestSentOneByteAtATimeIsAnswered) {
  Connection c(server_->port());
  std::string request = "GET /api/v1/agents/" + *agent_ + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + *key_ +
                        "\r\n\r\n";
  for (char ch : request) {
    c.send(std::string(1, ch));
    std::this_thread::sleep_for(1ms);
  }
  std::string response = c.read_response();
  ASSERT_EQ(response.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << response;
  EXPECT_EQ(Json::parse(body_of(response))["data"]["id"], *agent_);
}

TEST_F(HttpWire, Http10KeepsTheConnectionOnlyWhenAsked) {
  Connection kept(server_->port());
  kept.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
  std::string first = kept.read_response();
  EXPECT_EQ(first.rfind("HTTP/1.1 200", 0), 0u) << first;
  EXPECT_NE(first.find("\r\nConnection: keep-alive\r\n"), std::string::npos) << first;
  kept.send("GET /readyz HTTP/1.0\r\n\r\n");
  std::string second = kept.read_response();
  EXPECT_EQ(Json::parse(body_of(second))["status"], "ready");
  EXPECT_NE(second.find("\r\nConnection: close\r\n"), std::string::npos) << second;
  EXPECT_TRUE(kept.closed_by_peer(2000ms));
}

TEST_F(HttpWire, EveryResponseHasADateAndALength) {
  Connection c(server_->port());
  c.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
  std::string r = c.read_response();
  EXPECT_TRUE(std::regex_search(
      r, std::regex("\r\nDate: (Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d\\d [A-Z][a-z]{2} \\d{4} \\d\\d:\\d\\d:\\d\\d GMT\r\n")))
      << r;
  EXPECT_EQ(Connection::content_length(r), body_of(r).size());
}

TEST_F(HttpWire, HeadSendsTheGetLengthAndNoBody) {
  Connection c(server_->port());
  c.send("GET /api/v1/agents/" + *agent_ + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + *key_ + "\r\n\r\n");
  std::string get = c.read_response();
  c.send("HEAD /api/v1/agents/" + *agent_ + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + *key_ +
         "\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
  std::string both = c.read_until("\r\n\r\n", 2);
  size_t head_end = both.find("\r\n\r\n") + 4;
  std::string head = both.substr(0, head_end);
  EXPECT_EQ(head.rfind("HTTP/1.1 200", 0), 0u) << head;
  EXPECT_EQ(Connection::content_length(head), body_of(get).size());
  // The next response starts right after the HEAD's headers: no body was sent.
  EXPECT_EQ(both.compare(head_end, 12, "HTTP/1.1 200"), 0) << both;
}

TEST_F(HttpWire, LineBreaksInHeadersAreRefused) {
  Connection c(server_->port());
  c.send("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Bad: a\rb\r\n\r\n");
  std::string r = c.read_response();
  EXPECT_EQ(r.rfind("HTTP/1.1 400", 0), 0u) << r;
  EXPECT_EQ(Json::parse(body_of(r))["error"]["code"], "invalid_request");
}

class HttpTimeouts : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new Server({}, {"--idle-timeout-s", "1", "--read-timeout-s", "1"}); }
  static void TearDownTestSuite() { delete server_; }
  static Server* server_;
};
Server* HttpTimeouts::server_ = nullptr;

TEST_F(HttpTimeouts, AnIdleConnectionIsClosed) {
  Connection c(server_->port());
  c.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(c.read_response().rfind("HTTP/1.1 200", 0), 0u);
  auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(c.closed_by_peer(4000ms));
  EXPECT_GE(std::chrono::steady_clock::now() - start, 900ms);
}

TEST_F(HttpTimeouts, AHalfSentRequestIsClosedWithoutAnswer) {
  Connection c(server_->port());
  c.send("GET /healthz HTTP/1.1\r\nHo");
  EXPECT_TRUE(c.closed_by_peer(4000ms));
}

TEST_F(HttpTimeouts, ABusyConnectionOutlivesTheIdleTimeout) {
  Connection c(server_->port());
  for (int i = 0; i < 8; ++i) {  // 2.4 s of requests 0.3 s apart on a 1 s idle timeout
    c.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    std::string r = c.read_response();
    ASSERT_EQ(r.rfind("HTTP/1.1 200", 0), 0u) << "request " << i << ": " << r;
    std::this_thread::sleep_for(300ms);
  }
}

}  // namespace
}  // namespace parley::e2e
