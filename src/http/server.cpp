// The only translation unit that includes Boost.Beast and Asio.
#include <utility>  // must precede Asio under C++20 with Boost 1.74

#include "http/server.h"

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <atomic>
#include <chrono>
#include <optional>
#include <thread>

#include "core/thread_pool.h"

namespace parley {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using BeastRequest = http::request<http::string_body>;

namespace {

std::string_view lookup_header(const void* native, std::string_view name) {
  const auto& m = *static_cast<const BeastRequest*>(native);
  auto it = m.find(beast::string_view(name.data(), name.size()));
  if (it == m.end()) return {};
  return {it->value().data(), it->value().size()};
}

// State every session shares.
struct Shared {
  Shared(ServerOptions o, const Router& r, ServerHooks h)
      : options(std::move(o)), router(r), hooks(std::move(h)),
        pool(std::make_unique<ThreadPool>(options.blocking_threads)) {}
  ServerOptions options;
  const Router& router;
  ServerHooks hooks;
  std::unique_ptr<ThreadPool> pool;  // reset once the I/O threads have stopped
  std::optional<ssl::context> tls;
  std::atomic<int> in_flight{0};
  std::atomic<bool> draining{false};
};

template <typename Stream>
class Session : public std::enable_shared_from_this<Session<Stream>> {
  static constexpr bool kTls = !std::is_same_v<Stream, beast::tcp_stream>;

 public:
  template <typename... Args>
  Session(Shared& shared, tcp::socket&& socket, Args&&... args)
      : shared_(shared), stream_(std::move(socket), std::forward<Args>(args)...) {}

  void start() {
    auto self = this->shared_from_this();
    net::dispatch(stream_.get_executor(), [self] {
      if constexpr (kTls) {
        beast::get_lowest_layer(self->stream_).expires_after(std::chrono::seconds(self->shared_.options.read_timeout_s));
        self->stream_.async_handshake(ssl::stream_base::server, [self](beast::error_code ec) {
          if (ec) return self->close();
          self->read_header();
        });
      } else {
        self->read_header();
      }
    });
  }

