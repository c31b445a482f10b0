// A handler may hold its deferred answer's Responder after the server has stopped and been
// destroyed (a write queued on the database, a pool task). The Responder then lets go of its
// connection when the server stops: the connection is closed then, and whatever the handler does
// with it afterwards touches nothing of the server (the sanitizer build checks the memory).
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "http/server.h"
#include "loopback_listener.h"

namespace parley {
namespace {

// Reads until the server closes the connection (or 5 s pass with nothing).
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
  std::shared_ptr<Responder> streaming;  // its client reads nothing: the producer waits for room
  // The producer writes while there is room; once it has waited 1 s for room in vain (the
  // socket's buffers are full), it leaves its `resume` with the Responder and stops: `parked`.
  std::mutex mu;
  std::condition_variable cv;
  int resumes = 0;
  int resumes_when_parked = -1;
  std::promise<void> parked;
  std::thread producer;
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
  router.add("GET", "/stream", {[&](Request&) {
               return Response::later([&](std::shared_ptr<Responder> out) {
                 if (!out->claim()) return;
                 Response head;
                 head.status = 200;
                 head.content_type = "text/plain";
                 out->begin(std::move(head));
                 streaming = out;
                 producer = std::thread([out, &mu, &cv, &resumes, &resumes_when_parked, &parked] {
                   const std::string piece(64 * 1024, 'x');
                   auto resume = [&] {
                     std::lock_guard lock(mu);
                     ++resumes;
                     cv.notify_all();
                   };
                   for (;;) {
                     if (!out->write(piece)) return;
                     std::unique_lock lock(mu);
                     int seen = resumes;
                     lock.unlock();
                     if (!out->behind(resume)) continue;
                     lock.lock();
                     if (cv.wait_for(lock, std::chrono::seconds(1), [&] { return resumes > seen; }))
                       continue;
                     resumes_when_parked = resumes;
                     return parked.set_value();
                   }
                 });
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

    int fd = e2e::connect_to_loopback(port);
    ASSERT_GE(fd, 0);
    const std::string get = "GET /answered HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    ASSERT_EQ(::send(fd, get.data(), get.size(), 0), static_cast<ssize_t>(get.size()));
    bool closed = false;
    std::string response = read_to_close(fd, closed);
    ::close(fd);
    EXPECT_EQ(response.rfind("HTTP/1.1 200", 0), 0u) << response;

    waiting = e2e::connect_to_loopback(port);
    ASSERT_GE(waiting, 0);
    const std::string wait = "GET /pending HTTP/1.1\r\nHost: x\r\n\r\n";
    ASSERT_EQ(::send(waiting, wait.data(), wait.size(), 0), static_cast<ssize_t>(wait.size()));
    ASSERT_EQ(pending_held.get_future().wait_for(std::chrono::seconds(5)),
              std::future_status::ready);

    int reading_nothing = e2e::connect_to_loopback(port);
    ASSERT_GE(reading_nothing, 0);
    const std::string stream = "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n";
    ASSERT_EQ(::send(reading_nothing, stream.data(), stream.size(), 0),
              static_cast<ssize_t>(stream.size()));
    ASSERT_EQ(parked.get_future().wait_for(std::chrono::seconds(10)), std::future_status::ready);

    server.stop();
    serving.join();
    producer.join();
    ::close(reading_nothing);
  }
  // The producer waiting for room was told to go on when the server stopped, and finds its writes
  // refused.
  EXPECT_EQ(resumes, resumes_when_parked + 1);
  EXPECT_FALSE(streaming->write("more"));
  streaming.reset();
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
