// A handler may hold its deferred answer's Responder after the server has stopped and been
// destroyed (a write queued on the database, a pool task). The Responder then lets go of its
// connection when the server stops: the connection is closed then, and whatever the handler does
// with it afterwards touches nothing of the server (the sanitizer build checks the memory).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <string>
#include <thread>

#include "http/server.h"

namespace parley {
namespace {

int connect_to(uint16_t port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  timeval timeout{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Sends `request` and reads until the server closes the connection (or 5 s pass with nothing).
// `closed` tells whether it ended by the server's close.
std::string read_to_close(int fd, bool& closed) {
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = ::recv(fd, buf, sizeof buf, 0)) > 0) out.append(buf, n);
  closed = n == 0;
  return out;
}

TEST(DeferredAfterStop, RespondersHeldPastTheServerLetGoOfTheirConnectionsWhenItStops) {
  std::shared_ptr<Responder> answered;  // its exchange was answered, and the handler kept it
  std::shared_ptr<Responder> pending;   // never answered before the server stopped
  std::promise<void> pending_held;
  Router router;
  router.add("GET", "/answered", {[&](Request&) {
               return Response::later([&](std::shared_ptr<Responder> out) {
                 if (out->claim()) out->send(Response::json(200, "{\"ok\":true}"));
                 answered = std::move(out);
               });
             }});
  router.add("GET", "/pending", {[&](Request&) {
               return Response::later([&](std::shared_ptr<Responder> out) {
                 pending = std::move(out);
                 pending_held.set_value();
               });
             }});
  ServerOptions options;
  options.port = 0;
  options.io_threads = 1;
  options.blocking_threads = 1;
  options.shutdown_grace_s = 0;  // the pending exchange does not hold the stop
  ServerHooks hooks;
  hooks.on_error = [](const ApiError&, Request&) { return Response::json(500, "{}"); };
  hooks.new_request_id = [](std::string& id) { id = "req"; };

  int waiting = -1;
  {
    HttpServer server(options, router, hooks);
    uint16_t port = server.listen();
    std::thread serving([&] { server.run(); });

    int fd = connect_to(port);
    ASSERT_GE(fd, 0);
    const std::string get = "GET /answered HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    ASSERT_EQ(::send(fd, get.data(), get.size(), 0), static_cast<ssize_t>(get.size()));
    bool closed = false;
    std::string response = read_to_close(fd, closed);
    ::close(fd);
    EXPECT_EQ(response.rfind("HTTP/1.1 200", 0), 0u) << response;

    waiting = connect_to(port);
    ASSERT_GE(waiting, 0);
    const std::string wait = "GET /pending HTTP/1.1\r\nHost: x\r\n\r\n";
    ASSERT_EQ(::send(waiting, wait.data(), wait.size(), 0), static_cast<ssize_t>(wait.size()));
    ASSERT_EQ(pending_held.get_future().wait_for(std::chrono::seconds(5)),
              std::future_status::ready);

    server.stop();
    serving.join();
  }
  ASSERT_NE(answered, nullptr);
  ASSERT_NE(pending, nullptr);

  // The waiting client's connection was closed with the server, while its Responder is still held.
  bool closed = false;
  std::string nothing = read_to_close(waiting, closed);
  ::close(waiting);
  EXPECT_TRUE(closed);
  EXPECT_EQ(nothing, "");

  // What the handler does now goes nowhere, and letting go touches nothing.
  EXPECT_TRUE(pending->claim());
  pending->begin(Response::json(200, "{}"));
  EXPECT_FALSE(pending->write("late"));
  pending->end();
  std::thread([held = std::move(pending)]() mutable { held.reset(); }).join();
  answered->send(Response::json(200, "{}"));
  answered.reset();
}

}  // namespace
}  // namespace parley
