// One HTTP connection: reading requests with the deadlines, limits and lingering close the server
// promises, routing each to its handler (inline or on the blocking pool), writing responses and
// streams. Internal to src/http: only server.cpp includes it (it brings Asio and Beast with it).
// A session lives on one I/O thread, so its handlers never run concurrently; `Shared` is the state
// every session of one server reads, with atomics where sessions write.
#pragma once

#include <sys/socket.h>

#include <utility>  // must precede Asio under C++20 with Boost 1.74

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/error.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/crypto.h"
#include "core/log.h"
#include "core/thread_pool.h"
#include "http/deferred_answers.h"
#include "http/metrics.h"
#include "http/request_reader.h"
#include "http/server.h"
#include "http/wire.h"

namespace parley::http_session {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using error_code = boost::system::error_code;

std::vector<std::string> metric_routes(const Router& router) {
  auto names = router.route_names();
  names.push_back("GET /metrics");
  return names;
}

// State every session shares.
struct Shared {
  Shared(ServerOptions o, const Router& r, ServerHooks h)
      : options(std::move(o)),
        router(r),
        hooks(std::move(h)),
        metrics(metric_routes(r)),
        metrics_route(metrics.unmatched() - 1),
        pool(std::make_unique<ThreadPool>(options.blocking_threads)),
        body_limits(r, options.body_limit, options.large_body_budget, large_bodies_in_flight) {}
  ServerOptions options;
  const Router& router;
  ServerHooks hooks;
  HttpMetrics metrics;
  size_t metrics_route;  // the series of GET /metrics itself
  std::unique_ptr<ThreadPool> pool;  // reset once the I/O threads have stopped
  std::optional<ssl::context> tls;
  std::atomic<int> in_flight{0};
  std::atomic<bool> draining{false};
  std::atomic<size_t> connections{0};  // sessions serving requests (counted against the cap)
  std::atomic<size_t> rejecting{0};    // sessions answering 503 past the cap
  std::atomic<uint64_t> large_bodies_in_flight{0};  // bytes of the large-body budget taken
  BodyLimits body_limits;
  // The deferred answers handed out; closed when the server stops (see deferred_registry.h).
  std::shared_ptr<DeferredRegistry> deferreds = std::make_shared<DeferredRegistry>();
};

// A 503 for an overload limit, with Retry-After.
Response unavailable(Shared& shared, Request& request, std::string message) {
  Response r = shared.hooks.on_error({ErrorCode::kUnavailable, std::move(message)}, request);
  r.header("Retry-After", "1");
  return r;
}

template <typename Stream>
class Session : public std::enable_shared_from_this<Session<Stream>>, public DeferredAnswers<Session<Stream>> {
  static constexpr bool kTls = !std::is_same_v<Stream, tcp::socket>;
  static constexpr size_t kReadSize = 8 * 1024;

 public:
  // `over_capacity`: the connection is past the cap and only gets a 503.
  template <typename... Args>
  Session(Shared& shared, bool over_capacity, tcp::socket&& socket, Args&&... args)
      : shared_(shared), stream_(std::move(socket), std::forward<Args>(args)...), timer_(socket_().get_executor()),
        over_capacity_(over_capacity) {
    shared_.metrics.connection_opened();
    (over_capacity_ ? shared_.rejecting : shared_.connections)++;
  }
  ~Session() {
    shared_.metrics.connection_closed();
    (over_capacity_ ? shared_.rejecting : shared_.connections)--;
  }

  // Runs on the connection's own I/O thread.
  void start() {
    deadline_ = Clock::now() + std::chrono::seconds(shared_.options.read_timeout_s);
    wait_deadline();
    if constexpr (kTls) {
      stream_.async_handshake(ssl::stream_base::server, [self = this->shared_from_this()](error_code ec) {
        if (ec) return self->close();
        self->first_request();
      });
    } else {
      first_request();
    }
  }

 private:
  tcp::socket& socket_() {
    if constexpr (kTls) {
      return stream_.next_layer();
    } else {
      return stream_;
    }
  }

  // The lazy deadline timer: it wakes at the deadline it last saw and compares with the current one.
  // While a handler runs there is no deadline, and the timer only looks again every read timeout.
  void wait_deadline() {
    auto at = deadline_ == Clock::time_point::max()
                  ? Clock::now() + std::chrono::seconds(shared_.options.read_timeout_s)
                  : deadline_;
    timer_at_ = at;
    timer_.expires_at(at);
    timer_.async_wait([self = this->shared_from_this()](error_code ec) {
      if (ec || self->closed_) return;
      auto now = Clock::now();
      if (now >= self->deadline_) return self->close();
      self->wait_deadline();
    });
  }

