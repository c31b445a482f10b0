#include "store/gap_repo.h"
#include "store/pipelined.h"

#include <algorithm>

namespace parley {

namespace {
#define GAP_GROUP_COLUMNS \
  "id, agent_id, account_id, terms, created_at, last_asked_at, resolved_at, answer_source_id"
#define GAP_COLUMNS \
  "message_id, group_id, agent_id, conversation_id, reply_id, reason, channel, asked_at"

GapGroupRecord read_group(const Row& r) {
  GapGroupRecord g;
  g.id = r.text(0);
  g.agent_id = r.text(1);
  g.account_id = r.text(2);
  g.terms = r.text(3);
  g.created_at = r.int64(4);
  g.last_asked_at = r.int64(5);
  g.resolved_at = r.opt_int64(6);
  g.answer_source_id = r.opt_text(7);
  return g;
}

GapRecord read_gap(const Row& r, int at = 0) {
  GapRecord g;
  g.message_id = r.text(at + 0);
  g.group_id = r.text(at + 1);
  g.agent_id = r.text(at + 2);
  g.conversation_id = r.text(at + 3);
  g.reply_id = r.opt_text(at + 4);
  g.reason = r.text(at + 5);
  g.channel = r.text(at + 6);
  g.asked_at = r.int64(at + 7);
  return g;
}
}  // namespace

Result<void> GapRepo::insert_group(Connection& c, const GapGroupRecord& g) {
  PARLEY_TRY(execute_later(
      c, "INSERT INTO gap_groups (" GAP_GROUP_COLUMNS ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
      {g.id, g.agent_id, g.account_id, g.terms, g.created_at, g.last_asked_at,
       db_opt(g.resolved_at), db_opt(g.answer_source_id)}));
  return {};
}

Result<void> GapRepo::insert_new_gap(Connection& c, const GapRecord& g) {
  return execute_later(c,
                       "INSERT INTO gaps (" GAP_COLUMNS ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                       {g.message_id, g.group_id, g.agent_id, g.conversation_id,
                        db_opt(g.reply_id), g.reason, g.channel, g.asked_at});
}

Result<bool> GapRepo::insert_gap(Connection& c, const GapRecord& g) {
  int64_t added = 0;
  PARLEY_TRY(c.query("INSERT INTO gaps (" GAP_COLUMNS ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8) "
                     "ON CONFLICT (message_id) DO NOTHING RETURNING message_id",
                     {g.message_id, g.group_id, g.agent_id, g.conversation_id, db_opt(g.reply_id),
                      g.reason, g.channel, g.asked_at},
                     [&](const Row&) { ++added; }));
  return added > 0;
}

Result<void> GapRepo::touch_group(Connection& c, std::string_view group_id, int64_t asked_at) {
  PARLEY_TRY(execute_later(
      c,
      "UPDATE gap_groups SET "
      "resolved_at = CASE WHEN resolved_at IS NOT NULL AND resolved_at < $2 THEN NULL ELSE "
      "resolved_at END, "
      "last_asked_at = CASE WHEN last_asked_at > $2 THEN last_asked_at ELSE $2 END WHERE id = $1",
      {group_id, asked_at}));
  return {};
}

Result<bool> GapRepo::remove_gap(Connection& c, std::string_view message_id,
                                 std::string_view reason) {
  int64_t removed = 0;
  PARLEY_TRY(c.query("DELETE FROM gaps WHERE message_id = $1 AND reason = $2 RETURNING message_id",
                     {message_id, reason}, [&](const Row&) { ++removed; }));
  return removed > 0;
}

Result<int64_t> GapRepo::remove_conversation_gaps(Connection& c, std::string_view conversation_id,
                                                  std::string_view reason) {
  int64_t removed = 0;
  PARLEY_TRY(
      c.query("DELETE FROM gaps WHERE conversation_id = $1 AND reason = $2 RETURNING message_id",
              {conversation_id, reason}, [&](const Row&) { ++removed; }));
  return removed;
}

Result<std::optional<GapRecord>> GapRepo::find_gap(Connection& c, std::string_view message_id) {
  std::optional<GapRecord> out;
  PARLEY_TRY(c.query("SELECT " GAP_COLUMNS " FROM gaps WHERE message_id = $1", {message_id},
                     [&](const Row& r) { out = read_gap(r); }));
  return out;
}

namespace {
constexpr std::string_view kRecentGroups =
    "SELECT " GAP_GROUP_COLUMNS " FROM gap_groups WHERE agent_id = $1 "
    "ORDER BY last_asked_at DESC, id DESC LIMIT $2";
}  // namespace

Result<std::vector<GapGroupRecord>> GapRepo::recent_groups(Connection& c, std::string_view agent_id,
                                                           size_t limit) {
  std::vector<GapGroupRecord> out;
  PARLEY_TRY(c.query(kRecentGroups, {agent_id, static_cast<int64_t>(limit)},
                     [&](const Row& r) { out.push_back(read_group(r)); }));
  return out;
}

