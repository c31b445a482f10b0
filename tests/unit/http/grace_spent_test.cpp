// The server tells its owner when shutdown's grace period is spent with requests still in flight
// (the node then ends the document readers those requests wait on), and only then.
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "http/server.h"
#include "loopback_listener.h"

namespace parley {
namespace {

struct Served {
  std::atomic<int> grace_spent{0};
  std::shared_ptr<Responder> pending;
  std::promise<void> pending_held;
  Router router;
  ServerOptions options;
  ServerHooks hooks;

  Served() {
    router.add("GET", "/pending", {[this](Request&) {
                 return Response::later([this](std::shared_ptr<Responder> out) {
                   pending = std::move(out);
                   pending_held.set_value();
                 });
               }});
    options.port = 0;
    options.io_threads = 1;
    options.blocking_threads = 1;
    options.shutdown_grace_s = 0;
    hooks.on_error = [](const ApiError&, Request&) { return Response::json(500, "{}"); };
    hooks.new_request_id = [](std::string& id) { id = "req"; };
    hooks.on_grace_spent = [this] { ++grace_spent; };
  }
};

TEST(GraceSpent, TheHookRunsOnceWhenARequestIsStillInFlightAtTheEndOfTheGrace) {
  Served s;
  int fd = -1;
  {
    HttpServer server(s.options, s.router, s.hooks);
    uint16_t port = server.listen();
    std::thread serving([&] { server.run(); });
    fd = e2e::connect_to_loopback(port);
    ASSERT_GE(fd, 0);
    const std::string get = "GET /pending HTTP/1.1\r\nHost: x\r\n\r\n";
    ASSERT_EQ(::send(fd, get.data(), get.size(), 0), static_cast<ssize_t>(get.size()));
    ASSERT_EQ(s.pending_held.get_future().wait_for(std::chrono::seconds(5)),
              std::future_status::ready);
    server.stop();
    serving.join();
  }
  ::close(fd);
  s.pending.reset();
  EXPECT_EQ(s.grace_spent.load(), 1);
}

TEST(GraceSpent, TheHookDoesNotRunWhenNothingIsInFlight) {
  Served s;
  {
    HttpServer server(s.options, s.router, s.hooks);
    server.listen();
    std::thread serving([&] { server.run(); });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    server.stop();
    serving.join();
  }
  EXPECT_EQ(s.grace_spent.load(), 0);
}

}  // namespace
}  // namespace parley
