// The HTTP server's defences against slow and greedy clients, over raw sockets against the real
// binary: the read timeout bounds a whole request, the connection cap and the blocking queue
// answer 503 with Retry-After, a failing accept() pauses instead of spinning, early error replies
// linger so a client that writes its whole body first still reads them, routing sees the path as
// sent, and no control character reaches a response header.
#include <sqlite3.h>
#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

#include "chat_support.h"

#include "harness.h"
#include "raw_connection.h"

namespace parley::e2e {
namespace {

using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;

std::string head_of(const std::string& response) {
  size_t end = response.find("\r\n\r\n");
  return end == std::string::npos ? response : response.substr(0, end + 2);
}

Json json_body(const std::string& response) {
  std::string body = body_of(response);
  return Json::parse(body, nullptr, false);
}

// The process's user and system CPU time, in seconds.
double cpu_seconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(in, line);
  std::istringstream rest(line.substr(line.rfind(')') + 2));
  std::vector<std::string> f;
  for (std::string x; rest >> x;) f.push_back(x);
  return (std::stod(f[11]) + std::stod(f[12])) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

size_t open_fds(pid_t pid) {
  size_t n = 0;
  for (const auto& e :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd")) {
    (void)e;
    ++n;
  }
  return n;
}

// The newest `parley` process this test process started (the server under test).
pid_t newest_server_child() {
  pid_t best = -1;
  unsigned long long best_start = 0;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    std::string name = e.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "stat");
    std::string line;
    if (!std::getline(in, line)) continue;
    size_t open = line.find('('), close = line.rfind(')');
    if (open == std::string::npos || close == std::string::npos) continue;
    if (line.substr(open + 1, close - open - 1) != "parley") continue;
    std::istringstream rest(line.substr(close + 2));
    std::vector<std::string> f;
    for (std::string x; rest >> x;) f.push_back(x);
    // f[1] is field 4 (ppid), f[19] field 22 (start time).
    if (f.size() < 20 || std::stol(f[1]) != getpid()) continue;
    unsigned long long start = std::stoull(f[19]);
    if (best < 0 || start >= best_start) {
      best = static_cast<pid_t>(std::stol(name));
      best_start = start;
    }
  }
  return best;
}

TEST(HttpReadTimeout, ABodyTrickledAByteAtATimeIsCutOffAtTheReadTimeout) {
  Server server({}, {"--read-timeout-s", "2"});
  Connection c(server.port());
  ASSERT_TRUE(c.connected());
  auto start = SteadyClock::now();
  ASSERT_TRUE(c.send(
      "POST /api/v1/agents/agt_x/contacts HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n"));
  // A byte every 250 ms would finish the body after 25 s; each byte used to move the deadline.
  bool closed = false;
  while (!closed && SteadyClock::now() - start < 8s) {
    c.send("x");
    closed = c.closed_by_peer(250ms);
  }
  auto took = SteadyClock::now() - start;
  EXPECT_TRUE(closed);
  EXPECT_GE(took, 1500ms);
  EXPECT_LT(took, 5s);
  EXPECT_EQ(c.read_until("never", 1, 10ms),
            "");  // closed without an answer, as a half-sent request
}

