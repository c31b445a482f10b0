// Fuzzes the HTTP request reader: bytes off a connection, in reads of a size the input chooses,
// through Beast's parser into a Message with the server's header and body limits (and routes with
// body limits of their own, above and below the server's, under a large-body budget), one request
// after another as on a kept-alive connection. Each parsed request is then prepared as the server
// prepares it (path decoding, query parameters, header lookups) and matched against routes.
#include <utility>  // must precede Asio under C++20 with Boost 1.74

#include <boost/asio/buffer.hpp>
#include <boost/beast/http/error.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "http/message.h"
#include "http/request_reader.h"
#include "http/router.h"
#include "fuzz_check.h"

namespace {

using namespace parley;

constexpr size_t kHeaderLimit = 16 * 1024;  // the server's defaults (http/server.h)
constexpr size_t kBodyLimit = 64 * 1024;    // smaller than the server's, to reach it
constexpr size_t kLargeBudget = 200 * 1024;  // room for one upload of the route below at a time

const Router& routes() {
  static const Router router = [] {
    Router r;
    for (const char* pattern : {"/api/v1/agents/{agentId}", "/api/v1/agents/{agentId}/chat",
                                "/api/v1/contacts/{contactId}", "/widget/v1/conversations/{id}/form",
                                "/healthz"}) {
      r.add("GET", pattern, {[](Request&) { return Response{}; }, Execution::kInline});
      r.add("POST", pattern, {[](Request&) { return Response{}; }, Execution::kPool});
    }
    // Routes with limits of their own, above and below the server's.
    r.add("POST", "/console/v1/agents/{agentId}/contacts/import",
          {[](Request&) { return Response{}; }, Execution::kPool, 128 * 1024});
    r.add("POST", "/widget/v1/small", {[](Request&) { return Response{}; }, Execution::kPool, 512});
    return r;
  }();
  return router;
}

void prepare(const Message& m) {
  std::string_view target = m.target;
  size_t q = target.find('?');
  Request req;
  req.method = m.method;
  std::string path = path_decode(target.substr(0, q));
  req.path = path;
  req.query = q == std::string_view::npos ? std::string_view() : target.substr(q + 1);
  req.set_header_source(&m, &lookup_message_header);
  for (const char* name : {"Host", "Content-Type", "Authorization", "Origin", "Expect"})
    (void)req.header(name);
  for (const char* name : {"limit", "cursor", "since", "visitorId"}) (void)req.query_param(name);
  for (const Message::Field& f : m.fields) {
    FUZZ_CHECK(size_t{f.name_at} + f.name_size <= m.text.size());
    FUZZ_CHECK(size_t{f.value_at} + f.value_size <= m.text.size());
  }
  auto match = routes().match(req.method, req.path, req.params);
  if (match.outcome == Router::Outcome::kFound) FUZZ_CHECK(match.target != nullptr);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  size_t read_size = size_t{data[0]} + 1;
  std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);

  std::atomic<uint64_t> large_in_flight{0};
  const BodyLimits limits(routes(), kBodyLimit, kLargeBudget, large_in_flight);
  Message message;
  size_t begin = 0;   // first byte not yet consumed by a parser
  size_t end = 0;     // bytes "received" so far
  while (begin < in.size()) {
    message.clear();
    RequestParser parser(message, limits);
    parser.header_limit(kHeaderLimit);
    parser.eager(true);
    bool failed = false;
    while (!parser.is_done()) {
      if (begin == end) {
        if (end == in.size()) break;  // the connection ends mid-request
        end = std::min(in.size(), end + read_size);
      }
      boost::beast::error_code ec;
      size_t used = parser.put(boost::asio::buffer(in.data() + begin, end - begin), ec);
      FUZZ_CHECK(used <= end - begin);
      begin += used;
      if (ec == boost::beast::http::error::need_more) {
        if (end == in.size()) break;
        end = std::min(in.size(), end + read_size);
        continue;
      }
      if (ec) {
        failed = true;
        break;
      }
    }
    if (failed || !parser.is_done()) {
      prepare(message);  // the server answers a refused request from what was read
      break;
    }
    FUZZ_CHECK(message.body.size() <= parser.request_body_limit());
    FUZZ_CHECK(large_in_flight.load() <= kLargeBudget);
    prepare(message);
    if (!parser.keep_alive()) break;
  }
  FUZZ_CHECK(large_in_flight.load() == 0);  // every parser gave its share back
  return 0;
}
