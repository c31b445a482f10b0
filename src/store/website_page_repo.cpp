#include "store/website_page_repo.h"

#include <cstring>

#include "store/placeholders.h"

namespace parley {

namespace {
#define PAGE_COLUMNS                                                               \
  "source_id, agent_id, url, crawl_id, depth, from_sitemap, etag, last_modified, " \
  "content_hash, misses, fetched_at"

// Blocks looked up or written per statement.
constexpr size_t kBlocksPerStatement = 200;

WebsitePage read_page(const Row& r) {
  WebsitePage p;
  p.source_id = r.text(0);
  p.agent_id = r.text(1);
  p.url = r.text(2);
  p.crawl_id = r.text(3);
  p.depth = r.int64(4);
  p.from_sitemap = r.boolean(5);
  p.etag = r.opt_text(6);
  p.last_modified = r.opt_text(7);
  p.content_hash = r.opt_text(8);
  p.misses = r.int64(9);
  p.fetched_at = r.int64(10);
  return p;
}

// A block hash as the signed 64-bit integer both databases store, and back.
int64_t stored(uint64_t hash) {
  int64_t out;
  std::memcpy(&out, &hash, sizeof out);
  return out;
}
uint64_t loaded(int64_t value) {
  uint64_t out;
  std::memcpy(&out, &value, sizeof out);
  return out;
}

}  // namespace

Result<void> WebsitePageRepo::upsert(Connection& c, const WebsitePage& p) {
  PARLEY_TRY(c.execute(
      "INSERT INTO website_pages (" PAGE_COLUMNS
      ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
      " ON CONFLICT (source_id) DO UPDATE SET url = excluded.url, crawl_id = excluded.crawl_id,"
      " depth = excluded.depth, from_sitemap = excluded.from_sitemap, etag = excluded.etag,"
      " last_modified = excluded.last_modified, content_hash = excluded.content_hash,"
      " misses = excluded.misses, fetched_at = excluded.fetched_at",
      {p.source_id, p.agent_id, p.url, p.crawl_id, p.depth, int64_t{p.from_sitemap ? 1 : 0},
       db_opt(p.etag), db_opt(p.last_modified), db_opt(p.content_hash), p.misses, p.fetched_at}));
  return {};
}

Result<std::optional<WebsitePage>> WebsitePageRepo::find_by_url(Connection& c,
                                                                std::string_view agent_id,
                                                                std::string_view url) {
  std::optional<WebsitePage> out;
  PARLEY_TRY(c.query("SELECT " PAGE_COLUMNS " FROM website_pages WHERE agent_id = $1 AND url = $2",
                     {agent_id, url}, [&](const Row& r) { out = read_page(r); }));
  return out;
}

Result<std::optional<std::string>> WebsitePageRepo::url_with_hash(Connection& c,
                                                                  std::string_view agent_id,
                                                                  std::string_view content_hash,
                                                                  std::string_view other_than) {
  std::optional<std::string> out;
  // The (agent, hash) index finds the rows, whatever the agent's size: no ORDER BY, no filter
  // the index cannot serve (the page's own row, if it is one of the two, is passed over here).
  PARLEY_TRY(
      c.query("SELECT url FROM website_pages WHERE agent_id = $1 AND content_hash = $2"
              " LIMIT 2",
              {agent_id, content_hash}, [&](const Row& r) {
                if (!out && r.text_view(0) != other_than) out = r.text(0);
              }));
  return out;
}

Result<std::vector<WebsitePage>> WebsitePageRepo::list_after(Connection& c,
                                                             std::string_view agent_id,
                                                             std::string_view prefix,
                                                             std::string_view after,
                                                             int64_t limit) {
  std::vector<WebsitePage> out;
  // The prefix compared with substr, not LIKE: its characters need no escaping.
  PARLEY_TRY(c.query("SELECT " PAGE_COLUMNS " FROM website_pages WHERE agent_id = $1"
                     " AND substr(url, 1, length(CAST($2 AS TEXT))) = $2 AND url > $3 ORDER BY url"
                     " LIMIT $4",
                     {agent_id, prefix, after, limit},
                     [&](const Row& r) { out.push_back(read_page(r)); }));
  return out;
}

Result<int64_t> WebsitePageRepo::add_miss(Connection& c, std::string_view source_id) {
  int64_t out = 0;
  PARLEY_TRY(
      c.query("UPDATE website_pages SET misses = misses + 1 WHERE source_id = $1"
              " RETURNING misses",
              {source_id}, [&](const Row& r) { out = r.int64(0); }));
  return out;
}

Result<std::unordered_set<uint64_t>> WebsitePageRepo::kept_elsewhere(
    Connection& c, std::string_view agent_id, std::string_view site, std::string_view source_id,
    const std::vector<uint64_t>& hashes) {
  std::unordered_set<uint64_t> out;
  for (size_t start = 0; start < hashes.size(); start += kBlocksPerStatement) {
    size_t n = std::min(kBlocksPerStatement, hashes.size() - start);
    std::vector<DbValue> params{std::string(agent_id), std::string(site), std::string(source_id)};
    for (size_t i = 0; i < n; ++i) params.emplace_back(stored(hashes[start + i]));
    PARLEY_TRY(
        c.query("SELECT hash FROM site_blocks WHERE agent_id = $1 AND site = $2"
                " AND source_id <> $3 AND hash IN (" +
                    placeholders(4, n) + ")",
                params, [&](const Row& r) { out.insert(loaded(r.int64(0))); }));
  }
  return out;
}

Result<void> WebsitePageRepo::keep_blocks(Connection& c, std::string_view agent_id,
                                          std::string_view site, std::string_view source_id,
                                          const std::vector<uint64_t>& hashes) {
  for (uint64_t hash : hashes) {
    PARLEY_TRY(
        c.execute("INSERT INTO site_blocks (agent_id, site, hash, source_id)"
                  " VALUES ($1, $2, $3, $4) ON CONFLICT (agent_id, site, hash) DO NOTHING",
                  {agent_id, site, stored(hash), source_id}));
  }
  return {};
}

}  // namespace parley