TEST(HttpConnectionCap, ConnectionsPastTheCapGet503WithRetryAfter) {
  Server server({}, {"--max-connections", "2"});
  std::vector<std::unique_ptr<Connection>> held;
  for (int i = 0; i < 2; ++i) {
    held.push_back(std::make_unique<Connection>(server.port()));
    held.back()->send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    ASSERT_EQ(held.back()->read_response().rfind("HTTP/1.1 200", 0), 0u);
  }
  Connection third(server.port());
  third.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
  std::string r = third.read_response();
  ASSERT_EQ(r.rfind("HTTP/1.1 503 Service Unavailable\r\n", 0), 0u) << r;
  EXPECT_NE(r.find("\r\nRetry-After: 1\r\n"), std::string::npos) << r;
  EXPECT_NE(r.find("\r\nConnection: close\r\n"), std::string::npos) << r;
  Json e = json_body(r);
  EXPECT_EQ(e["error"]["code"], "unavailable");
  EXPECT_EQ(e["error"]["message"],
            "The server has reached its limit of 2 connections (max_connections); retry later.");
  EXPECT_TRUE(third.closed_by_peer(2000ms));

  // Once a held connection closes, a new one is served again.
  held.pop_back();
  std::string again;
  std::unique_ptr<Connection> next;
  for (auto until = SteadyClock::now() + 3s; SteadyClock::now() < until;) {
    next = std::make_unique<Connection>(server.port());
    next->send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    again = next->read_response();
    if (again.rfind("HTTP/1.1 200", 0) == 0) break;
    std::this_thread::sleep_for(50ms);
  }
  ASSERT_EQ(again.rfind("HTTP/1.1 200", 0), 0u) << again;
  // On the same connection: a new one would be past the cap again.
  next->send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
  std::string metrics = next->read_response();
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      metrics, m, std::regex("\nparley_http_refused_total\\{limit=\"connections\"\\} (\\d+)\n")))
      << metrics;
  EXPECT_GE(std::stoi(m[1]), 1);
}

