// The HTTP layer: JSON errors for unknown routes, wrong methods, oversized and malformed requests;
// no CORS headers anywhere; request ids; health and readiness; graceful shutdown.
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "harness.h"

namespace parley::e2e {
namespace {

class Http : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const Seed& seeded = seed("Http", [](const Admin& a) {
      std::string account = a.create_account();
      return Json{{"account", account}, {"key", a.create_key(account)}};
    });
    server_ = new Server(unlimited(), {}, &seeded);
    account_ = new std::string(seeded.values["account"]);
    key_ = new std::string(seeded.values["key"]);
  }
  static void TearDownTestSuite() {
    delete server_;
    delete account_;
    delete key_;
  }
  static Server* server_;
  static std::string* account_;
  static std::string* key_;
};
Server* Http::server_ = nullptr;
std::string* Http::account_ = nullptr;
std::string* Http::key_ = nullptr;

void expect_no_cors(const HttpResponse& r) {
  for (auto& [name, value] : r.headers) EXPECT_NE(name.rfind("access-control-", 0), 0u) << name;
}

// Sends raw bytes and returns what the server answered before closing or going quiet.
std::string raw_exchange(uint16_t port, const std::string& bytes) {
  int fd = connect_loopback(port);
  if (fd < 0) return "";
  timeval tv{2, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  (void)!write(fd, bytes.data(), bytes.size());
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  close(fd);
  return out;
}

TEST_F(Http, UnknownRouteIsJsonNotFound) {
  auto r = server_->get("/api/v1/nothing-here", *key_);
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.error_code(), "not_found");
  EXPECT_EQ(r.header("content-type"), "application/json");
  auto unversioned = server_->get("/api/v2/agents", *key_);
  EXPECT_EQ(unversioned.status, 404);
  EXPECT_EQ(unversioned.error_code(), "not_found");
}

TEST_F(Http, WrongMethodIsMethodNotAllowedWithAllow) {
  auto r = server_->request({"DELETE", "/api/v1/agents", "", {bearer(*key_)}});
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.error_code(), "method_not_allowed");
  EXPECT_EQ(r.header("allow"), "GET, HEAD");  // HEAD is served wherever GET is
  EXPECT_EQ(r.error_message(), "Method DELETE is not allowed here; use GET, HEAD.");
  auto put = server_->request({"PUT", "/api/v1/agents/agt_x", "{}", {bearer(*key_)}});
  EXPECT_EQ(put.status, 405);
  EXPECT_EQ(put.header("allow"), "GET, HEAD");
  auto chat = server_->request({"GET", "/api/v1/agents/agt_x/chat", "", {bearer(*key_)}});
  EXPECT_EQ(chat.status, 405);
  EXPECT_EQ(chat.header("allow"), "POST");
  auto metrics = server_->request({"POST", "/metrics", "", {}});
  EXPECT_EQ(metrics.status, 405);
  EXPECT_EQ(metrics.header("allow"), "GET, HEAD");
}

