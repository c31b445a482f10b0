#include "store/crawl_repo.h"

#include "core/json.h"

namespace parley {

namespace {
#define CRAWL_COLUMNS                                                                         \
  "id, account_id, agent_id, kind, url, scope_url, max_pages, max_depth, include_paths, "     \
  "exclude_paths, status, seeded, found, fetched, skipped, failed, unchanged, removed, "      \
  "characters, error_code, error_message, lease_owner, lease_until, created_at, updated_at, " \
  "started_at, finished_at"
#define PAGE_COLUMNS                                                                         \
  "crawl_id, url, seq, depth, state, reason, source_id, from_sitemap, etag, last_modified, " \
  "content_hash"

std::string join_patterns(const std::vector<std::string>& patterns) {
  JsonWriter w;
  w.begin_array();
  for (const auto& p : patterns) w.string(p);
  w.end_array();
  return w.str();
}

std::vector<std::string> split_patterns(std::string_view json) {
  std::vector<std::string> out;
  auto doc = parse_json_value(json);
  if (!doc.ok() || !doc->IsArray()) return out;
  for (const auto& v : doc->GetArray())
    if (v.IsString()) out.emplace_back(v.GetString(), v.GetStringLength());
  return out;
}

CrawlRecord read_crawl(const Row& r) {
  CrawlRecord x;
  x.id = r.text(0);
  x.account_id = r.text(1);
  x.agent_id = r.text(2);
  x.kind = r.text(3);
  x.url = r.opt_text(4);
  x.scope_url = r.opt_text(5);
  x.max_pages = r.int64(6);
  x.max_depth = r.int64(7);
  x.include = split_patterns(r.text_view(8));
  x.exclude = split_patterns(r.text_view(9));
  x.status = r.text(10);
  x.seeded = r.boolean(11);
  x.progress.found = r.int64(12);
  x.progress.fetched = r.int64(13);
  x.progress.skipped = r.int64(14);
  x.progress.failed = r.int64(15);
  x.progress.unchanged = r.int64(16);
  x.progress.removed = r.int64(17);
  x.progress.characters = r.int64(18);
  x.error_code = r.opt_text(19);
  x.error_message = r.opt_text(20);
  x.lease_owner = r.opt_text(21);
  x.lease_until = r.opt_int64(22);
  x.created_at = r.int64(23);
  x.updated_at = r.int64(24);
  x.started_at = r.opt_int64(25);
  x.finished_at = r.opt_int64(26);
  return x;
}

FrontierPage read_page(const Row& r) {
  FrontierPage p;
  p.crawl_id = r.text(0);
  p.url = r.text(1);
  p.seq = r.int64(2);
  p.depth = r.int64(3);
  p.state = r.text(4);
  p.reason = r.opt_text(5);
  p.source_id = r.opt_text(6);
  p.from_sitemap = r.boolean(7);
  p.etag = r.opt_text(8);
  p.last_modified = r.opt_text(9);
  p.content_hash = r.opt_text(10);
  return p;
}

Result<std::optional<CrawlRecord>> find_one(Connection& c, std::string_view sql, Params params) {
  std::optional<CrawlRecord> out;
  PARLEY_TRY(c.query(sql, params, [&](const Row& r) { out = read_crawl(r); }));
  return out;
}
}  // namespace

Result<void> CrawlRepo::insert(Connection& c, const CrawlRecord& x) {
  PARLEY_TRY(c.execute(
      "INSERT INTO crawls (" CRAWL_COLUMNS
      ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18,"
      " $19, $20, $21, $22, $23, $24, $25, $26, $27)",
      {x.id,
       x.account_id,
       x.agent_id,
       x.kind,
       db_opt(x.url),
       db_opt(x.scope_url),
       x.max_pages,
       x.max_depth,
       join_patterns(x.include),
       join_patterns(x.exclude),
       x.status,
       int64_t{x.seeded ? 1 : 0},
       x.progress.found,
       x.progress.fetched,
       x.progress.skipped,
       x.progress.failed,
       x.progress.unchanged,
       x.progress.removed,
       x.progress.characters,
       db_opt(x.error_code),
       db_opt(x.error_message),
       db_opt(x.lease_owner),
       db_opt(x.lease_until),
       x.created_at,
       x.updated_at,
       db_opt(x.started_at),
       db_opt(x.finished_at)}));
  return {};
}

Result<std::optional<CrawlRecord>> CrawlRepo::find(Connection& c, std::string_view id) {
  return find_one(c, "SELECT " CRAWL_COLUMNS " FROM crawls WHERE id = $1", {id});
}

Result<std::vector<CrawlRecord>> CrawlRepo::list_for_agent(Connection& c, std::string_view agent_id,
                                                           int64_t limit) {
  std::vector<CrawlRecord> out;
  PARLEY_TRY(c.query("SELECT " CRAWL_COLUMNS " FROM crawls WHERE agent_id = $1"
                     " ORDER BY created_at DESC, id DESC LIMIT $2",
                     {agent_id, limit}, [&](const Row& r) { out.push_back(read_crawl(r)); }));
  return out;
}

Result<int64_t> CrawlRepo::count_active(Connection& c, std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(auto n, c.query_int("SELECT COUNT(*) FROM crawls WHERE agent_id = $1"
                                              " AND status IN ('queued', 'running')",
                                              {agent_id}));
  return n.value_or(0);
}

Result<std::optional<int64_t>> CrawlRepo::last_created(Connection& c, std::string_view agent_id,
                                                       std::string_view kind) {
  return c.query_int("SELECT MAX(created_at) FROM crawls WHERE agent_id = $1 AND kind = $2",
                     {agent_id, kind});
}

Result<std::vector<RefreshCandidate>> CrawlRepo::refresh_candidates(Connection& c,
                                                                    std::string_view after_id,
                                                                    int64_t limit) {
  std::vector<RefreshCandidate> out;
  PARLEY_TRY(
      c.query("SELECT id, account_id, settings FROM agents WHERE id > $1"
              " AND settings LIKE '%\"knowledgeRefresh\"%' ORDER BY id LIMIT $2",
              {after_id, limit}, [&](const Row& r) {
                out.push_back({r.text(0), r.text(1), r.text(2)});
              }));
  return out;
}

Result<std::optional<CrawlRecord>> CrawlRepo::next_claimable(Connection& c, int64_t now) {
  return find_one(c,
                  "SELECT " CRAWL_COLUMNS
                  " FROM crawls WHERE status = 'queued'"
                  " OR (status = 'running' AND lease_until < $1) ORDER BY created_at, id LIMIT 1",
                  {now});
}

Result<bool> CrawlRepo::claim(Connection& c, std::string_view id, std::string_view owner,
                              int64_t now, int64_t lease_until) {
  PARLEY_ASSIGN_OR_RETURN(
      int64_t n,
      c.execute("UPDATE crawls SET status = 'running', lease_owner = $2, lease_until = $4,"
                " started_at = COALESCE(started_at, $3), updated_at = $3 WHERE id = $1"
                " AND (status = 'queued' OR (status = 'running' AND lease_until < $3))",
                {id, owner, now, lease_until}));
  return n > 0;
}

Result<bool> CrawlRepo::renew(Connection& c, std::string_view id, std::string_view owner,
                              int64_t lease_until) {
  PARLEY_ASSIGN_OR_RETURN(int64_t n, c.execute("UPDATE crawls SET lease_until = $3 WHERE id = $1"
                                               " AND lease_owner = $2 AND status = 'running'",
                                               {id, owner, lease_until}));
  return n > 0;
}

Result<bool> CrawlRepo::set_seeded(Connection& c, std::string_view id, std::string_view owner,
                                   const std::optional<std::string>& scope_url, int64_t now) {
  PARLEY_ASSIGN_OR_RETURN(int64_t n,
                          c.execute("UPDATE crawls SET seeded = 1, scope_url = $3, updated_at = $4"
                                    " WHERE id = $1 AND lease_owner = $2 AND status = 'running'",
                                    {id, owner, db_opt(scope_url), now}));
  return n > 0;
}

Result<bool> CrawlRepo::add_progress(Connection& c, std::string_view id, std::string_view owner,
                                     const CrawlProgress& d, int64_t now) {
  PARLEY_ASSIGN_OR_RETURN(
      int64_t n,
      c.execute("UPDATE crawls SET found = found + $3, fetched = fetched + $4,"
                " skipped = skipped + $5, failed = failed + $6, unchanged = unchanged + $7,"
                " removed = removed + $8, characters = characters + $9, updated_at = $10"
                " WHERE id = $1 AND lease_owner = $2 AND status = 'running'",
                {id, owner, d.found, d.fetched, d.skipped, d.failed, d.unchanged, d.removed,
                 d.characters, now}));
  return n > 0;
}

Result<bool> CrawlRepo::finish(Connection& c, std::string_view id, std::string_view owner,
                               std::string_view status,
                               const std::optional<std::string>& error_code,
                               const std::optional<std::string>& error_message, int64_t now) {
  PARLEY_ASSIGN_OR_RETURN(
      int64_t n,
      c.execute("UPDATE crawls SET status = $3, error_code = $4, error_message = $5,"
                " lease_owner = NULL, lease_until = NULL, finished_at = $6, updated_at = $6"
                " WHERE id = $1 AND lease_owner = $2 AND status = 'running'",
                {id, owner, status, db_opt(error_code), db_opt(error_message), now}));
  return n > 0;
}

Result<bool> CrawlRepo::cancel(Connection& c, std::string_view id, int64_t now) {
  PARLEY_ASSIGN_OR_RETURN(int64_t n,
                          c.execute("UPDATE crawls SET status = 'cancelled', lease_owner = NULL,"
                                    " lease_until = NULL, finished_at = $2, updated_at = $2"
                                    " WHERE id = $1 AND status IN ('queued', 'running')",
                                    {id, now}));
  return n > 0;
}

Result<bool> CrawlRepo::add_page(Connection& c, const FrontierPage& p) {
  PARLEY_ASSIGN_OR_RETURN(
      int64_t n, c.execute("INSERT INTO crawl_pages (" PAGE_COLUMNS
                           ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
                           " ON CONFLICT (crawl_id, url) DO NOTHING",
                           {p.crawl_id, p.url, p.seq, p.depth, p.state, db_opt(p.reason),
                            db_opt(p.source_id), int64_t{p.from_sitemap ? 1 : 0}, db_opt(p.etag),
                            db_opt(p.last_modified), db_opt(p.content_hash)}));
  return n > 0;
}

Result<std::optional<FrontierPage>> CrawlRepo::find_page(Connection& c, std::string_view crawl_id,
                                                         std::string_view url) {
  std::optional<FrontierPage> out;
  PARLEY_TRY(c.query("SELECT " PAGE_COLUMNS " FROM crawl_pages WHERE crawl_id = $1 AND url = $2",
                     {crawl_id, url}, [&](const Row& r) { out = read_page(r); }));
  return out;
}

Result<std::vector<FrontierPage>> CrawlRepo::next_queued(Connection& c, std::string_view crawl_id,
                                                         int64_t limit) {
  std::vector<FrontierPage> out;
  PARLEY_TRY(c.query("SELECT " PAGE_COLUMNS " FROM crawl_pages WHERE crawl_id = $1"
                     " AND state = 'queued' ORDER BY depth, seq LIMIT $2",
                     {crawl_id, limit}, [&](const Row& r) { out.push_back(read_page(r)); }));
  return out;
}

Result<void> CrawlRepo::settle_page(Connection& c, const FrontierPage& p) {
  PARLEY_TRY(
      c.execute("UPDATE crawl_pages SET state = $3, reason = $4, source_id = $5,"
                " etag = $6, last_modified = $7, content_hash = $8"
                " WHERE crawl_id = $1 AND url = $2",
                {p.crawl_id, p.url, p.state, db_opt(p.reason), db_opt(p.source_id), db_opt(p.etag),
                 db_opt(p.last_modified), db_opt(p.content_hash)}));
  return {};
}

Result<std::optional<std::string>> CrawlRepo::url_with_hash(Connection& c,
                                                            std::string_view crawl_id,
                                                            std::string_view content_hash,
                                                            std::string_view other_than) {
  std::optional<std::string> out;
  PARLEY_TRY(
      c.query("SELECT url FROM crawl_pages WHERE crawl_id = $1 AND content_hash = $2"
              " AND url <> $3 AND state IN ('fetched', 'unchanged') ORDER BY seq LIMIT 1",
              {crawl_id, content_hash, other_than}, [&](const Row& r) { out = r.text(0); }));
  return out;
}

}  // namespace parley
