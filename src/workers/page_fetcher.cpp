#include "workers/page_fetcher.h"

#include "net/http_sender.h"
#include "net/pinned_curl.h"

namespace parley {

namespace {
std::string seconds_text(int64_t ms) {
  if (ms % 1000 == 0) return std::to_string(ms / 1000) + " s";
  return std::to_string(ms) + " ms";
}

std::string size_text(size_t bytes) {
  if (bytes % (1 << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}
}  // namespace

PageResponse fetch_page(const PageRequest& request, Resolver& resolver,
                        const FetchOptions& options) {
  PageResponse out;
  auto url = parse_target_url(request.url, true);
  auto target = url.ok() ? pin_target(*url, resolver, options.allow_private_targets)
                         : Result<PinnedTarget>(url.error());
  if (!target.ok()) {
    out.problem = FetchProblem::kRefused;
    const std::string& why = target.error().message;
    if (why.find("does not resolve") != std::string::npos ||
        why.find("has no address") != std::string::npos)
      out.error = "The site's address does not resolve.";
    else
      out.error = "The address is refused: it is not a public web server.";
    return out;
  }
  SendRequest r;
  r.url = request.url;
  r.method = "GET";
  r.allow_http = true;
  r.accept_compressed = true;
  r.response_headers = {"Content-Type", "Location", "ETag", "Last-Modified"};
  r.connect_timeout_ms = std::min(options.connect_timeout_ms, options.timeout_ms);
  r.timeout_ms = options.timeout_ms;
  r.max_response_bytes = options.max_bytes + 1;
  r.headers.emplace_back("User-Agent", options.user_agent);
  r.headers.emplace_back("Accept",
                         "text/html,application/xhtml+xml,application/pdf;q=0.9,*/*;q=0.5");
  if (request.etag) r.headers.emplace_back("If-None-Match", *request.etag);
  if (request.last_modified) r.headers.emplace_back("If-Modified-Since", *request.last_modified);
  SendOutcome sent = send_to(r, &*target);
  if (!sent.status) {
    if (sent.failure == SendFailure::kStopped) {
      out.problem = FetchProblem::kStopped;
      out.error = "stopped";
    } else if (sent.failure == SendFailure::kTimeout) {
      out.problem = FetchProblem::kTimeout;
      out.error = "The page took longer than " + seconds_text(options.timeout_ms) + ".";
    } else {
      out.problem = FetchProblem::kUnreachable;
      out.error = "The site could not be reached (" + sent.error.value_or("no answer") + ").";
    }
    return out;
  }
  if (sent.truncated || sent.body.size() > options.max_bytes) {
    out.problem = FetchProblem::kTooLarge;
    out.error = "The page is larger than " + size_text(options.max_bytes) + ".";
    return out;
  }
  out.status = *sent.status;
  out.body = std::move(sent.body);
  out.content_type = sent.header("Content-Type").value_or("");
  out.location = sent.header("Location").value_or("");
  out.etag = sent.header("ETag");
  out.last_modified = sent.header("Last-Modified");
  return out;
}

}  // namespace parley