Result<void> GapRepo::recent_groups_later(Connection& c, std::string_view agent_id, size_t limit,
                                          std::vector<GapGroupRecord>& out) {
  out.clear();
  return query_later(c, kRecentGroups, {agent_id, static_cast<int64_t>(limit)},
                     [&out](const Row& r) { out.push_back(read_group(r)); });
}

Result<std::optional<GapGroupRecord>> GapRepo::find_group(Connection& c, std::string_view agent_id,
                                                          std::string_view id) {
  std::optional<GapGroupRecord> out;
  PARLEY_TRY(c.query("SELECT " GAP_GROUP_COLUMNS " FROM gap_groups WHERE id = $1 AND agent_id = $2",
                     {id, agent_id}, [&](const Row& r) { out = read_group(r); }));
  return out;
}

Result<Page<GapGroupRecord>> GapRepo::list(Connection& c, std::string_view agent_id,
                                           GapStatus status, const PageQuery& q) {
  const KeysetTable table{"gap_groups", GAP_GROUP_COLUMNS, "created_at", "last_asked_at"};
  std::string scope =
      "agent_id = $1 AND EXISTS (SELECT 1 FROM gaps g WHERE g.group_id = gap_groups.id)";
  if (status == GapStatus::kOpen) scope += " AND resolved_at IS NULL";
  if (status == GapStatus::kResolved) scope += " AND resolved_at IS NOT NULL";
  std::vector<GapGroupRecord> rows;
  PARLEY_TRY(query_keyset_page(c, table, scope, {std::string(agent_id)}, q,
                               [&](const Row& r) { rows.push_back(read_group(r)); }));
  return finish_page(std::move(rows), q.limit);
}

Result<std::optional<GapGroupView>> GapRepo::view(Connection& c, const GapGroupRecord& g) {
  GapGroupView v;
  v.group = g;
  PARLEY_TRY(c.query("SELECT COUNT(*), MIN(asked_at), MAX(asked_at) FROM gaps WHERE group_id = $1",
                     {g.id}, [&](const Row& r) {
                       v.count = r.int64(0);
                       if (v.count > 0) {
                         v.first_asked_at = r.int64(1);
                         v.last_asked_at = r.int64(2);
                       }
                     }));
  if (v.count == 0) return std::optional<GapGroupView>();
  PARLEY_TRY(c.query("SELECT DISTINCT channel FROM gaps WHERE group_id = $1 ORDER BY channel",
                     {g.id}, [&](const Row& r) { v.channels.push_back(r.text(0)); }));
  PARLEY_TRY(
      c.query("SELECT m.content FROM gaps g JOIN messages m ON m.id = g.message_id "
              "WHERE g.group_id = $1 ORDER BY g.asked_at, g.message_id LIMIT 1",
              {g.id}, [&](const Row& r) { v.question = r.text(0); }));
  return std::optional<GapGroupView>(std::move(v));
}

Result<std::vector<GapQuestion>> GapRepo::questions(Connection& c, std::string_view group_id,
                                                    size_t limit) {
  std::vector<GapQuestion> out;
  PARLEY_TRY(c.query(
      "SELECT g.message_id, g.group_id, g.agent_id, g.conversation_id, g.reply_id, g.reason, "
      "g.channel, g.asked_at, m.content FROM gaps g JOIN messages m ON m.id = g.message_id "
      "WHERE g.group_id = $1 ORDER BY g.asked_at DESC, g.message_id DESC LIMIT $2",
      {group_id, static_cast<int64_t>(limit)}, [&](const Row& r) {
        out.push_back({read_gap(r), r.text(8)});
      }));
  return out;
}

Result<void> GapRepo::remove_if_empty(Connection& c, std::string_view group_id) {
  PARLEY_TRY(
      c.execute("DELETE FROM gap_groups WHERE id = $1 AND NOT EXISTS "
                "(SELECT 1 FROM gaps g WHERE g.group_id = gap_groups.id)",
                {group_id}));
  return {};
}

Result<int64_t> GapRepo::remove_empty_groups(Connection& c, std::string_view agent_id) {
  int64_t removed = 0;
  PARLEY_TRY(
      c.query("DELETE FROM gap_groups WHERE agent_id = $1 AND NOT EXISTS "
              "(SELECT 1 FROM gaps g WHERE g.group_id = gap_groups.id) RETURNING id",
              {agent_id}, [&](const Row&) { ++removed; }));
  return removed;
}

Result<void> GapRepo::resolve(Connection& c, std::string_view group_id, int64_t at,
                              std::string_view answer_source_id) {
  PARLEY_TRY(
      c.execute("UPDATE gap_groups SET resolved_at = $2, answer_source_id = $3 WHERE id = $1",
                {group_id, at, answer_source_id}));
  return {};
}

}  // namespace parley