  // Moves the deadline earlier than the timer would look (the lazy timer only notices later
  // deadlines in time): the timer is set again. Used where the time bound is the point.
  void tighten_deadline(Clock::time_point at) {
    deadline_ = at;
    if (at < timer_at_ && !closed_) wait_deadline();  // cancels the wait under way
  }

  void first_request() {
    if (!over_capacity_) return next_request();
    // Answered without reading the request, which the lingering close then drains.
    shared_.metrics.connection_refused();
    started_ = Clock::now();
    route_ = shared_.metrics.unmatched();
    keep_alive_ = false;
    linger_ = true;
    prepare_request();
    send(unavailable(shared_, request_,
                     "The server has reached its limit of " + std::to_string(shared_.options.max_connections) +
                         " connections (max_connections); retry later."));
  }

  void next_request(Clock::time_point now = Clock::now()) {
    request_deadline_ = Clock::time_point::max();
    message_.clear();
    parser_.emplace(message_, shared_.body_limits);
    parser_->header_limit(static_cast<std::uint32_t>(shared_.options.header_limit));
    parser_->eager(true);
    continue_sent_ = false;
    if (begin_ < end_) return parse();  // a pipelined request is already here
    read_more(now);
  }

  // `now` is the caller's clock reading when it has a fresh one (saves a clock call per request).
  void read_more(Clock::time_point now = Clock::now()) {
    if (begin_ == end_) begin_ = end_ = 0;
    if (in_.size() - end_ < kReadSize / 2) {
      if (begin_ > 0) {
        std::memmove(in_.data(), in_.data() + begin_, end_ - begin_);
        end_ -= begin_;
        begin_ = 0;
      }
      if (in_.size() - end_ < kReadSize / 2) in_.resize(std::max(in_.size() * 2, kReadSize));
    }
    bool idle = !parser_->got_some() && begin_ == end_;
    if (idle) {
      deadline_ = now + std::chrono::seconds(shared_.options.idle_timeout_s);
    } else {
      // The read timeout bounds the whole request from its first byte, so a client trickling
      // its headers or body cannot hold the connection by sending a byte now and then.
      if (request_deadline_ == Clock::time_point::max()) {
        request_deadline_ = now + std::chrono::seconds(shared_.options.read_timeout_s);
        tighten_deadline(request_deadline_);
      }
      deadline_ = request_deadline_;
    }
    stream_.async_read_some(net::buffer(in_.data() + end_, in_.size() - end_),
                            [self = this->shared_from_this()](error_code ec, size_t n) { self->on_read(ec, n); });
  }

  void on_read(error_code ec, size_t n) {
    if (ec) {
      if (closed_) return;
      bool partial = parser_->got_some() || begin_ < end_;
      if (ec == net::error::eof && partial) {
        error_code eof_ec;
        parser_->put_eof(eof_ec);
        if (eof_ec) return fail(eof_ec);
      }
      return close();
    }
    end_ += n;
    parse();
  }

  void parse() {
    error_code ec;
    size_t used = parser_->put(net::buffer(in_.data() + begin_, end_ - begin_), ec);
    begin_ += used;
    if (ec && ec != http::error::need_more) return fail(ec);
    if (parser_->is_done()) return process();
    // The client waits for this before it sends the body (RFC 9110 10.1.1).
    if (parser_->is_header_done() && !continue_sent_ && expects_continue()) {
      continue_sent_ = true;
      static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
      net::async_write(stream_, net::buffer(kContinue.data(), kContinue.size()),
                       [self = this->shared_from_this()](error_code ec, size_t) {
                         if (ec) return self->close();
                         self->read_more();
                       });
      return;
    }
    read_more();
  }

  bool expects_continue() const {
    std::string_view expect = message_.header("Expect");
    return beast::iequals(beast::string_view(expect.data(), expect.size()), "100-continue");
  }