 private:
  void read_header() {
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(shared_.options.header_limit));
    parser_->body_limit(shared_.options.body_limit);
    lowest().expires_after(std::chrono::seconds(shared_.options.idle_timeout_s));
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = this->shared_from_this()](beast::error_code ec, size_t) {
                              self->on_header(ec);
                            });
  }

  void on_header(beast::error_code ec) {
    if (ec) return on_read_error(ec);
    started_ = std::chrono::steady_clock::now();
    auto& msg = parser_->get();
    auto expect = msg[http::field::expect];
    if (beast::iequals(expect, "100-continue") && !parser_->is_done()) {
      static const std::string kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
      net::async_write(stream_, net::buffer(kContinue),
                       [self = this->shared_from_this()](beast::error_code ec, size_t) {
                         if (ec) return self->close();
                         self->read_body();
                       });
      return;
    }
    read_body();
  }

  void read_body() {
    lowest().expires_after(std::chrono::seconds(shared_.options.read_timeout_s));
    http::async_read(stream_, buffer_, *parser_,
                     [self = this->shared_from_this()](beast::error_code ec, size_t) {
                       if (ec) return self->on_read_error(ec);
                       self->process();
                     });
  }

  void on_read_error(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == net::error::eof || ec == beast::error::timeout ||
        ec == net::error::operation_aborted || ec == net::error::connection_reset) {
      return close();
    }
    if (started_ == std::chrono::steady_clock::time_point{}) started_ = std::chrono::steady_clock::now();
    keep_alive_ = false;
    prepare_request();
    if (ec == http::error::body_limit) {
      return reply_error({ErrorCode::kPayloadTooLarge, "The request body exceeds the limit of " +
                                                           std::to_string(shared_.options.body_limit) + " bytes."});
    }
    if (ec == http::error::header_limit) {
      return reply_error({ErrorCode::kHeadersTooLarge, "The request headers exceed the limit of " +
                                                           std::to_string(shared_.options.header_limit) + " bytes."});
    }
    reply_error(ApiError::invalid("Malformed HTTP request."));
  }

  // Fills request_ from the parsed message (also after a failed read, for the error reply).
  void prepare_request() {
    auto& msg = parser_->get();
    target_ = std::string(msg.target());
    method_ = std::string(msg.method_string());
    std::string_view t = target_;
    size_t q = t.find('?');
    request_.method = method_;
    // Path parameters are matched decoded, so an id sent percent-encoded names the same item.
    path_ = path_decode(t.substr(0, q));
    request_.path = path_;
    request_.query = q == std::string_view::npos ? std::string_view() : t.substr(q + 1);
    request_.set_header_source(&msg, &lookup_header);
    request_.request_id = shared_.hooks.new_request_id();
    if (remote_address_.empty()) {
      beast::error_code ec;
      auto ep = lowest().socket().remote_endpoint(ec);
      remote_address_ = ec ? std::string("unknown") : ep.address().to_string();
    }
    request_.remote_address = remote_address_;
  }

  void process() {
    keep_alive_ = parser_->get().keep_alive();
    prepare_request();
    request_.body = std::move(parser_->get().body());
    shared_.in_flight++;
    counted_ = true;
    // HEAD is GET without the body (RFC 9110 9.3.2); send() drops the body.
    std::string_view route_method = request_.method == "HEAD" ? "GET" : request_.method;
    auto m = shared_.router.match(route_method, request_.path, request_.params);
    if (m.outcome == Router::Outcome::kNoPath) {
      return reply_error(ApiError::not_found("No route matches " + std::string(request_.method) + " " +
                                             std::string(request_.path) + "."));
    }
    if (m.outcome == Router::Outcome::kNoMethod) {
      auto r = shared_.hooks.on_error({ErrorCode::kMethodNotAllowed, "Method " + std::string(request_.method) +
                                                                         " is not allowed here; use " + m.allow + "."},
                                      request_);
      r.header("Allow", m.allow);
      return send(std::move(r));
    }
    const RouteTarget* target = m.target;
    if (target->execution == Execution::kInline) {
      Response r = call(*target);
      if (!r.stream) return send(std::move(r));
      auto self = this->shared_from_this();
      shared_.pool->post([self, r = std::move(r)]() mutable { self->stream_response(std::move(r)); });
      return;
    }
    auto self = this->shared_from_this();
    shared_.pool->post([self, target] {
      Response r = self->call(*target);
      if (r.stream) return self->stream_response(std::move(r));
      net::post(self->stream_.get_executor(), [self, r = std::move(r)]() mutable { self->send(std::move(r)); });
    });
  }

  Response call(const RouteTarget& target) {
    try {
      return target.handler(request_);
    } catch (const std::exception&) {
      return shared_.hooks.on_error(ApiError::internal("The server failed to handle the request."), request_);
    }
  }

  void reply_error(const ApiError& error) { send(shared_.hooks.on_error(error, request_)); }

  void fill_headers(http::response_header<>& h, const Response& r) {
    h.result(static_cast<unsigned>(r.status));
    h.version(11);
    h.set(http::field::content_type, r.content_type);
    h.set("X-Request-Id", request_.request_id);
    for (auto& [k, v] : r.headers) h.set(k, v);
    if (!keep_alive_ || shared_.draining) h.set(http::field::connection, "close");
  }

  void send(Response r) {
    res_.emplace();
    fill_headers(res_->base(), r);
    res_->body() = std::move(r.body);
    res_->keep_alive(keep_alive_ && !shared_.draining);
    res_->prepare_payload();
    if (method_ == "HEAD") res_->body().clear();  // Content-Length stays that of the GET body
    status_ = r.status;
    http::async_write(stream_, *res_, [self = this->shared_from_this()](beast::error_code ec, size_t) {
      self->after_response(!ec && self->res_->keep_alive());
    });
  }

  // Runs on a pool thread; the session has no other operation pending, so synchronous writes on
  // the stream are safe.
  void stream_response(Response r) {
    status_ = r.status;
    http::response<http::empty_body> h;
    fill_headers(h.base(), r);
    h.chunked(true);
    bool alive = keep_alive_ && !shared_.draining;
    h.keep_alive(alive);
    http::response_serializer<http::empty_body> sr{h};
    beast::error_code ec;
    http::write_header(stream_, sr, ec);
    struct Writer final : ChunkWriter {
      Stream& s;
      beast::error_code& ec;
      Writer(Stream& s, beast::error_code& ec) : s(s), ec(ec) {}
      bool aborted = false;
      bool write(std::string_view chunk) override {
        if (ec || aborted) return false;
        if (chunk.empty()) return true;
        net::write(s, http::make_chunk(net::const_buffer(chunk.data(), chunk.size())), ec);
        return !ec;
      }
      void abort() override { aborted = true; }
    } writer(stream_, ec);
    if (!ec) r.stream(writer);
    if (!ec && !writer.aborted) net::write(stream_, http::make_chunk_last(), ec);
    auto self = this->shared_from_this();
    bool ok = !ec && !writer.aborted;
    net::post(stream_.get_executor(), [self, ok, alive] { self->after_response(ok && alive); });
  }

  void after_response(bool keep_going) {
    if (counted_) {
      shared_.in_flight--;
      counted_ = false;
    }
    if (shared_.hooks.on_logged) {
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_).count();
      shared_.hooks.on_logged({request_.method, request_.path, status_, ms, request_.request_id,
                               request_.remote_address});
    }
    res_.reset();
    request_ = Request();
    started_ = {};
    if (!keep_going || shared_.draining) return close();
    read_header();
  }

  void close() {
    beast::error_code ec;
    lowest().socket().shutdown(tcp::socket::shutdown_both, ec);
    lowest().close();
  }

  beast::tcp_stream& lowest() { return beast::get_lowest_layer(stream_); }

  Shared& shared_;
  Stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::optional<http::response<http::string_body>> res_;
  Request request_;
  std::string target_;
  std::string method_;
  std::string path_;
  std::string remote_address_;  // the peer's address, looked up once per connection
  bool keep_alive_ = true;
  bool counted_ = false;
  int status_ = 0;
  std::chrono::steady_clock::time_point started_{};
};

}  // namespace

