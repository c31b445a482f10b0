// Matches a method and path against registered patterns ("/api/v1/agents/{agentId}"). Tells a
// missing path (404) from a path that exists under other methods (405, with those methods for
// the Allow header), and says how large a body each route takes. Built once at start; matching
// is thread-safe.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "http/message.h"

namespace parley {

// Where a handler runs: on the connection's I/O thread (fast, non-blocking work such as cached
// reads) or on the blocking pool (writes that wait for a commit, chat replies, streaming).
enum class Execution { kInline, kPool };

using Handler = std::function<Response(Request&)>;

struct RouteTarget {
  Handler handler;
  Execution execution = Execution::kInline;
  // The largest request body the route takes, in bytes; 0: the server's
  // (ServerOptions::body_limit). A route that takes files says so here: the server checks it
  // from the request's headers, before the body is read.
  size_t body_limit = 0;
};

class Router {
 public:
  void add(std::string_view method, std::string_view pattern, RouteTarget target);

  enum class Outcome { kFound, kNoPath, kNoMethod };
  struct Match {
    Outcome outcome = Outcome::kNoPath;
    const RouteTarget* target = nullptr;
    size_t route = 0;   // for kFound: the route's index in route_names()
    std::string allow;  // for kNoMethod: "GET, POST"
  };
  // Fills `params` with the path parameters of the matching route.
  Match match(std::string_view method, std::string_view path,
              std::vector<std::string_view>& params) const;
  // "GET /api/v1/agents/{agentId}" for each route, in the order they were added.
  std::vector<std::string> route_names() const;
  // The body limit of the route `method` and `path` reach: its own, else `server_limit` (also when
  // no route matches).
  size_t body_limit(std::string_view method, std::string_view path, size_t server_limit) const;
  // The largest body limit of any route, at least `server_limit`; the smallest, at most it.
  size_t largest_body_limit(size_t server_limit) const;
  size_t smallest_body_limit(size_t server_limit) const;

 private:
  struct Route {
    std::string method;
    std::string pattern;
    std::vector<std::string> segments;  // "{x}" marks a parameter
    RouteTarget target;
  };
  std::vector<Route> routes_;
};

}  // namespace parley