  // A request the parser refused: answered, then the connection is closed (lingering, as the
  // client may still be sending the rest).
  void fail(error_code ec) {
    started_ = Clock::now();
    route_ = shared_.metrics.unmatched();
    handled_inline_ = true;
    keep_alive_ = false;
    linger_ = true;
    prepare_request();
    if (ec == http::error::body_limit && parser_->over_budget()) {
      return send(unavailable(shared_, request_,
                              "The server is receiving as many large uploads as it holds at once "
                              "(large_body_budget); retry shortly."));
    }
    if (ec == http::error::body_limit) {
      return reply_error({ErrorCode::kPayloadTooLarge,
                          "The request body exceeds the limit of " +
                              std::to_string(parser_->request_body_limit()) + " bytes."});
    }
    if (ec == http::error::header_limit) {
      return reply_error({ErrorCode::kHeadersTooLarge, "The request headers exceed the limit of " +
                                                           std::to_string(shared_.options.header_limit) + " bytes."});
    }
    reply_error(ApiError::invalid("Malformed HTTP request."));
  }

  // Fills request_ from the parsed message (also after a failed parse, for the error reply).
  void prepare_request() {
    std::string_view t = message_.target;
    size_t q = t.find('?');
    request_.method = message_.method;
    // Routing sees the path as sent: decoding first would let "/%6detrics" reach /metrics past a
    // proxy's rule on the literal path. Path parameters are decoded after the match.
    request_.path = t.substr(0, q);
    request_.query = q == std::string_view::npos ? std::string_view() : t.substr(q + 1);
    request_.set_header_source(&message_, &lookup_message_header);
    request_.request_id.clear();
    shared_.hooks.new_request_id(request_.request_id);
    if (remote_address_.empty()) {
      error_code ec;
      auto ep = socket_().remote_endpoint(ec);
      remote_address_ = ec ? std::string("unknown") : ep.address().to_string();
    }
    request_.remote_address = remote_address_;
  }

  void process() {
    started_ = Clock::now();
    handled_inline_ = true;
    deadline_ = Clock::time_point::max();  // the handler's time is not the client's
    keep_alive_ = parser_->keep_alive();
    prepare_request();
    request_.body.swap(message_.body);  // both keep their storage for the next request
    shared_.in_flight++;
    counted_ = true;
    // HEAD is GET without the body (RFC 9110 9.3.2); send() drops the body.
    std::string_view route_method = request_.method == "HEAD" ? "GET" : request_.method;
    route_ = shared_.metrics.unmatched();
    if (std::string fault = message_.header_fault(); !fault.empty())
      return reply_error(ApiError::invalid(fault));
    if (request_.path == "/metrics") return serve_metrics(route_method);
    request_.received_at = started_;
    auto m = shared_.router.match(route_method, request_.path, request_.params);
    route_ = m.outcome == Router::Outcome::kFound ? m.route : shared_.metrics.unmatched();
    if (m.outcome == Router::Outcome::kFound) decode_params();
    if (m.outcome == Router::Outcome::kNoPath) {
      return reply_error(ApiError::not_found("No route matches " + std::string(request_.method) + " " +
                                             std::string(request_.path) + "."));
    }
    if (m.outcome == Router::Outcome::kNoMethod) return reply_method_not_allowed(std::move(m.allow));
    const RouteTarget* target = m.target;
    size_t queue = shared_.options.blocking_queue;
    if (target->execution == Execution::kInline) {
      Response r = call(*target);
      if (r.finish_on_pool) return finish_on_pool(std::move(r));
      if (r.deferred) return this->adopt_deferred(std::move(r));
      return send(std::move(r));
    }
    handled_inline_ = false;
    bool posted = shared_.pool->try_post([self = this->shared_from_this(), target] {
      Response r = self->call(*target);
      net::post(self->socket_().get_executor(), [self, r = std::move(r)]() mutable { self->answer(std::move(r)); });
    }, queue);
    if (!posted) {
      handled_inline_ = true;
      reply_busy();
    }
  }

  // The rest of an inline handler's work, on the pool (Response::finish_on_pool); the inline
  // response's headers (the gate chain's) are added to the final one.
  void finish_on_pool(Response first) {
    handled_inline_ = false;
    auto held = std::make_shared<Response>(std::move(first));
    bool posted = shared_.pool->try_post([self = this->shared_from_this(), held] {
      Response r;
      try {
        r = held->finish_on_pool();
      } catch (const std::exception&) {
        r = self->shared_.hooks.on_error(ApiError::internal("The server failed to handle the request."),
                                         self->request_);
      }
      for (auto& h : held->headers) r.headers.push_back(std::move(h));
      net::post(self->socket_().get_executor(), [self, r = std::move(r)]() mutable { self->answer(std::move(r)); });
    }, shared_.options.blocking_queue);
    if (!posted) {
      handled_inline_ = true;
      reply_busy(held->headers);
    }
  }

