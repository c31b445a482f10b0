// Reading a request: Beast's parser feeding a Message, whose storage is reused from request to
// request so that a kept-alive connection stops allocating once it has seen its largest request.
// Included only by the HTTP server (it brings in Beast's parser).
#pragma once

#include <boost/beast/http/basic_parser.hpp>

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "http/router.h"

namespace parley {

// One parsed request: method, target, headers and body.
struct Message {
  struct Field {
    uint32_t name_at, name_size, value_at, value_size;
  };
  std::string method;
  std::string target;
  std::string text;  // header names and values, back to back
  std::vector<Field> fields;
  std::string body;
  int version = 11;

  void clear();
  // The first header of that name (case-insensitive), or empty.
  std::string_view header(std::string_view name) const;
  // Why the request's headers cannot be read one way only, or empty: an HTTP/1.1 request without
  // Host (RFC 9112 3.2), or a header that holds one value sent twice (Host, Authorization,
  // Content-Type, Idempotency-Key), which two readers of the request could each take differently.
  std::string header_fault() const;
};

// Request::HeaderLookup over a Message.
std::string_view lookup_message_header(const void* message, std::string_view name);

// How large a request body may be: the server's limit, or its route's own
// (RouteTarget::body_limit); and the budget of bodies beyond the server's limit held at once.
// Built once per server; `large_in_flight` is shared by every session.
struct BodyLimits {
  const Router* router = nullptr;
  uint64_t server = 1024 * 1024;
  uint64_t largest = 1024 * 1024;   // of the server and every route
  uint64_t smallest = 1024 * 1024;  // of the server and every route that has its own
  uint64_t large_budget = 0;        // bytes of bodies past `server` held at once; 0: no budget
  std::atomic<uint64_t>* large_in_flight = nullptr;

  BodyLimits() = default;
  BodyLimits(const Router& r, uint64_t server_limit, uint64_t budget,
             std::atomic<uint64_t>& in_flight)
      : router(&r),
        server(server_limit),
        largest(r.largest_body_limit(server_limit)),
        smallest(r.smallest_body_limit(server_limit)),
        large_budget(budget),
        large_in_flight(&in_flight) {}
};

// Beast's request parser, feeding a Message. Made anew for each request (Beast's parsers cannot
// be reset); it owns no storage of its own. Once the headers are in, the request's body limit is
// decided (its route's, when the route has its own) and a Content-Length beyond it fails the
// parse with body_limit before a byte of the body is read; a chunked body fails as soon as it
// passes the limit. A body past the server's limit (a route that takes files) is counted against
// the large-body budget from then until the parser is destroyed (the next request, or the
// connection's end); when the budget has no room the parse fails at once and over_budget() says so.
class RequestParser final : public boost::beast::http::basic_parser<true> {
 public:
  using error_code = boost::beast::error_code;
  using string_view = boost::beast::string_view;
  RequestParser(Message& m, const BodyLimits& limits)
      : m_(m), limits_(limits), limit_(limits.server) {
    body_limit(limits.largest);
  }
  ~RequestParser() override;
  RequestParser(const RequestParser&) = delete;
  RequestParser& operator=(const RequestParser&) = delete;
  // True when the body_limit failure was the large-body budget's, not the body's size.
  bool over_budget() const { return over_budget_; }
  // The limit this request's body is held to (for the 413's message).
  uint64_t request_body_limit() const { return decided_ ? limit_ : route_limit(); }

 private:
  void on_request_impl(boost::beast::http::verb, string_view method, string_view target, int version,
                       error_code&) override;
  void on_response_impl(int, string_view, int, error_code&) override {}
  void on_field_impl(boost::beast::http::field, string_view name, string_view value, error_code&) override;
  void on_header_impl(error_code& ec) override;
  void on_body_init_impl(const boost::optional<std::uint64_t>& length, error_code&) override;
  size_t on_body_impl(string_view s, error_code&) override;
  void on_chunk_header_impl(std::uint64_t, string_view, error_code&) override {}
  size_t on_chunk_body_impl(std::uint64_t, string_view s, error_code&) override;
  void on_finish_impl(error_code&) override {}

  // The limit of the route the request line names (the server's when it takes no more).
  uint64_t route_limit() const;

  Message& m_;
  const BodyLimits& limits_;
  uint64_t limit_;
  bool decided_ = false;  // limit_ is this request's (set once the headers are in)
  uint64_t reserved_ = 0;  // of the large-body budget, given back by the destructor
  bool over_budget_ = false;
};

}  // namespace parley
