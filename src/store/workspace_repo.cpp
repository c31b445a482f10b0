#include "store/workspace_repo.h"

namespace parley {

namespace {
#define CONNECTION_COLUMNS \
  "agent_id, account_id, token_sealed, key_id, bot_id, workspace_name, connected_by, connected_at"
#define PAGE_COLUMNS                                                                          \
  "agent_id, page_id, account_id, source_id, title, url, last_edited_time, content_read_at, " \
  "state,"                                                                                    \
  " outcome, error_code, error_message, lease_until, requested_at, finished_at"

WorkspaceConnectionRecord read_connection(const Row& r) {
  WorkspaceConnectionRecord c;
  c.agent_id = r.text(0);
  c.account_id = r.text(1);
  c.token_sealed = r.text(2);
  c.key_id = r.text(3);
  c.bot_id = r.text(4);
  c.workspace_name = r.opt_text(5);
  c.connected_by = r.opt_text(6);
  c.connected_at = r.int64(7);
  return c;
}

WorkspacePageRecord read_page(const Row& r) {
  WorkspacePageRecord p;
  p.agent_id = r.text(0);
  p.page_id = r.text(1);
  p.account_id = r.text(2);
  p.source_id = r.opt_text(3);
  p.title = r.opt_text(4);
  p.url = r.opt_text(5);
  p.last_edited_time = r.opt_text(6);
  p.content_read_at = r.opt_int64(7);
  p.state = r.text(8);
  p.outcome = r.opt_text(9);
  p.error_code = r.opt_text(10);
  p.error_message = r.opt_text(11);
  p.lease_until = r.opt_int64(12);
  p.requested_at = r.int64(13);
  p.finished_at = r.opt_int64(14);
  return p;
}

Result<std::optional<WorkspacePageRecord>> find_page(Connection& c, std::string_view sql,
                                                     Params params) {
  std::optional<WorkspacePageRecord> out;
  PARLEY_TRY(c.query(sql, params, [&](const Row& r) { out = read_page(r); }));
  return out;
}
}  // namespace

Result<void> WorkspaceRepo::save_connection(Connection& c, const WorkspaceConnectionRecord& r) {
  PARLEY_TRY(c.execute(
      "INSERT INTO workspace_connections (" CONNECTION_COLUMNS
      ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
      " ON CONFLICT (agent_id) DO UPDATE SET account_id = $2, token_sealed = $3, key_id = $4,"
      " bot_id = $5, workspace_name = $6, connected_by = $7, connected_at = $8",
      {r.agent_id, r.account_id, r.token_sealed, r.key_id, r.bot_id, db_opt(r.workspace_name),
       db_opt(r.connected_by), r.connected_at}));
  return {};
}

Result<std::optional<WorkspaceConnectionRecord>> WorkspaceRepo::connection(
    Connection& c, std::string_view agent_id) {
  std::optional<WorkspaceConnectionRecord> out;
  PARLEY_TRY(c.query("SELECT " CONNECTION_COLUMNS " FROM workspace_connections WHERE agent_id = $1",
                     {agent_id}, [&](const Row& r) { out = read_connection(r); }));
  return out;
}

Result<bool> WorkspaceRepo::remove_connection(Connection& c, std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(
      int64_t n, c.execute("DELETE FROM workspace_connections WHERE agent_id = $1", {agent_id}));
  return n > 0;
}

Result<std::vector<std::pair<std::string, int64_t>>> WorkspaceRepo::other_key_ids(
    Connection& c, std::string_view key_id) {
  std::vector<std::pair<std::string, int64_t>> out;
  PARLEY_TRY(
      c.query("SELECT key_id, COUNT(*) FROM workspace_connections WHERE key_id <> $1"
              " GROUP BY key_id ORDER BY key_id",
              {key_id}, [&](const Row& r) { out.emplace_back(r.text(0), r.int64(1)); }));
  return out;
}

Result<std::optional<WorkspacePageRecord>> WorkspaceRepo::page(Connection& c,
                                                               std::string_view agent_id,
                                                               std::string_view page_id) {
  return find_page(
      c, "SELECT " PAGE_COLUMNS " FROM workspace_pages WHERE agent_id = $1 AND page_id = $2",
      {agent_id, page_id});
}

Result<std::vector<WorkspacePageRecord>> WorkspaceRepo::pages(Connection& c,
                                                              std::string_view agent_id) {
  std::vector<WorkspacePageRecord> out;
  PARLEY_TRY(c.query("SELECT " PAGE_COLUMNS " FROM workspace_pages WHERE agent_id = $1"
                     " ORDER BY requested_at DESC, page_id",
                     {agent_id}, [&](const Row& r) { out.push_back(read_page(r)); }));
  return out;
}

Result<void> WorkspaceRepo::insert_page(Connection& c, const WorkspacePageRecord& p) {
  PARLEY_TRY(
      c.execute("INSERT INTO workspace_pages (" PAGE_COLUMNS
                ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
                {p.agent_id, p.page_id, p.account_id, db_opt(p.source_id), db_opt(p.title),
                 db_opt(p.url), db_opt(p.last_edited_time), db_opt(p.content_read_at), p.state,
                 db_opt(p.outcome), db_opt(p.error_code), db_opt(p.error_message),
                 db_opt(p.lease_until), p.requested_at, db_opt(p.finished_at)}));
  return {};
}

Result<void> WorkspaceRepo::update_page(Connection& c, const WorkspacePageRecord& p) {
  PARLEY_TRY(c.execute(
      "UPDATE workspace_pages SET source_id = $3, title = $4, url = $5, last_edited_time = $6,"
      " content_read_at = $7, state = $8, outcome = $9, error_code = $10, error_message = $11,"
      " lease_until = $12, requested_at = $13, finished_at = $14 WHERE agent_id = $1 AND page_id = "
      "$2",
      {p.agent_id, p.page_id, db_opt(p.source_id), db_opt(p.title), db_opt(p.url),
       db_opt(p.last_edited_time), db_opt(p.content_read_at), p.state, db_opt(p.outcome),
       db_opt(p.error_code), db_opt(p.error_message), db_opt(p.lease_until), p.requested_at,
       db_opt(p.finished_at)}));
  return {};
}

Result<bool> WorkspaceRepo::requeue_page(Connection& c, std::string_view agent_id,
                                         std::string_view page_id, int64_t now) {
  PARLEY_ASSIGN_OR_RETURN(
      int64_t n,
      c.execute("UPDATE workspace_pages SET state = 'queued', outcome = NULL, error_code = NULL,"
                " error_message = NULL, lease_until = NULL, requested_at = $3, finished_at = NULL"
                " WHERE agent_id = $1 AND page_id = $2 AND state IN ('done', 'failed')",
                {agent_id, page_id, now}));
  return n > 0;
}

Result<std::optional<WorkspacePageRecord>> WorkspaceRepo::next_claimable(Connection& c,
                                                                         int64_t now) {
  return find_page(c,
                   "SELECT " PAGE_COLUMNS
                   " FROM workspace_pages WHERE state = 'queued'"
                   " OR (state = 'running' AND lease_until < $1) ORDER BY requested_at, agent_id, "
                   "page_id LIMIT 1",
                   {now});
}

Result<bool> WorkspaceRepo::claim(Connection& c, std::string_view agent_id,
                                  std::string_view page_id, int64_t now, int64_t lease_until) {
  PARLEY_ASSIGN_OR_RETURN(
      int64_t n, c.execute("UPDATE workspace_pages SET state = 'running', lease_until = $4"
                           " WHERE agent_id = $1 AND page_id = $2"
                           " AND (state = 'queued' OR (state = 'running' AND lease_until < $3))",
                           {agent_id, page_id, now, lease_until}));
  return n > 0;
}

Result<void> WorkspaceRepo::renew_lease(Connection& c, std::string_view agent_id,
                                        std::string_view page_id, int64_t lease_until) {
  PARLEY_TRY(
      c.execute("UPDATE workspace_pages SET lease_until = $3"
                " WHERE agent_id = $1 AND page_id = $2 AND state = 'running'",
                {agent_id, page_id, lease_until}));
  return {};
}

Result<int64_t> WorkspaceRepo::requeue_running(Connection& c) {
  return c.execute(
      "UPDATE workspace_pages SET state = 'queued', lease_until = NULL WHERE state = 'running'",
      {});
}

Result<int64_t> WorkspaceRepo::fail_unfinished(Connection& c, std::string_view agent_id,
                                               std::string_view code, std::string_view message,
                                               int64_t now) {
  return c.execute(
      "UPDATE workspace_pages SET state = 'failed', outcome = 'failed', error_code = $2,"
      " error_message = $3, lease_until = NULL, finished_at = $4"
      " WHERE agent_id = $1 AND state IN ('queued', 'running')",
      {agent_id, code, message, now});
}

}  // namespace parley