  // Every blocking thread is taken and the queue is full: a prompt 503 beats an unbounded wait.
  // `headers` are those a handler already gave its answer (the gate chain's rate-limit headers).
  void reply_busy(const std::vector<std::pair<std::string_view, std::string>>& headers = {}) {
    shared_.metrics.request_refused_busy();
    Response r = unavailable(shared_, request_,
                             "The server is busy: every worker is taken and its queue of " +
                                 std::to_string(shared_.options.blocking_queue) +
                                 " waiting requests (blocking_queue) is full; retry shortly.");
    r.headers.insert(r.headers.end(), headers.begin(), headers.end());
    send(std::move(r));
  }

  // Decodes %XX in the matched path parameters, so an id sent percent-encoded names the same
  // item. The decoded text is never longer than the path, so reserving that much keeps the views
  // into params_text_ valid.
  void decode_params() {
    bool encoded = false;
    for (auto p : request_.params) encoded = encoded || p.find('%') != std::string_view::npos;
    if (!encoded) return;
    params_text_.clear();
    params_text_.reserve(request_.path.size());
    for (auto& p : request_.params) {
      if (p.find('%') == std::string_view::npos) continue;
      size_t at = params_text_.size();
      params_text_ += path_decode(p);
      p = std::string_view(params_text_.data() + at, params_text_.size() - at);
    }
  }

  void serve_metrics(std::string_view method) {
    if (method != "GET") return reply_method_not_allowed("GET, HEAD");
    route_ = shared_.metrics_route;
    if (const std::string& token = shared_.options.metrics_token; !token.empty()) {
      std::string_view given = request_.header("Authorization");
      constexpr std::string_view kBearer = "Bearer ";
      bool bearer = given.size() > kBearer.size() && given.substr(0, kBearer.size()) == kBearer;
      if (!bearer || !constant_time_equal(given.substr(kBearer.size()), token)) {
        return reply_error({ErrorCode::kUnauthorized,
                            "GET /metrics needs the metrics token as a Bearer credential."});
      }
    }
    Response r;
    r.content_type = "text/plain; version=0.0.4; charset=utf-8";
    shared_.metrics.write(r.body, shared_.in_flight.load(), static_cast<int64_t>(shared_.pool->waiting()));
    if (shared_.hooks.more_metrics) shared_.hooks.more_metrics(r.body);
    send(std::move(r));
  }

  Response call(const RouteTarget& target) {
    try {
      return target.handler(request_);
    } catch (const std::exception&) {
      return shared_.hooks.on_error(ApiError::internal("The server failed to handle the request."), request_);
    }
  }

  void reply_error(const ApiError& error) { send(shared_.hooks.on_error(error, request_)); }

  // 405 with the methods the path takes ("GET, POST") in the message and in Allow.
  void reply_method_not_allowed(std::string allow) {
    auto r = shared_.hooks.on_error(
        {ErrorCode::kMethodNotAllowed, "Method " + std::string(request_.method) + " is not allowed here; use " + allow + "."},
        request_);
    r.header("Allow", std::move(allow));
    send(std::move(r));
  }

  bool keep_alive() const { return keep_alive_ && !shared_.draining; }

  ResponseHead head_of(const Response& r, bool alive) const {
    ResponseHead h;
    h.status = r.status;
    h.content_type = status_has_body(r.status) ? std::string_view(r.content_type) : std::string_view();
    h.request_id = request_.request_id;
    h.headers = &r.headers;
    h.close = !alive;
    h.http10_keep_alive = alive && message_.version < 11;
    h.hsts = kTls;
    return h;
  }

  void send(Response r) {
    status_ = r.status;
    bool alive = keep_alive();
    ResponseHead h = head_of(r, alive);
    h.content_length = r.body.size();
    out_.clear();
    write_response_head(out_, h);
    body_ = std::move(r.body);
    bool with_body = status_has_body(r.status) && request_.method != "HEAD";
    std::array<net::const_buffer, 2> buffers{net::buffer(out_), net::buffer(body_.data(), with_body ? body_.size() : 0)};
    // An inline handler has just run, so the request's start time is fresh enough.
    deadline_ = (handled_inline_ ? started_ : Clock::now()) + std::chrono::seconds(shared_.options.read_timeout_s);
    net::async_write(stream_, buffers, [self = this->shared_from_this(), alive](error_code ec, size_t) {
      self->after_response(!ec && alive);
    });
  }

