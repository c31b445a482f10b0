// Body limits per route, over raw sockets against the real binary: a route that takes more than
// the server's 1 MiB (the contact import) takes it and no more; a declared Content-Length past a
// route's limit is answered 413 as soon as the headers are in, without waiting for the body (and
// without a 100 Continue); a chunked body is cut off once it passes the limit; every other route
// keeps the server's limit.
#include <memory>
#include <string>
#include <thread>

#include "harness.h"
#include "raw_connection.h"

namespace parley::e2e {
namespace {

Json json_of(const std::string& response) { return Json::parse(body_of(response), nullptr, false); }

std::string import_head(const std::string& length_or_chunked) {
  return "POST /console/v1/agents/agt_none/contacts/import HTTP/1.1\r\nHost: x\r\n"
         "Content-Type: multipart/form-data; boundary=b\r\n" +
         length_or_chunked + "\r\n";
}

TEST(HttpBodyLimit, ADeclaredBodyPastTheRoutesLimitIs413RightAfterTheHeaders) {
  Server server({}, {"--contact-import-max-bytes", "4096"});
  Connection c(server.port());
  ASSERT_TRUE(c.send(import_head("Content-Length: 4097\r\n")));  // the headers only
  std::string r = c.read_response();
  ASSERT_EQ(r.rfind("HTTP/1.1 413", 0), 0u) << r;
  auto e = json_of(r);
  EXPECT_EQ(e["error"]["code"], "payload_too_large");
  EXPECT_NE(e["error"]["message"].get<std::string>().find("4096 bytes"), std::string::npos) << r;
}

TEST(HttpBodyLimit, TheRoutesLimitIsAskedBeforeAnyContinue) {
  Server server({}, {"--contact-import-max-bytes", "4096"});
  Connection c(server.port());
  ASSERT_TRUE(c.send(import_head("Content-Length: 100000\r\nExpect: 100-continue\r\n")));
  std::string r = c.read_response();
  EXPECT_EQ(r.rfind("HTTP/1.1 413", 0), 0u) << r;
  EXPECT_EQ(r.find("100 Continue"), std::string::npos) << r;
}

TEST(HttpBodyLimit, ABodyUnderTheRoutesLimitIsReadEvenPastTheServersLimit) {
  Server server;
  Connection c(server.port());
  const size_t length = 2 * 1024 * 1024;  // past the server's 1 MiB, within the import's 64 MiB
  ASSERT_TRUE(c.send(
      import_head("Content-Length: " + std::to_string(length) + "\r\nExpect: 100-continue\r\n")));
  std::string go = c.read_until("\r\n\r\n");
  ASSERT_EQ(go.rfind("HTTP/1.1 100 Continue", 0), 0u) << go;
  ASSERT_TRUE(c.send(std::string(length, 'x')));
  std::string r = c.read_response();
  // Read whole and handed to the route, whose gate wants a console token.
  EXPECT_EQ(r.rfind("HTTP/1.1 401", 0), 0u) << r.substr(0, 300);
}

TEST(HttpBodyLimit, OtherRoutesKeepTheServersLimit) {
  Server server;
  Connection c(server.port());
  ASSERT_TRUE(
      c.send("POST /api/v1/agents/agt_none/contacts HTTP/1.1\r\nHost: x\r\nContent-Type: "
             "application/json\r\n"
             "Content-Length: 2097152\r\n\r\n"));
  std::string r = c.read_response();
  ASSERT_EQ(r.rfind("HTTP/1.1 413", 0), 0u) << r;
  EXPECT_NE(json_of(r)["error"]["message"].get<std::string>().find("1048576 bytes"),
            std::string::npos)
      << r;
}

TEST(HttpBodyLimit, AChunkedBodyIsCutOffOnceItPassesTheRoutesLimit) {
  Server server({}, {"--contact-import-max-bytes", "4096"});
  Connection c(server.port());
  ASSERT_TRUE(c.send(import_head("Transfer-Encoding: chunked\r\n")));
  std::string chunk = "400\r\n" + std::string(1024, 'x') + "\r\n";  // 1 KiB each
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(c.send(chunk));           // exactly the limit: still read
  EXPECT_EQ(c.read_until("HTTP/1.1", 1, 300ms), "");
  c.send(chunk);  // one past it
  std::string r = c.read_response();
  ASSERT_EQ(r.rfind("HTTP/1.1 413", 0), 0u) << r;
  EXPECT_NE(json_of(r)["error"]["message"].get<std::string>().find("4096 bytes"), std::string::npos)
      << r;
}

TEST(HttpBodyLimit, AChunkedBodyWithinTheRoutesLimitReachesTheRoute) {
  Server server({}, {"--contact-import-max-bytes", "4096"});
  Connection c(server.port());
  ASSERT_TRUE(c.send(import_head("Transfer-Encoding: chunked\r\n") + "400\r\n" +
                     std::string(1024, 'x') + "\r\n0\r\n\r\n"));
  std::string r = c.read_response();
  EXPECT_EQ(r.rfind("HTTP/1.1 401", 0), 0u) << r;
}

TEST(HttpBodyLimit, LargeBodiesPastTheBudgetAre503BeforeTheyAreRead) {
  // Room for one 2 MB body at a time (each is past the server's 1 MiB, within the import's 64 MiB).
  Server server({}, {"--large-bodies-max-bytes", "3000000"});
  std::string head = import_head("Content-Length: 2000000\r\nExpect: 100-continue\r\n");
  auto first = std::make_unique<Connection>(server.port());
  ASSERT_TRUE(first->send(head));
  ASSERT_EQ(first->read_until("\r\n\r\n").rfind("HTTP/1.1 100 Continue", 0), 0u);
  Connection second(server.port());
  ASSERT_TRUE(second.send(head));
  std::string refused = second.read_response();
  ASSERT_EQ(refused.rfind("HTTP/1.1 503", 0), 0u) << refused;
  EXPECT_NE(refused.find("\r\nRetry-After: 1\r\n"), std::string::npos) << refused;
  EXPECT_EQ(json_of(refused)["error"]["code"], "unavailable");
  EXPECT_NE(json_of(refused)["error"]["message"].get<std::string>().find("large_body_budget"),
            std::string::npos);
  // The first is read whole and answered; once its connection is gone, its share is free again.
  ASSERT_TRUE(first->send(std::string(2000000, 'x')));
  EXPECT_EQ(first->read_response().rfind("HTTP/1.1 401", 0), 0u);
  first.reset();
  bool admitted = false;
  for (int i = 0; i < 100 && !admitted; ++i) {  // the server notices the close asynchronously
    Connection third(server.port());
    third.send(head);
    admitted = third.read_until("\r\n\r\n").rfind("HTTP/1.1 100 Continue", 0) == 0;
    if (!admitted) std::this_thread::sleep_for(20ms);
  }
  EXPECT_TRUE(admitted);
  // Bodies within the server's own limit never count.
  Connection small(server.port());
  std::string body = "--b--";
  ASSERT_TRUE(
      small.send("POST /console/v1/agents/agt_none/contacts/import HTTP/1.1\r\nHost: x\r\n"
                 "Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 5\r\n\r\n" +
                 body));
  EXPECT_EQ(small.read_response().rfind("HTTP/1.1 401", 0), 0u);
}

}  // namespace
}  // namespace parley::e2e