struct HttpServer::Impl {
  Impl(ServerOptions o, const Router& r, ServerHooks h)
      : shared(std::make_unique<Shared>(std::move(o), r, std::move(h))),
        ioc(static_cast<int>(threads())),
        acceptor(net::make_strand(ioc)),
        signals(ioc, SIGINT, SIGTERM) {}

  size_t threads() const {
    size_t n = shared->options.io_threads;
    if (n == 0) n = std::max(1u, std::thread::hardware_concurrency());
    return n;
  }

  void accept() {
    acceptor.async_accept(net::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
      if (ec) {
        if (!acceptor.is_open()) return;
        return accept();
      }
      socket.set_option(tcp::no_delay(true), ec);
      if (shared->tls) {
        std::make_shared<Session<beast::ssl_stream<beast::tcp_stream>>>(*shared, std::move(socket), *shared->tls)->start();
      } else {
        std::make_shared<Session<beast::tcp_stream>>(*shared, std::move(socket))->start();
      }
      accept();
    });
  }

  void begin_shutdown() {
    if (shared->draining.exchange(true)) return;
    beast::error_code ec;
    acceptor.close(ec);
    deadline = std::chrono::steady_clock::now() + std::chrono::seconds(shared->options.shutdown_grace_s);
    drain_timer.emplace(ioc);
    wait_drained();
  }

  void wait_drained() {
    if (shared->in_flight.load() == 0 || std::chrono::steady_clock::now() >= deadline) {
      ioc.stop();
      return;
    }
    drain_timer->expires_after(std::chrono::milliseconds(10));
    drain_timer->async_wait([this](beast::error_code) { wait_drained(); });
  }

  std::unique_ptr<Shared> shared;
  net::io_context ioc;
  tcp::acceptor acceptor;
  net::signal_set signals;
  std::optional<net::steady_timer> drain_timer;
  std::chrono::steady_clock::time_point deadline;
};

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
  auto& a = impl_->acceptor;
  a.open(ep.protocol());
  a.set_option(net::socket_base::reuse_address(true));
  a.bind(ep);
  a.listen(net::socket_base::max_listen_connections);
  return a.local_endpoint().port();
}

void HttpServer::run() {
  auto& impl = *impl_;
  impl.signals.async_wait([&impl](beast::error_code ec, int) {
    if (!ec) impl.begin_shutdown();
  });
  impl.accept();
  std::vector<std::thread> threads;
  size_t n = impl.threads();
  for (size_t i = 1; i < n; ++i) threads.emplace_back([&impl] { impl.ioc.run(); });
  impl.ioc.run();
  for (auto& t : threads) t.join();
  impl.shared->pool.reset();  // finishes any work still queued before sessions are destroyed
}

void HttpServer::stop() {
  net::post(impl_->ioc, [this] { impl_->begin_shutdown(); });
}

}  // namespace parley
