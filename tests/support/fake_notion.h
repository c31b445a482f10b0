// FakeNotion: a real HTTP server on a loopback port that stands in for Notion's public API
// (version 2022-06-28) in tests, answering with the documented shapes:
// - GET /v1/users/me: the integration's bot user (bot.owner.workspace, bot.workspace_name);
// - POST /v1/search with {"filter": {"property": "object", "value": "page"}}: the shared pages, a
//   list object paged with start_cursor / next_cursor / has_more;
// - GET /v1/pages/{id}: a page object (title property, url, last_edited_time, archived, in_trash);
// - GET /v1/blocks/{id}/children: block objects (rich_text with plain_text, has_children), paged.
// Every request needs `Authorization: Bearer <a known token>` (else 401 unauthorized) and a
// Notion-Version header (else 400 missing_version); a page that is not shared is 404
// object_not_found, as Notion answers. Errors are {"object": "error", "status", "code",
// "message"}. A test can make the next requests answer 429 rate_limited with Retry-After, make
// lists page in small pieces (Notion may return fewer results than page_size), edit pages (each
// edit moves last_edited_time on by a minute: Notion's times are whole minutes), unshare or trash
// them, and read what was asked. Thread-safe; stops when destroyed.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace parley::e2e {

struct FakeBlock {
  std::string type;  // paragraph, heading_1, heading_2, heading_3, bulleted_list_item,
                     // numbered_list_item, to_do, toggle, quote, callout, code, divider,
                     // child_page, table, table_row, image
  std::string text;  // the rich text (a child page's title, an image's caption)
  std::vector<FakeBlock> children;
  bool checked = false;            // to_do
  bool column_header = false;      // table
  std::vector<std::string> cells;  // table_row
};

inline FakeBlock notion_block(std::string type, std::string text,
                              std::vector<FakeBlock> children = {}) {
  FakeBlock b;
  b.type = std::move(type);
  b.text = std::move(text);
  b.children = std::move(children);
  return b;
}

struct FakeNotionRequest {
  std::string method;
  std::string target;                          // path and query
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
};

class FakeNotion {
 public:
  FakeNotion();
  ~FakeNotion();
  FakeNotion(const FakeNotion&) = delete;
  FakeNotion& operator=(const FakeNotion&) = delete;

  // "http://127.0.0.1:PORT"
  std::string base_url() const;

  // A token the API accepts, for a workspace of that name.
  void add_token(const std::string& token, const std::string& workspace_name);
  void revoke_token(const std::string& token);

  // Adds a page shared with the integration; returns its id (dashed, lower case).
  std::string add_page(const std::string& title, std::vector<FakeBlock> blocks);
  // Replaces the page's content (and title when given), moving last_edited_time on.
  void edit_page(const std::string& id, std::vector<FakeBlock> blocks,
                 const std::string& title = "");
  void unshare_page(const std::string& id);  // 404 from now on, absent from search
  void trash_page(const std::string& id);    // in_trash: true
  std::string page_url(const std::string& id) const;

  // The next `count` requests answer 429 with `Retry-After: retry_after_s`.
  void rate_limit_next(int count, int retry_after_s);
  // Lists hold at most this many results per response (default 100).
  void set_max_page_size(size_t n);

  std::vector<FakeNotionRequest> requests() const;
  // Requests whose target starts with `prefix` (e.g. "/v1/blocks/").
  size_t count(const std::string& method, const std::string& prefix) const;
  size_t rate_limited_answers() const;

 private:
  struct Block {
    std::string id;
    std::string parent;  // a page's or a block's id
    FakeBlock content;
    std::vector<std::string> children;
  };
  struct Page {
    std::string id;
    std::string title;
    std::vector<std::string> blocks;  // top-level block ids
    int edits = 0;
    bool shared = true;
    bool in_trash = false;
  };
  struct Answer {
    int status = 200;
    std::string body;
    int retry_after_s = 0;
  };

  void accept_loop();
  void serve(int fd);
  Answer answer(const FakeNotionRequest& req);
  Answer error(int status, const std::string& code, const std::string& message) const;
  std::string new_id();
  std::vector<std::string> add_blocks(const std::string& parent,
                                      const std::vector<FakeBlock>& blocks);
  std::string page_json(const Page& p) const;
  std::string block_json(const Block& b) const;
  Answer list(const std::vector<std::string>& items, const std::string& cursor, size_t page_size,
              const std::string& type) const;

  int listen_fd_ = -1;
  uint16_t port_ = 0;
  std::thread acceptor_;
  std::vector<std::thread> workers_;
  mutable std::mutex mu_;
  bool stopping_ = false;
  std::map<std::string, std::string> tokens_;  // token → workspace name
  std::map<std::string, Page> pages_;
  std::vector<std::string> page_order_;
  std::map<std::string, Block> blocks_;
  uint64_t next_id_ = 1;
  int rate_limit_count_ = 0;
  int rate_limit_retry_after_s_ = 0;
  size_t rate_limited_ = 0;
  size_t max_page_size_ = 100;
  std::vector<FakeNotionRequest> requests_;
};

}  // namespace parley::e2e
