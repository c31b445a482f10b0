// The listener: I/O threads, accepting (with the connection cap and a pause when accept() fails),
// TLS set-up, signals and graceful shutdown. Each connection is a Session (http/session.h); with
// request_reader.cpp this is the only translation unit that includes Beast or Asio.
//
// Each I/O thread runs its own io_context, and a connection lives on one of them for its whole
// life, so a session's handlers never run concurrently and need no strand. Timeouts are one lazy
// timer per connection: moving a deadline is a store, and the timer, when it fires, either closes
// the connection or waits again until the deadline now set.
//
// Overload: past the connection cap a new connection is answered 503 and closed; past the
// blocking queue a request is answered 503 at once; a failing accept() pauses before the next.
#include <sys/resource.h>

#include "http/session.h"

#include <filesystem>
#include <thread>

#include "core/cpu_count.h"

namespace parley {

using namespace http_session;

namespace {

// Runs an event loop until it is stopped. A handler that throws is logged and the loop goes on:
// left to escape, the exception would end the thread and with it the process.
void run_loop(net::io_context& ioc) {
  for (;;) {
    try {
      ioc.run();
      return;
    } catch (const std::exception& e) {
      log_error("connection handler failed", {{"error", std::string_view(e.what())}});
    }
  }
}

// One I/O thread's event loop.
struct Worker {
  net::io_context ioc{1};
  net::executor_work_guard<net::io_context::executor_type> guard{ioc.get_executor()};
  // Makes the loop's reactor (its epoll, eventfd and timerfd descriptors) now: Asio makes it on
  // first use, which for a worker can be the first connection it is given, and when descriptors
  // have run out by then, that throws from the accept handler.
  net::steady_timer reactor_made_at_start{ioc};
};

}  // namespace

struct HttpServer::Impl {
  Impl(ServerOptions o, const Router& r, ServerHooks h)
      : shared(std::make_unique<Shared>(std::move(o), r, std::move(h))) {
    if (shared->options.max_connections == 0) shared->options.max_connections = default_max_connections();
    size_t n = shared->options.io_threads;
    if (n == 0) n = usable_cpu_count();
    for (size_t i = 0; i < n; ++i) workers.push_back(std::make_unique<Worker>());
    acceptor.emplace(workers[0]->ioc);
    signals.emplace(workers[0]->ioc, SIGINT, SIGTERM);
  }

  // A Responder a handler still holds lets go of its connection while the event loops exist.
  ~Impl() { shared->deferreds->close(); }

  net::io_context& main() { return workers[0]->ioc; }

  void accept() {
    Worker& w = *workers[next_worker++ % workers.size()];
    acceptor->async_accept(w.ioc, [this, &w](error_code ec, tcp::socket socket) {
      if (ec) {
        if (!acceptor->is_open()) return;
        if (ec == net::error::connection_aborted) return accept();  // that client gave up; next
        return pause_accepting(ec);
      }
      // Sessions are counted here, on the one thread that accepts, so the check cannot race
      // another accept; closing only lowers the counts.
      bool over = shared->connections.load() >= shared->options.max_connections;
      if (over && shared->rejecting.load() >= kMaxRejecting) {
        shared->metrics.connection_refused();
        socket.close(ec);
        return accept();
      }
      socket.set_option(tcp::no_delay(true), ec);
      if (shared->tls) {
        auto s = std::make_shared<Session<ssl::stream<tcp::socket>>>(*shared, over, std::move(socket), *shared->tls);
        net::post(w.ioc, [s] { s->start(); });
      } else {
        auto s = std::make_shared<Session<tcp::socket>>(*shared, over, std::move(socket));
        net::post(w.ioc, [s] { s->start(); });
      }
      accept();
    });
  }

  // accept() failed with no connection to show for it, most often out of descriptors (EMFILE,
  // ENFILE) or buffers (ENOBUFS, ENOMEM): retrying at once would fail again and spin a CPU, so
  // wait a little for descriptors to free up. The pending connection stays in the backlog.
  void pause_accepting(error_code ec) {
    auto now = Clock::now();
    if (!last_accept_warning || now - *last_accept_warning >= std::chrono::seconds(10)) {  // not per try
      last_accept_warning = now;
      log_warn("accept failed; pausing new connections",
               {{"error", std::string_view(ec.message())}, {"pauseMs", int64_t{kAcceptPauseMs}}});
    }
    if (!accept_timer) accept_timer.emplace(main());
    accept_timer->expires_after(std::chrono::milliseconds(kAcceptPauseMs));
    accept_timer->async_wait([this](error_code e) {
      if (e || !acceptor->is_open()) return;
      accept();
    });
  }

