#include "store/source_repo.h"
#include "store/entity_changes.h"

namespace parley {

namespace {
#define SOURCE_COLUMNS                                                                        \
  "id, agent_id, account_id, seq, type, title, url, filename, question, question_key, answer, " \
  "content, characters, status, error, lease_until, finished_at, trained_at, created_at, updated_at"
// The same columns with the text of non-qa sources left out (lists).
#define SOURCE_LIST_COLUMNS                                                                   \
  "id, agent_id, account_id, seq, type, title, url, filename, question, question_key, answer, " \
  "NULL, characters, status, error, lease_until, finished_at, trained_at, created_at, updated_at"

SourceRecord read_source(const Row& r) {
  SourceRecord s;
  s.id = r.text(0);
  s.agent_id = r.text(1);
  s.account_id = r.text(2);
  s.seq = r.int64(3);
  s.type = r.text(4);
  s.title = r.opt_text(5);
  s.url = r.opt_text(6);
  s.filename = r.opt_text(7);
  s.question = r.opt_text(8);
  s.question_key = r.opt_text(9);
  s.answer = r.opt_text(10);
  s.content = r.opt_text(11);
  s.characters = r.int64(12);
  s.status = r.text(13);
  s.error = r.opt_text(14);
  s.lease_until = r.opt_int64(15);
  s.finished_at = r.opt_int64(16);
  s.trained_at = r.opt_int64(17);
  s.created_at = r.int64(18);
  s.updated_at = r.int64(19);
  return s;
}

Result<std::optional<SourceRecord>> find_one(Connection& c, std::string_view sql, Params params) {
  std::optional<SourceRecord> out;
  PARLEY_TRY(c.query(sql, params, [&](const Row& r) { out = read_source(r); }));
  return out;
}
}  // namespace

Result<void> SourceRepo::insert(Connection& c, SourceRecord& s) {
  // From the agent's counter in one statement: concurrent inserts queue on the agent's row.
  std::optional<int64_t> seq;
  PARLEY_TRY(c.query("UPDATE agents SET last_source_seq = last_source_seq + 1 WHERE id = $1"
                     " RETURNING last_source_seq",
                     {s.agent_id}, [&](const Row& r) { seq = r.int64(0); }));
  if (!seq) return ApiError::not_found("No agent " + s.agent_id + ".");
  s.seq = *seq;
  PARLEY_TRY(c.execute("INSERT INTO sources (" SOURCE_COLUMNS
                       ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,"
                       " $16, $17, $18, $19, $20)",
                       {s.id, s.agent_id, s.account_id, s.seq, s.type, db_opt(s.title), db_opt(s.url),
                        db_opt(s.filename), db_opt(s.question), db_opt(s.question_key), db_opt(s.answer),
                        db_opt(s.content), s.characters, s.status, db_opt(s.error), db_opt(s.lease_until),
                        db_opt(s.finished_at), db_opt(s.trained_at), s.created_at, s.updated_at}));
  return {};
}

Result<std::optional<SourceRecord>> SourceRepo::find(Connection& c, std::string_view agent_id,
                                                     std::string_view id) {
  return find_one(c, "SELECT " SOURCE_COLUMNS " FROM sources WHERE id = $1 AND agent_id = $2",
                  {id, agent_id});
}

Result<std::optional<SourceRecord>> SourceRepo::find_question(Connection& c, std::string_view agent_id,
                                                              std::string_view key) {
  return find_one(c,
                  "SELECT " SOURCE_COLUMNS " FROM sources WHERE agent_id = $1 AND question_key = $2"
                  " AND type = 'qa' ORDER BY seq LIMIT 1",
                  {agent_id, key});
}

Result<std::vector<SourceRecord>> SourceRepo::list(Connection& c, std::string_view agent_id) {
  std::vector<SourceRecord> out;
  PARLEY_TRY(c.query("SELECT " SOURCE_LIST_COLUMNS
                     " FROM sources WHERE agent_id = $1 ORDER BY created_at DESC, seq DESC",
                     {agent_id}, [&](const Row& r) { out.push_back(read_source(r)); }));
  return out;
}

Result<std::vector<SourceRecord>> SourceRepo::list_trained(Connection& c, std::string_view agent_id) {
  std::vector<SourceRecord> out;
  PARLEY_TRY(c.query("SELECT " SOURCE_COLUMNS
                     " FROM sources WHERE agent_id = $1 AND status = 'trained' ORDER BY created_at, seq",
                     {agent_id}, [&](const Row& r) { out.push_back(read_source(r)); }));
  return out;
}

Result<void> SourceRepo::update(Connection& c, const SourceRecord& s) {
  PARLEY_TRY(c.execute("UPDATE sources SET question = $2, question_key = $3, answer = $4, content = $5,"
                       " characters = $6, status = $7, error = $8, lease_until = $9, finished_at = $10,"
                       " trained_at = $11, updated_at = $12 WHERE id = $1",
                       {s.id, db_opt(s.question), db_opt(s.question_key), db_opt(s.answer),
                        db_opt(s.content), s.characters, s.status, db_opt(s.error), db_opt(s.lease_until),
                        db_opt(s.finished_at), db_opt(s.trained_at), s.updated_at}));
  return {};
}

Result<void> SourceRepo::set_title(Connection& c, std::string_view id,
                                   const std::optional<std::string>& title) {
  PARLEY_TRY(c.execute("UPDATE sources SET title = $2 WHERE id = $1", {id, db_opt(title)}));
  return {};
}

Result<bool> SourceRepo::remove(Connection& c, std::string_view id) {
  PARLEY_ASSIGN_OR_RETURN(int64_t n, c.execute("DELETE FROM sources WHERE id = $1", {id}));
  return n > 0;
}

Result<SourceCounts> SourceRepo::counts(Connection& c, std::string_view agent_id) {
  SourceCounts out;
  PARLEY_TRY(c.query("SELECT status, COUNT(*) FROM sources WHERE agent_id = $1 GROUP BY status", {agent_id},
                     [&](const Row& r) {
                       auto status = r.text_view(0);
                       int64_t n = r.int64(1);
                       if (status == "pending") out.pending = n;
                       else if (status == "processing") out.processing = n;
                       else if (status == "trained") out.trained = n;
                       else if (status == "failed") out.failed = n;
                     }));
  return out;
}

Result<int64_t> SourceRepo::committed_characters(Connection& c, std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(auto sum, c.query_int("SELECT COALESCE(SUM(characters), 0) FROM sources"
                                                " WHERE agent_id = $1 AND status <> 'failed'",
                                                {agent_id}));
  return sum.value_or(0);
}

Result<std::optional<std::string>> SourceRepo::last_finished_status(Connection& c,
                                                                    std::string_view agent_id) {
  std::optional<std::string> out;
  PARLEY_TRY(c.query("SELECT status FROM sources WHERE agent_id = $1 AND finished_at IS NOT NULL"
                     " AND status IN ('trained', 'failed') ORDER BY finished_at DESC, seq DESC LIMIT 1",
                     {agent_id}, [&](const Row& r) { out = r.text(0); }));
  return out;
}

Result<std::optional<SourceRecord>> SourceRepo::next_claimable(Connection& c, int64_t now) {
  return find_one(c,
                  "SELECT " SOURCE_COLUMNS " FROM sources WHERE status = 'pending'"
                  " OR (status = 'processing' AND lease_until < $1) ORDER BY created_at, seq LIMIT 1",
                  {now});
}

Result<bool> SourceRepo::claim(Connection& c, std::string_view id, int64_t now, int64_t lease_until) {
  PARLEY_ASSIGN_OR_RETURN(
      int64_t n, c.execute("UPDATE sources SET status = 'processing', lease_until = $3, updated_at = $2"
                           " WHERE id = $1 AND (status = 'pending' OR (status = 'processing' AND lease_until < $2))",
                           {id, now, lease_until}));
  return n > 0;
}

Result<void> SourceRepo::renew_lease(Connection& c, std::string_view id, int64_t lease_until) {
  PARLEY_TRY(c.execute("UPDATE sources SET lease_until = $2 WHERE id = $1 AND status = 'processing'", {id, lease_until}));
  return {};
}

Result<int64_t> SourceRepo::requeue_processing(Connection& c, int64_t now) {
  return c.execute("UPDATE sources SET status = 'pending', lease_until = NULL, updated_at = $1"
                   " WHERE status = 'processing'",
                   {now});
}

Result<int64_t> SourceRepo::version(Connection& c, std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(auto v, c.query_int("SELECT version FROM knowledge_versions WHERE agent_id = $1",
                                              {agent_id}));
  return v.value_or(0);
}

Result<int64_t> SourceRepo::bump_version(Connection& c, std::string_view agent_id) {
  int64_t out = 0;
  PARLEY_TRY(c.query("INSERT INTO knowledge_versions (agent_id, version) VALUES ($1, 1)"
                     " ON CONFLICT (agent_id) DO UPDATE SET version = knowledge_versions.version + 1"
                     " RETURNING version",
                     {agent_id}, [&](const Row& r) { out = r.int64(0); }));
  record_change(c, Entity::kKnowledge, agent_id);
  return out;
}

Result<void> SourceRepo::set_url(Connection& c, std::string_view id,
                                 const std::optional<std::string>& url) {
  PARLEY_TRY(c.execute("UPDATE sources SET url = $2 WHERE id = $1", {id, db_opt(url)}));
  return {};
}

}  // namespace parley
