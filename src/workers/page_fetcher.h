// One request of the crawler: a GET of an http(s) address through the URL guard (the host
// resolved once, every address it resolves to checked unless private targets are allowed, the
// connection pinned to the checked address), on the outbound loop, with the crawler's
// User-Agent, gzip and br accepted, a size cap and a time limit, revalidation headers when the
// caller has them, and no redirect followed (the crawler follows them itself, each hop through
// here). What went wrong is said the way a person reads it on the failed source.
// Thread-safe when its Resolver is; blocks the calling thread (never the outbound loop's).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "net/url_guard.h"

namespace parley {

struct FetchOptions {
  std::string user_agent;
  int64_t timeout_ms = 15'000;
  int64_t connect_timeout_ms = 5'000;
  size_t max_bytes = 10 << 20;  // of the decoded body
  bool allow_private_targets = false;
};

struct PageRequest {
  std::string url;
  std::optional<std::string> etag;           // sent as If-None-Match
  std::optional<std::string> last_modified;  // sent as If-Modified-Since
};

// kStopped: the node is stopping (the outbound loop ended the transfer); nothing to record.
enum class FetchProblem { kNone, kRefused, kTimeout, kTooLarge, kUnreachable, kStopped };

struct PageResponse {
  FetchProblem problem = FetchProblem::kNone;
  std::string error;  // why there is no response, for people ("The page took longer than 15 s.")
  int64_t status = 0;
  std::string content_type;
  std::string location;
  std::optional<std::string> etag;
  std::optional<std::string> last_modified;
  std::string body;
  bool ok() const { return problem == FetchProblem::kNone; }
};

PageResponse fetch_page(const PageRequest& request, Resolver& resolver,
                        const FetchOptions& options);

}  // namespace parley