  void begin_shutdown() {
    if (shared->draining.exchange(true)) return;
    error_code ec;
    acceptor->close(ec);
    if (accept_timer) accept_timer->cancel();
    deadline = Clock::now() + std::chrono::seconds(shared->options.shutdown_grace_s);
    if (shared->hooks.on_draining) shared->hooks.on_draining();
    drain_timer.emplace(main());
    wait_drained();
  }

  void wait_drained() {
    if (shared->in_flight.load() == 0 || Clock::now() >= deadline) {
      if (shared->in_flight.load() != 0 && shared->hooks.on_grace_spent)
        shared->hooks.on_grace_spent();
      for (auto& w : workers) w->ioc.stop();
      return;
    }
    drain_timer->expires_after(std::chrono::milliseconds(10));
    drain_timer->async_wait([this](error_code) { wait_drained(); });
  }

  std::unique_ptr<Shared> shared;
  std::vector<std::unique_ptr<Worker>> workers;
  std::optional<tcp::acceptor> acceptor;
  std::optional<net::signal_set> signals;
  size_t next_worker = 0;
  static constexpr int kAcceptPauseMs = 100;
  std::optional<Clock::time_point> last_accept_warning;  // accept failures are logged at most every 10 s
  std::optional<net::steady_timer> accept_timer;
  std::optional<net::steady_timer> drain_timer;
  Clock::time_point deadline;
};

size_t default_max_connections(uint64_t nofile_soft_limit, size_t open_now) {
  uint64_t reserve = std::clamp<uint64_t>(nofile_soft_limit / 4, 16, 1024) + open_now;
  if (nofile_soft_limit <= reserve) return 1;
  return static_cast<size_t>(std::min<uint64_t>(nofile_soft_limit - reserve, 1u << 30));
}

size_t default_max_connections() {
  size_t open_now = 0;
  std::error_code ec;
  for (std::filesystem::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end; it.increment(ec)) ++open_now;
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) != 0) return default_max_connections(1024, open_now);
  return default_max_connections(r.rlim_cur == RLIM_INFINITY ? uint64_t{1} << 30 : uint64_t{r.rlim_cur}, open_now);
}

HttpServer::HttpServer(ServerOptions options, const Router& router, ServerHooks hooks)
    : impl_(std::make_unique<Impl>(std::move(options), router, std::move(hooks))) {}

HttpServer::~HttpServer() = default;

uint16_t HttpServer::listen() {
  auto& o = impl_->shared->options;
  if (!o.tls_cert_file.empty() || !o.tls_key_file.empty()) {
    impl_->shared->tls.emplace(ssl::context::tls_server);
    auto& ctx = *impl_->shared->tls;
    ctx.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                    ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
    ctx.use_certificate_chain_file(o.tls_cert_file);
    ctx.use_private_key_file(o.tls_key_file, ssl::context::pem);
  }
  auto address = net::ip::make_address(o.host);
  tcp::endpoint ep(address, o.port);
  auto& a = *impl_->acceptor;
  a.open(ep.protocol());
  a.set_option(net::socket_base::reuse_address(true));
  a.bind(ep);
  a.listen(net::socket_base::max_listen_connections);
  return a.local_endpoint().port();
}

void HttpServer::run() {
  auto& impl = *impl_;
  impl.signals->async_wait([&impl](error_code ec, int) {
    if (!ec) impl.begin_shutdown();
  });
  impl.accept();
  std::vector<std::thread> threads;
  for (size_t i = 1; i < impl.workers.size(); ++i) threads.emplace_back([w = impl.workers[i].get()] { run_loop(w->ioc); });
  run_loop(impl.main());
  for (auto& t : threads) t.join();
  impl.shared->pool.reset();  // finishes any work still queued before sessions are destroyed
  // The Responders handlers still hold (a write queued elsewhere) let go of their connections now.
  impl.shared->deferreds->close();
}

void HttpServer::stop() {
  net::post(impl_->main(), [this] { impl_->begin_shutdown(); });
}

}  // namespace parley
