// A client of Notion's public API (https://developers.notion.com/reference) for one integration
// token: the token's bot user (GET /v1/users/me), the pages shared with the integration (POST
// /v1/search filtered to pages, paged with start_cursor/has_more), one page (GET /v1/pages/{id})
// and a page's content (GET /v1/blocks/{id}/children, paged, recursing into blocks that have
// children). Every request carries `Authorization: Bearer <token>` and `Notion-Version`.
//
// Calls go through an HttpSender (net/): NotionSender pins the connection to the checked address
// of the configured host, except for an operator's own base URL (a stand-in in tests). A 429 or
// 529 is retried after its Retry-After (whole seconds, as Notion documents), a 500/502/503/504
// after a short back-off, each at most `max_attempts` times in all; a Retry-After longer than
// `max_retry_wait_ms` is not waited for. Waiting goes through `wait`, which a stopping worker
// interrupts.
//
// Errors are ApiErrors whose code tells what Notion said, with a message a person understands:
// kUnauthorized (401: the token is invalid or revoked), kForbidden (403: the integration lacks a
// capability), kNotFound (404: no such page, or not shared with the integration), kRateLimited
// (still 429 after the retries; retry_after_s set), kUnavailable (Notion unreachable, 5xx,
// timeout, a stopped wait), kInvalidRequest (another 4xx), kInternal (an unreadable answer).
//
// A client is used by one thread at a time; the sender it is given must outlive it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "net/http_sender.h"
#include "workspace/notion_blocks.h"

namespace parley {

inline constexpr std::string_view kNotionApiUrl = "https://api.notion.com";
inline constexpr std::string_view kNotionVersion = "2022-06-28";

struct NotionOptions {
  std::string api_url = std::string(kNotionApiUrl);  // no trailing slash
  // True when the operator named the base URL (--notion-api-url): calls go unpinned (plain
  // http allowed), as for the server-wide LLM provider. False: Notion's own host, guarded.
  bool operator_url = false;
  int64_t connect_timeout_ms = 10'000;
  int64_t timeout_ms = 30'000;  // one request
  int max_attempts = 5;         // one request, retries included
  int64_t max_retry_wait_ms = 60'000;
  size_t max_response_bytes = 8 << 20;
  size_t max_blocks = 20'000;  // blocks read of one page
  int max_depth = 16;          // levels of nested blocks read
  size_t max_listed_pages = 1'000;
};

// Sleeps for up to `ms`; false when the caller is stopping (the call then fails as unavailable).
using NotionWait = std::function<bool(int64_t ms)>;
NotionWait sleeping_wait();

// The sender of Notion calls: pinned through the URL guard for Notion's own host, or unpinned
// for the operator's base URL.
class NotionSender final : public HttpSender {
 public:
  NotionSender(Resolver& resolver, bool operator_url)
      : guarded_(resolver, {}), operator_url_(operator_url) {}
  SendOutcome send(const SendRequest& request) override;

 private:
  CurlSender guarded_;
  bool operator_url_;
};

struct NotionBot {
  std::string id;
  std::string name;
  std::optional<std::string> workspace_name;
};

struct NotionPageList {
  std::vector<NotionPage> pages;  // not archived, not in the trash
  bool truncated = false;         // more were shared than max_listed_pages
};

struct NotionPageContent {
  std::vector<NotionBlock> blocks;
  bool truncated = false;  // max_blocks or max_depth was reached
};

class NotionClient {
 public:
  NotionClient(HttpSender& sender, NotionOptions options, std::string token, NotionWait wait);

  Result<NotionBot> me();
  Result<NotionPageList> shared_pages();
  Result<NotionPage> page(const std::string& page_id);
  // `tick` runs before each request (a long import renews its claim there).
  Result<NotionPageContent> page_content(const std::string& page_id,
                                         const std::function<void()>& tick = {});

  int requests_made() const { return requests_; }

 private:
  // One call with its retries; the body parsed as a JSON object.
  Result<rapidjson::Document> call(const std::string& method, const std::string& path,
                                   const std::string& body);
  Result<void> children(const std::string& block_id, int depth, std::vector<NotionBlock>& out,
                        NotionPageContent& content, const std::function<void()>& tick);

  HttpSender& sender_;
  NotionOptions options_;
  std::string token_;
  NotionWait wait_;
  int requests_ = 0;
  size_t blocks_read_ = 0;
};

// Notion's page id in its canonical form (32 hex digits, lower case, dashed 8-4-4-4-12) from
// what a person pastes (with or without dashes, any case); nothing when it is not one.
std::optional<std::string> canonical_notion_id(std::string_view text);

}  // namespace parley
