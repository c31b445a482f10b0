// Web search for the `openai` engine's `web_search` tool: asks the agent's search provider (a
// SearXNG instance's JSON API, or Brave's Search API) for a query's results, then reads the
// pages themselves as the crawler does (its User-Agent, through the URL guard and pinned to the
// checked address, with a time and size limit, and the extraction library's readers: HTML, PDF,
// …), so the model sees a page's text rather than a snippet; a page that cannot be read
// (refused address, error status, not text) keeps the provider's snippet. Every request runs on
// the outbound loop; the two steps that block (resolving a page's host for the guard, reading a
// page's document) run through `run_blocking`. `done` is called exactly once, on the outbound
// loop or a blocking thread. Stateless; thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "net/pinned_curl.h"

namespace parley {

// Characters of a page's text handed to the model at most.
inline constexpr size_t kWebPageChars = 2000;

struct WebPage {
  std::string title;  // the page's own title when it was read, else the provider's
  std::string url;
  std::string text;   // the page's text (cut), else the provider's snippet
  bool read = false;  // the text is the page's own
};

// Checks an address a tool is about to reach and gives the address to pin the connection to
// (it resolves the name, so it blocks).
using AddressCheck = std::function<Result<PinnedTarget>(std::string_view url)>;
// Runs work that blocks elsewhere than on the outbound loop.
using RunBlocking = std::function<void(std::function<void()>)>;

struct WebSearchCall {
  std::string provider;             // "searxng" or "brave"
  std::string url;                  // the provider's address (SearXNG's base or its /search)
  std::string api_key;              // Brave's token, opened
  std::optional<PinnedTarget> pin;  // the provider's checked address
  std::string query;
  int64_t max_results = 3;
  bool fetch_pages = true;
  int64_t timeout_ms = 10'000;  // each request
  std::string_view ca_bundle;   // must outlive the call
};

// The request made to the provider (exposed for tests).
std::string web_search_url(const WebSearchCall& call);

// The results of a provider's answer, at most `max_results` (exposed for tests).
Result<std::vector<WebPage>> parse_search_results(std::string_view provider, std::string_view body,
                                                  int64_t max_results);

void web_search(WebSearchCall call, AddressCheck check, RunBlocking run_blocking,
                std::function<void(Result<std::vector<WebPage>>)> done);

// What the model reads: {"results": [{"title", "url", "text"}]}.
std::string web_results_json(const std::vector<WebPage>& pages);

}  // namespace parley