  // A handler's response, on the connection's thread: sent now, or later (Response::later).
  void answer(Response r) {
    if (r.deferred) return this->adopt_deferred(std::move(r));
    send(std::move(r));
  }

 private:
  friend class DeferredAnswers<Session>;
  friend class DeferredResponder<Session>;

  void after_response(bool keep_going) {
    this->end_deferred();
    if (counted_) {
      shared_.in_flight--;
      counted_ = false;
    }
    auto now = Clock::now();
    double seconds = std::chrono::duration<double>(now - started_).count();
    shared_.metrics.record(route_, status_, seconds);
    if (shared_.hooks.on_logged) {
      double ms = seconds * 1000;
      shared_.hooks.on_logged({request_.method, request_.path, status_, ms, request_.request_id,
                               request_.remote_address});
    }
    reset_request();
    if (!keep_going || shared_.draining) return linger_ ? linger() : close();
    next_request(now);
  }

  // The lingering close (as nginx's lingering_close): the reply has been written; stop writing,
  // then read and drop what the client still sends until it closes, linger_bytes have come, or
  // linger_ms have passed. The client, which may write its whole body before reading, then
  // finds the reply instead of a reset connection.
  void linger() {
    if (closed_) return;
    linger_left_ = shared_.options.linger_bytes;
    error_code ec;
    socket_().shutdown(tcp::socket::shutdown_send, ec);
    if (ec || linger_left_ == 0 || shared_.options.linger_ms <= 0) return close();
    tighten_deadline(Clock::now() + std::chrono::milliseconds(shared_.options.linger_ms));
    if (in_.size() < kReadSize) in_.resize(kReadSize);
    linger_read();
  }

  void linger_read() {
    // Raw bytes, under TLS too: they are dropped unread.
    socket_().async_read_some(net::buffer(in_.data(), std::min(in_.size(), linger_left_)),
                              [self = this->shared_from_this()](error_code ec, size_t n) {
                                if (ec || n >= self->linger_left_) return self->close();
                                self->linger_left_ -= n;
                                self->linger_read();
                              });
  }

  // Empties request_ for the next request, keeping the storage of its strings unless a large
  // body made it big.
  void reset_request() {
    constexpr size_t kKeep = 64 * 1024;
    request_.method = {};
    request_.path = {};
    request_.query = {};
    request_.params.clear();
    if (request_.body.capacity() > kKeep) std::string().swap(request_.body);
    if (message_.body.capacity() > kKeep) std::string().swap(message_.body);
    request_.body.clear();
    request_.set_header_source(nullptr, [](const void*, std::string_view) { return std::string_view(); });
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    timer_.cancel();
    this->closing_deferred();
    error_code ec;
    socket_().shutdown(tcp::socket::shutdown_both, ec);
    socket_().close(ec);
  }

  Shared& shared_;
  Stream stream_;
  net::steady_timer timer_;
  Clock::time_point deadline_ = Clock::time_point::max();
  Clock::time_point timer_at_ = Clock::time_point::max();  // when the timer will next look
  std::vector<char> in_;  // bytes read and not yet parsed are [begin_, end_)
  size_t begin_ = 0;
  size_t end_ = 0;
  Message message_;
  std::optional<RequestParser> parser_;
  bool continue_sent_ = false;
  std::string out_;   // the response head being written
  std::string body_;  // the response body being written
  Request request_;
  std::string params_text_;  // decoded path parameters, when any was percent-encoded
  std::string remote_address_;  // the peer's address, looked up once per connection
  size_t route_ = 0;  // the metrics series of the request being answered
  bool keep_alive_ = true;
  bool over_capacity_ = false;  // past the connection cap: answered 503 and closed
  bool linger_ = false;         // close with linger(): the request may not have been read whole
  size_t linger_left_ = 0;
  Clock::time_point request_deadline_ = Clock::time_point::max();  // the current request's, once begun
  bool handled_inline_ = true;  // false while a pool thread runs the handler
  bool counted_ = false;
  bool closed_ = false;
  int status_ = 0;
  Clock::time_point started_{};
};

}  // namespace parley::http_session
