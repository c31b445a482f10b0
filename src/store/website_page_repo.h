// What Parley keeps of each website source besides the source itself (migration 0038): how the
// crawl found it and how to revalidate it (ETag, Last-Modified, the hash of its text, the 404s in
// a row), and the site's template blocks, each kept by one page. Rows go with their source
// (ON DELETE CASCADE). Stateless; every function runs on the connection it is given.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "store/db.h"

namespace parley {

struct WebsitePage {
  std::string source_id;
  std::string agent_id;
  std::string url;
  std::string crawl_id;  // the crawl that found it: its scope and patterns
  int64_t depth = 0;
  bool from_sitemap = false;
  std::optional<std::string> etag;
  std::optional<std::string> last_modified;
  std::optional<std::string> content_hash;
  int64_t misses = 0;  // 404 or 410 answers in a row
  int64_t fetched_at = 0;
};

class WebsitePageRepo {
 public:
  // Inserts, or rewrites the row of the same source.
  static Result<void> upsert(Connection& c, const WebsitePage& page);
  static Result<std::optional<WebsitePage>> find_by_url(Connection& c, std::string_view agent_id,
                                                        std::string_view url);
  // The address of another of the agent's pages whose text has this hash, if any.
  static Result<std::optional<std::string>> url_with_hash(Connection& c, std::string_view agent_id,
                                                          std::string_view content_hash,
                                                          std::string_view other_than);
  // The agent's pages whose address starts with `prefix` ("" for all), by address after
  // `after`, at most `limit`: a refresh reads them a batch at a time.
  static Result<std::vector<WebsitePage>> list_after(Connection& c, std::string_view agent_id,
                                                     std::string_view prefix,
                                                     std::string_view after, int64_t limit);
  // Counts one more 404/410 answer in a row and returns the count.
  static Result<int64_t> add_miss(Connection& c, std::string_view source_id);

  // Of `hashes`, those a page of the site other than `source_id` keeps.
  static Result<std::unordered_set<uint64_t>> kept_elsewhere(Connection& c,
                                                             std::string_view agent_id,
                                                             std::string_view site,
                                                             std::string_view source_id,
                                                             const std::vector<uint64_t>& hashes);
  // Records that `source_id` keeps these blocks (those no other page keeps yet).
  static Result<void> keep_blocks(Connection& c, std::string_view agent_id, std::string_view site,
                                  std::string_view source_id, const std::vector<uint64_t>& hashes);
};

}  // namespace parley