// RFC 9112 3.2: an HTTP/1.1 request without Host, or with two, is refused; so is a request that
// names two keys, two content types or two idempotency keys, which readers could take differently.
TEST_F(Http, AHeaderThatHoldsOneValueIsRefusedWhenMissingOrSentTwice) {
  auto status_of = [&](const std::string& request) {
    std::string answer = raw_exchange(server_->port(), request);
    return answer.substr(0, 12) +
           (answer.find("\"invalid_request\"") != std::string::npos ? " invalid_request" : "") +
           (answer.find("\"unauthorized\"") != std::string::npos ? " unauthorized" : "");
  };
  const std::string auth = "Authorization: Bearer " + *key_ + "\r\n";
  EXPECT_EQ(status_of("GET /api/v1/agents HTTP/1.1\r\n" + auth + "Connection: close\r\n\r\n"),
            "HTTP/1.1 400 invalid_request");
  EXPECT_EQ(status_of("GET /api/v1/agents HTTP/1.1\r\nHost: a\r\nHost: b\r\n" + auth +
                      "Connection: close\r\n\r\n"),
            "HTTP/1.1 400 invalid_request");
  // The first key is good and the second unknown: neither is taken.
  EXPECT_EQ(status_of("GET /api/v1/agents HTTP/1.1\r\nHost: a\r\n" + auth +
                      "authorization: Bearer "
                      "svc_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\r\nConnection: close\r\n\r\n"),
            "HTTP/1.1 400 invalid_request");
  EXPECT_EQ(
      status_of(
          "POST /api/v1/agents/agt_x/chat HTTP/1.1\r\nHost: a\r\n" + auth +
          "Content-Type: application/json\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n"
          "Connection: close\r\n\r\n{}"),
      "HTTP/1.1 400 invalid_request");
  EXPECT_EQ(
      status_of("GET /healthz HTTP/1.1\r\nHost: a\r\nIdempotency-Key: 1\r\nIdempotency-Key: 2\r\n"
                "Connection: close\r\n\r\n"),
      "HTTP/1.1 400 invalid_request");
  std::string answer =
      raw_exchange(server_->port(), "GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n");
  EXPECT_NE(answer.find("An HTTP/1.1 request must carry a Host header."), std::string::npos)
      << answer;
  answer = raw_exchange(server_->port(), "GET /api/v1/agents HTTP/1.1\r\nHost: a\r\n" + auth +
                                             auth + "Connection: close\r\n\r\n");
  EXPECT_NE(answer.find("The header 'Authorization' is sent more than once."), std::string::npos)
      << answer;
  // HTTP/1.0 has no Host rule; one of each header is the ordinary request.
  EXPECT_EQ(status_of("GET /healthz HTTP/1.0\r\n\r\n"), "HTTP/1.1 200");
  EXPECT_EQ(
      status_of("GET /api/v1/agents HTTP/1.1\r\nhost: a\r\n" + auth + "Connection: close\r\n\r\n"),
      "HTTP/1.1 200");
}

TEST_F(Http, OptionsPreflightGetsNoCorsHeaders) {
  auto r = server_->request({"OPTIONS", "/api/v1/agents", "",
                             {"Origin: https://evil.example", "Access-Control-Request-Method: GET"}});
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.error_code(), "method_not_allowed");
  expect_no_cors(r);
}

TEST_F(Http, NoCorsHeadersOnAnyResponse) {
  std::vector<std::string> origin = {bearer(*key_), "Origin: https://evil.example"};
  expect_no_cors(server_->request({"GET", "/api/v1/agents", "", origin}));
  expect_no_cors(server_->request({"GET", "/api/v1/agents/agt_missing", "", origin}));
  expect_no_cors(server_->request({"GET", "/api/v1/agents", "", {"Origin: https://evil.example"}}));
  expect_no_cors(server_->request({"GET", "/healthz", "", {"Origin: https://evil.example"}}));
}

TEST_F(Http, BodyOverOneMebibyteIsPayloadTooLarge) {
  std::string big(1024 * 1024 + 1, 'a');
  auto r = server_->request({"POST", "/api/v1/agents", big, {bearer(*key_)}});
  EXPECT_EQ(r.status, 413);
  EXPECT_EQ(r.error_code(), "payload_too_large");
}

TEST_F(Http, MalformedHttpIsBadRequest) {
  std::string answer = raw_exchange(server_->port(), "THIS IS NOT HTTP\r\n\r\n");
  EXPECT_EQ(answer.rfind("HTTP/1.1 400", 0), 0u) << answer;
  EXPECT_NE(answer.find("\"invalid_request\""), std::string::npos);
}

