// A deferred answer's calls reach the connection in the order they were made, whichever threads
// made them: a head begun on the connection's own thread and a body written by another thread
// (an export's pool task) arrive head first.
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>

#include "http/server.h"
#include "loopback_listener.h"

namespace parley {
namespace {

// The whole response to `request` on 127.0.0.1:`port`, read until the server closes or 5 s pass
// with nothing new.
std::string exchange(uint16_t port, const std::string& request) {
  int fd = e2e::connect_to_loopback(port);
  if (fd < 0) return "";
  std::string out;
  if (::send(fd, request.data(), request.size(), 0) == static_cast<ssize_t>(request.size())) {
    char buf[4096];
    for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) out.append(buf, n);
  }
  ::close(fd);
  return out;
}

TEST(DeferredOrder, AHeadBegunOnTheConnectionsThreadPrecedesABodyWrittenElsewhere) {
  Router router;
  router.add("GET", "/stream",
             {[](Request&) {
                return Response::later([](std::shared_ptr<Responder> out) {
                  // Runs on the connection's thread: the head and the first piece from here...
                  if (!out->claim()) return;
                  Response head;
                  head.status = 200;
                  head.content_type = "text/plain";
                  out->begin(std::move(head));
                  out->write("first\n");
                  // ...the rest from another thread, handed over before this call returns.
                  std::thread([out] {
                    out->write("second\n");
                    out->end();
                  }).join();
                });
              },
              Execution::kPool});
  ServerOptions options;
  options.port = 0;
  options.io_threads = 1;
  options.blocking_threads = 1;
  ServerHooks hooks;
  hooks.on_error = [](const ApiError&, Request&) { return Response::json(500, "{}"); };
  hooks.new_request_id = [](std::string& id) { id = "req"; };
  HttpServer server(options, router, hooks);
  uint16_t port = server.listen();
  std::thread serving([&] { server.run(); });

  std::string response =
      exchange(port, "GET /stream HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  server.stop();
  serving.join();

  EXPECT_EQ(response.rfind("HTTP/1.1 200", 0), 0u) << response;
  const std::string body = "6\r\nfirst\n\r\n7\r\nsecond\n\r\n0\r\n\r\n";
  ASSERT_GE(response.size(), body.size()) << response;
  EXPECT_EQ(response.substr(response.size() - body.size()), body) << response;
}

}  // namespace
}  // namespace parley