TEST(HttpBlockingQueue, AReadRefusedForWantOfAWorkerKeepsItsRateLimitHeaders) {
  // Holds the database's single writer from outside: SQLite's own mechanism.
  if (on_postgres()) GTEST_SKIP() << "SQLite's writer lock";
  // GET agent passes the key check on the I/O thread and needs the pool only for an agent not yet
  // cached; refused there, its 503 still carries the headers of every request that passed the key.
  Server server(unlimited(), {"--blocking-threads", "2", "--reply-threads", "1", "--blocking-queue", "0"});
  std::string account = server.create_account();
  std::string key = server.create_key(account);
  std::string agent = server.create_agent(account);
  // The upserts below load their agent into the cache; the read asks for one nothing has loaded.
  std::string unread = server.create_agent(account);
  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open((server.data_dir() + "/parley.db").c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  std::string body = R"({"external_id":"held"})";
  std::string write = "POST /api/v1/agents/" + agent + "/contacts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                      key + "\r\nContent-Type: application/json\r\nContent-Length: " +
                      std::to_string(body.size()) + "\r\n\r\n" + body;
  Connection first(server.port()), second(server.port());
  first.send(write);
  second.send(write);
  std::this_thread::sleep_for(300ms);  // both handler threads now wait for the write lock
  Connection read(server.port());
  read.send("GET /api/v1/agents/" + unread + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + key +
            "\r\n\r\n");
  std::string r = read.read_response();
  ASSERT_EQ(sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(other);
  ASSERT_EQ(r.rfind("HTTP/1.1 503", 0), 0u) << r;
  EXPECT_NE(r.find("\r\nRetry-After: 1\r\n"), std::string::npos) << r;
  EXPECT_EQ(json_body(r)["error"]["code"], "unavailable");
  EXPECT_NE(r.find("\r\nX-RateLimit-Limit: 1000000\r\n"), std::string::npos) << r;
  EXPECT_NE(r.find("\r\nX-RateLimit-Remaining: "), std::string::npos) << r;
  EXPECT_NE(r.find("\r\nX-RateLimit-Reset: "), std::string::npos) << r;
}

TEST(HttpBlockingQueue, RequestsPastTheQueueGet503AtOnce) {
  // Holds the database's single writer from outside: SQLite's own mechanism.
  if (on_postgres()) GTEST_SKIP() << "SQLite's writer lock";
  Server server(unlimited(), {"--blocking-threads", "2", "--reply-threads", "1", "--blocking-queue", "1"});
  std::string account = server.create_account();
  std::string key = server.create_key(account);
  std::string agent = server.create_agent(account);
  auto contact = [&](int i) {
    std::string body = R"({"external_id":"q-)" + std::to_string(i) + R"("})";
    return "POST /api/v1/agents/" + agent + "/contacts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
           key + "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\n\r\n" + body;
  };
  // Another process's connection holds the database's write lock, so writes wait for their commit
  // on the two handler threads: the first two take them, the third waits in the queue.
  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open((server.data_dir() + "/parley.db").c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  Connection first(server.port()), second(server.port()), waiting(server.port());
  first.send(contact(1));
  second.send(contact(2));
  std::this_thread::sleep_for(300ms);
  waiting.send(contact(3));
  std::this_thread::sleep_for(300ms);
  Connection refused(server.port());
  auto start = SteadyClock::now();
  refused.send(contact(4));
  std::string r = refused.read_response();
  EXPECT_LT(SteadyClock::now() - start, 1000ms);  // at once, not when the lock is released
  ASSERT_EQ(r.rfind("HTTP/1.1 503", 0), 0u) << r;
  EXPECT_NE(r.find("\r\nRetry-After: 1\r\n"), std::string::npos) << r;
  Json e = json_body(r);
  EXPECT_EQ(e["error"]["code"], "unavailable");
  EXPECT_EQ(e["error"]["message"],
            "The server is busy: every worker is taken and its queue of 1 waiting requests (blocking_queue) is full; "
            "retry shortly.");
  ASSERT_EQ(sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(other);
  // The three accepted ones are answered once the lock is gone.
  for (Connection* c : {&first, &second}) EXPECT_EQ(c->read_response().rfind("HTTP/1.1 201", 0), 0u);
  std::string third = waiting.read_until("\r\n\r\n", 1, 8000ms);
  EXPECT_EQ(third.rfind("HTTP/1.1 201", 0), 0u) << third;
  auto metrics = server.get("/metrics", "");
  EXPECT_NE(metrics.body.find("parley_http_refused_total{limit=\"blocking_queue\"} 1\n"), std::string::npos);
  EXPECT_NE(metrics.body.find("parley_http_pool_waiting 0\n"), std::string::npos);
}

TEST(HttpAccept, RunningOutOfDescriptorsPausesAcceptingInsteadOfSpinning) {
  Server server;
  pid_t pid = newest_server_child();
  ASSERT_GT(pid, 0);
  // The background threads (trainer, webhook delivery) open their database connections on their
  // first poll; one opening it out of descriptors ends the process ("unable to open database
  // file"). Wait until the server's descriptors have stopped changing.
  for (size_t before = 0, tries = 0; tries < 50 && open_fds(pid) != before; ++tries) {
    before = open_fds(pid);
    std::this_thread::sleep_for(200ms);
  }
  rlimit old{};
  ASSERT_EQ(prlimit(pid, RLIMIT_NOFILE, nullptr, &old), 0);
  rlimit low = old;
  // Room for two connections: the first goes to the first I/O thread, the second to the next,
  // whose event loop must not need descriptors of its own by then.
  low.rlim_cur = open_fds(pid) + 3;
  ASSERT_EQ(prlimit(pid, RLIMIT_NOFILE, &low, nullptr), 0);
  std::vector<std::unique_ptr<Connection>> clients;
  for (int i = 0; i < 8; ++i) {
    clients.push_back(std::make_unique<Connection>(server.port()));
    clients.back()->send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
  }
  std::this_thread::sleep_for(300ms);
  double before = cpu_seconds(pid);
  std::this_thread::sleep_for(1500ms);
  double used = cpu_seconds(pid) - before;
  EXPECT_LT(used, 0.3) << "CPU seconds used in 1.5 s while out of descriptors";

  ASSERT_EQ(prlimit(pid, RLIMIT_NOFILE, &old, nullptr), 0);
  // Every client that waited in the backlog is served once descriptors are back.
  int served = 0;
  for (auto& c : clients) served += c->read_response().rfind("HTTP/1.1 200", 0) == 0;
  EXPECT_EQ(served, 8) << server.log();
  EXPECT_NE(server.log().find("\"msg\":\"accept failed; pausing new connections\""),
            std::string::npos);
}

TEST(HttpLinger, A413ForADeclaredLargeBodyIsReadableAfterTheWholeBodyIsWritten) {
  Server server(unlimited());
  Connection c(server.port());
  const size_t size = 2 * 1024 * 1024;
  // As Python's http.client: the head, then the whole body, before reading anything. The server
  // has answered (and used to close) by the time the body comes.
  ASSERT_TRUE(c.send(
      "POST /api/v1/agents/agt_x/contacts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
      "Content-Length: " +
      std::to_string(size) + "\r\n\r\n"));
  std::this_thread::sleep_for(200ms);
  bool written = c.send(std::string(size, 'a'));
  EXPECT_TRUE(written) << "the server reset the connection while the body was being written";
  std::string r = c.read_response();
  ASSERT_EQ(r.rfind("HTTP/1.1 413", 0), 0u) << r.substr(0, 200);
  Json e = json_body(r);
  EXPECT_EQ(e["error"]["code"], "payload_too_large");
  EXPECT_EQ(e["error"]["message"], "The request body exceeds the limit of 1048576 bytes.");
  EXPECT_TRUE(c.closed_by_peer(2000ms));
}

TEST(HttpLinger, A400IsReadableAfterTheRestOfTheRequestIsWritten) {
  Server server;
  Connection c(server.port());
  ASSERT_TRUE(c.send("GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: x\r\n\r\n"));
  std::this_thread::sleep_for(200ms);
  bool written = c.send(std::string(1024 * 1024, 'z'));
  EXPECT_TRUE(written);
  std::string r = c.read_response();
  ASSERT_EQ(r.rfind("HTTP/1.1 400", 0), 0u) << r.substr(0, 200);
  EXPECT_EQ(json_body(r)["error"]["code"], "invalid_request");
}

class HttpPaths : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const Seed& seeded = account_seed("HttpPaths");
    server_ = new Server(unlimited(), {}, &seeded);
    chat_ = new ChatSetup{seeded.values["account"], seeded.values["agent"], seeded.values["key"]};
  }
  static void TearDownTestSuite() {
    delete chat_;
    delete server_;
  }
  static Server* server_;
  static ChatSetup* chat_;
};
Server* HttpPaths::server_ = nullptr;
ChatSetup* HttpPaths::chat_ = nullptr;

TEST_F(HttpPaths, AnEncodedPathIsRoutedAsSentNotDecoded) {
  Connection c(server_->port());
  c.send("GET /%6detrics HTTP/1.1\r\nHost: x\r\n\r\n");
  std::string r = c.read_response();
  ASSERT_EQ(r.rfind("HTTP/1.1 404", 0), 0u) << r;
  Json e = json_body(r);
  EXPECT_EQ(e["error"]["code"], "not_found");
  EXPECT_EQ(e["error"]["message"], "No route matches GET /%6detrics.");
  c.send("GET /api/v1/%61gents/" + chat_->agent + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
         chat_->key + "\r\n\r\n");
  EXPECT_EQ(c.read_response().rfind("HTTP/1.1 404", 0), 0u);
}

TEST_F(HttpPaths, AnEncodedPathParameterStillNamesTheItem) {
  std::string encoded = chat_->agent;
  encoded.replace(encoded.find('_'), 1, "%5F");
  auto r = server_->get("/api/v1/agents/" + encoded, chat_->key);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["data"]["id"], chat_->agent);
}

TEST_F(HttpPaths, NulInAHeaderValueNeverReachesTheWire) {
  Connection c(server_->port());
  // A streamed reply names its session in X-Session-Id; a caller's session id that begins with
  // "svcapi" is kept as given.
  std::string body = R"({"message":"hi","stream":true,"sessionId":"svcapi_s\u0000x\u0001y"})";
  c.send("POST /api/v1/agents/" + chat_->agent +
         "/chat HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + chat_->key +
         "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\n\r\n" + body);
  std::string head = c.read_until("\r\n\r\n");
  ASSERT_EQ(head.rfind("HTTP/1.1 200", 0), 0u) << head;
  EXPECT_EQ(head.find('\0'), std::string::npos);
  EXPECT_EQ(head.find('\x01'), std::string::npos);
  EXPECT_NE(head.find("\r\nX-Session-Id: svcapi_s x y\r\n"), std::string::npos) << head;
}

}  // namespace
}  // namespace parley::e2e