TEST_F(Http, OversizedHeadersAreRefused) {
  std::string answer = raw_exchange(
      server_->port(), "GET /api/v1/agents HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(20000, 'b') + "\r\n\r\n");
  EXPECT_EQ(answer.rfind("HTTP/1.1 431", 0), 0u) << answer.substr(0, 200);
  EXPECT_NE(answer.find("\"headers_too_large\""), std::string::npos);
}

TEST_F(Http, EveryResponseHasARequestId) {
  auto ok = server_->get("/api/v1/agents", *key_);
  auto missing = server_->get("/nope", *key_);
  auto unauth = server_->request({"GET", "/api/v1/agents", "", {}});
  for (const auto* r : {&ok, &missing, &unauth}) {
    EXPECT_TRUE(std::regex_match(r->header("x-request-id"), std::regex("req_[A-Za-z0-9]{22}")))
        << r->header("x-request-id");
  }
  EXPECT_NE(ok.header("x-request-id"), missing.header("x-request-id"));
}

TEST_F(Http, HealthAndReadiness) {
  auto h = server_->request({"GET", "/healthz", "", {}});
  EXPECT_EQ(h.status, 200);
  EXPECT_EQ(h.json()["status"], "ok");
  auto r = server_->request({"GET", "/readyz", "", {}});
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.json()["status"], "ready");
}

TEST_F(Http, RequestLogHasOneLinePerRequestAndNeverTheKey) {
  auto r = server_->get("/api/v1/agents", *key_);
  std::string id = r.header("x-request-id");
  std::string log;
  for (int i = 0; i < 200; ++i) {  // the line is written once the response has been sent
    log = server_->log();
    if (log.find("\"requestId\":\"" + id + "\"") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_NE(log.find("\"requestId\":\"" + id + "\""), std::string::npos);
  EXPECT_EQ(log.find(*key_), std::string::npos);
}

TEST_F(Http, KeepAliveServesSeveralRequestsOnOneConnection) {
  std::string two =
      "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  std::string answer = raw_exchange(server_->port(), two);
  size_t first = answer.find("HTTP/1.1 200");
  ASSERT_NE(first, std::string::npos) << answer;
  EXPECT_NE(answer.find("HTTP/1.1 200", first + 1), std::string::npos) << answer;
}

TEST(HttpShutdown, SigtermExitsCleanly) {
  Server server;
  EXPECT_EQ(server.request({"GET", "/healthz", "", {}}).status, 200);
  EXPECT_EQ(server.stop(SIGTERM), 0);
  EXPECT_NE(server.log().find("\"msg\":\"stopped\""), std::string::npos);
}

}  // namespace
}  // namespace parley::e2e

namespace parley::e2e {
namespace {

TEST(HttpTls, ServesHttpsWithTheGivenCertificate) {
  char tpl[] = "/tmp/parley-tls-XXXXXX";
  std::string dir = mkdtemp(tpl);
  auto gen = run_process({"/usr/bin/openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                          "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                          "-keyout", dir + "/key.pem", "-out", dir + "/cert.pem"},
                         {});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  Server server(Env{}, {"--tls-cert", dir + "/cert.pem", "--tls-key", dir + "/key.pem"});
  std::string url = "https://127.0.0.1:" + std::to_string(server.port()) + "/healthz";
  auto ok = run_process({"/usr/bin/curl", "-s", "--cacert", dir + "/cert.pem", url}, {});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out, R"({"status":"ok"})");
  // Served over TLS, every answer tells browsers to keep to https.
  auto head = run_process(
      {"/usr/bin/curl", "-s", "-D", "-", "-o", "/dev/null", "--cacert", dir + "/cert.pem", url},
      {});
  EXPECT_NE(head.out.find("Strict-Transport-Security: max-age=31536000\r\n"), std::string::npos)
      << head.out;
  // Plain HTTP on the TLS port gets nothing useful.
  auto plain = run_process({"/usr/bin/curl", "-s", "-o", "/dev/null", "-w", "%{http_code}",
                            "http://127.0.0.1:" + std::to_string(server.port()) + "/healthz"},
                           {});
  EXPECT_NE(plain.out, "200");
  EXPECT_NE(server.log().find("\"tls\":true"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace parley::e2e
