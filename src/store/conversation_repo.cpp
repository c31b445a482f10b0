#include "store/conversation_repo.h"

#include <algorithm>
#include <array>
#include <span>

#include "store/agent_repo.h"
#include "store/figure_repo.h"
#include "store/pipelined.h"
#include "store/placeholders.h"

namespace parley {

namespace {
#define CONVERSATION_COLUMNS \
  "id, agent_id, account_id, session_id, channel, country, page, visitor_id, created_at,          \
   last_activity_at, message_count, topics, sentiment, handoff_requested_at, live_chat_status,     \
   live_chat_requested_at, live_chat_started_at, live_chat_ended_at, taken_over_by,                \
   live_chat_offered, csat_score, csat_comment, csat_rated_at, contact_id, identity_status,     \
   identity_external_id"

ConversationRecord read_conversation(const Row& r) {
  ConversationRecord c;
  c.id = r.text(0);
  c.agent_id = r.text(1);
  c.account_id = r.text(2);
  c.session_id = r.text(3);
  c.channel = r.text(4);
  c.country = r.opt_text(5);
  c.page = r.opt_text(6);
  c.visitor_id = r.opt_text(7);
  c.created_at = r.int64(8);
  c.last_activity_at = r.int64(9);
  c.message_count = r.int64(10);
  c.topics = r.text(11);
  c.sentiment = r.opt_text(12);
  c.handoff_requested_at = r.opt_int64(13);
  c.live_chat_status = r.opt_text(14);
  c.live_chat_requested_at = r.opt_int64(15);
  c.live_chat_started_at = r.opt_int64(16);
  c.live_chat_ended_at = r.opt_int64(17);
  c.taken_over_by = r.opt_text(18);
  c.live_chat_offered = r.boolean(19);
  c.csat_score = r.opt_int64(20);
  c.csat_comment = r.opt_text(21);
  c.csat_rated_at = r.opt_int64(22);
  c.contact_id = r.opt_text(23);
  c.identity_status = r.opt_text(24);
  c.identity_external_id = r.opt_text(25);
  return c;
}

#define MESSAGE_COLUMNS                                                                  \
  "id, conversation_id, seq, role, content, author_name, sources, created_at, outcome, " \
  "confidence, rating, rated_at"

MessageRecord read_message(const Row& r) {
  MessageRecord m;
  m.id = r.text(0);
  m.conversation_id = r.text(1);
  m.seq = r.int64(2);
  m.role = r.text(3);
  m.content = r.text(4);
  m.author_name = r.opt_text(5);
  m.sources = r.text(6);
  m.created_at = r.int64(7);
  m.outcome = r.opt_text(8);
  if (!r.is_null(9)) m.confidence = r.real(9);
  m.rating = r.opt_text(10);
  m.rated_at = r.opt_int64(11);
  return m;
}

Result<std::optional<ConversationRecord>> find_where(Connection& c, std::string_view where,
                                                     Params params) {
  std::optional<ConversationRecord> out;
  std::string sql = "SELECT " CONVERSATION_COLUMNS " FROM conversations WHERE ";
  sql += where;
  PARLEY_TRY(c.query(sql, params, [&](const Row& r) { out = read_conversation(r); }));
  return out;
}

// Messages with their seqs already taken, inserted by one statement without waiting
// (store/pipelined.h): a turn's exchange is one statement, not two.
Result<void> insert_messages_later(Connection& c, std::span<const MessageRecord> ms) {
  constexpr size_t kColumns = 12;
  std::vector<DbValue> params;
  params.reserve(ms.size() * kColumns);
  for (const MessageRecord& m : ms) {
    params.insert(params.end(), {m.id, m.conversation_id, m.seq, m.role, m.content,
                                 db_opt(m.author_name), m.sources, m.created_at, db_opt(m.outcome),
                                 db_opt(m.confidence), db_opt(m.rating), db_opt(m.rated_at)});
  }
  return execute_later(
      c,
      "INSERT INTO messages (" MESSAGE_COLUMNS ") VALUES " + placeholder_rows(ms.size(), kColumns),
      params);
}

// What a conversation inserted with `first` adds to the figures, as the recount would read it
// back (FigureRepo's recount): the same rows, counted here.
ConversationFacts facts_of(const ConversationRecord& v, std::span<const MessageRecord> first,
                           std::string_view time_zone) {
  ConversationFacts f;
  f.agent_id = v.agent_id;
  f.created_at = v.created_at;
  f.time_zone = std::string(time_zone);
  f.channel = v.channel;
  f.topics = v.topics;
  f.last_activity_at = v.last_activity_at;
  f.handoff = v.handoff_requested_at.has_value() || v.live_chat_requested_at.has_value();
  f.live_chat_status = v.live_chat_status;
  f.live_chat_started = v.live_chat_started_at.has_value();
  f.csat = v.csat_score;
  int64_t replies_seen = 0;  // the agent's replies from the last one back
  for (auto m = first.rbegin(); m != first.rend(); ++m) {
    if (m->rating == "up") ++f.thumbs_up;
    if (m->rating == "down") ++f.thumbs_down;
    if (m->role == "user") ++f.visitor_messages;
    if (m->role != "assistant" || m->author_name) continue;
    ++f.agent_replies;
    if (m->outcome == "low_confidence") ++f.low_confidence;
    if (m->outcome == "fallback") {
      ++f.fallbacks;
      if (replies_seen < 2) f.recent_fallback = true;
    }
    ++replies_seen;
  }
  return f;
}
}  // namespace

Result<void> ConversationRepo::insert(Connection& c, ConversationRecord v,
                                      std::span<MessageRecord> first,
                                      std::optional<std::string_view> time_zone) {
  for (MessageRecord& m : first) {
    m.conversation_id = v.id;
    m.seq = ++v.message_count;
    v.last_activity_at = std::max(v.last_activity_at, m.created_at);
  }
  PARLEY_TRY(execute_later(
      c,
      "INSERT INTO conversations (" CONVERSATION_COLUMNS
      ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, "
      "$19, $20, $21, $22, $23, $24, $25, $26)",
      {v.id,
       v.agent_id,
       v.account_id,
       v.session_id,
       v.channel,
       db_opt(v.country),
       db_opt(v.page),
       db_opt(v.visitor_id),
       v.created_at,
       v.last_activity_at,
       v.message_count,
       v.topics,
       db_opt(v.sentiment),
       db_opt(v.handoff_requested_at),
       db_opt(v.live_chat_status),
       db_opt(v.live_chat_requested_at),
       db_opt(v.live_chat_started_at),
       db_opt(v.live_chat_ended_at),
       db_opt(v.taken_over_by),
       int64_t{v.live_chat_offered},
       db_opt(v.csat_score),
       db_opt(v.csat_comment),
       db_opt(v.csat_rated_at),
       db_opt(v.contact_id),
       db_opt(v.identity_status),
       db_opt(v.identity_external_id)}));
  if (!first.empty()) PARLEY_TRY(insert_messages_later(c, first));
  PARLEY_TRY(AgentRepo::add_to_counter(c, v.agent_id, AgentCounter::kConversations, 1));
  if (!first.empty()) {
    PARLEY_TRY(AgentRepo::add_to_counter(c, v.agent_id, AgentCounter::kMessages,
                                         static_cast<int64_t>(first.size())));
  }
  if (!time_zone) return FigureRepo::refresh(c, v.id);
  return FigureRepo::count_new(c, v.id, facts_of(v, first, *time_zone));
}

Result<std::optional<ConversationRecord>> ConversationRepo::find(Connection& c,
                                                                 std::string_view account_id,
                                                                 std::string_view id) {
  return find_where(c, "id = $1 AND account_id = $2", {id, account_id});
}

Result<std::optional<ConversationRecord>> ConversationRepo::find_by_session(
    Connection& c, std::string_view agent_id, std::string_view session_id) {
  return find_where(c, "agent_id = $1 AND session_id = $2", {agent_id, session_id});
}

Result<void> ConversationRepo::set_identity(Connection& c, const ConversationRecord& v) {
  PARLEY_TRY(c.execute(
      "UPDATE conversations SET contact_id = $2, identity_status = $3, identity_external_id = $4 "
      "WHERE id = $1",
      {v.id, db_opt(v.contact_id), db_opt(v.identity_status), db_opt(v.identity_external_id)}));
  return {};
}

Result<void> ConversationRepo::update(Connection& c, const ConversationRecord& v) {
  // Not the message count (append_message owns it), and the last activity only ever moves
  // forward: a record read before a concurrent append must not undo that append.
  PARLEY_TRY(c.execute(
      "UPDATE conversations SET "
      "last_activity_at = CASE WHEN last_activity_at > $2 THEN last_activity_at ELSE $2 END, "
      "topics = $3, sentiment = $4, handoff_requested_at = $5, live_chat_status = $6, "
      "live_chat_requested_at = $7, live_chat_started_at = $8, live_chat_ended_at = $9, "
      "taken_over_by = $10, live_chat_offered = $11, csat_score = $12, csat_comment = $13, "
      "csat_rated_at = $14 WHERE id = $1",
      {v.id, v.last_activity_at, v.topics, db_opt(v.sentiment), db_opt(v.handoff_requested_at),
       db_opt(v.live_chat_status), db_opt(v.live_chat_requested_at), db_opt(v.live_chat_started_at),
       db_opt(v.live_chat_ended_at), db_opt(v.taken_over_by), int64_t{v.live_chat_offered},
       db_opt(v.csat_score), db_opt(v.csat_comment), db_opt(v.csat_rated_at)}));
  return FigureRepo::refresh(c, v.id);
}

Result<MessageRecord> ConversationRepo::append_message(Connection& c, MessageRecord m) {
  // The seq is the count after one atomic increment, never a count read first: two writers
  // appending at once queue on the conversation's row and get consecutive numbers (and the
  // UNIQUE (conversation_id, seq) constraint refuses a duplicate whatever happens).
  std::optional<std::string> agent_id;
  PARLEY_TRY(c.query(
      "UPDATE conversations SET message_count = message_count + 1, "
      "last_activity_at = CASE WHEN last_activity_at > $2 THEN last_activity_at ELSE $2 END "
      "WHERE id = $1 RETURNING message_count, agent_id",
      {m.conversation_id, m.created_at}, [&](const Row& r) {
        m.seq = r.int64(0);
        agent_id = r.text(1);
      }));
  if (!agent_id) return ApiError::not_found("No conversation " + m.conversation_id + ".");
  PARLEY_TRY(insert_messages_later(c, std::span(&m, 1)));
  PARLEY_TRY(AgentRepo::add_to_counter(c, *agent_id, AgentCounter::kMessages, 1));
  PARLEY_TRY(FigureRepo::refresh(c, m.conversation_id));
  return m;
}

Result<std::pair<MessageRecord, MessageRecord>> ConversationRepo::append_exchange(
    Connection& c, MessageRecord user, MessageRecord reply) {
  // As append_message: the seqs come from one atomic increment, never a count read first.
  std::optional<std::string> agent_id;
  PARLEY_TRY(c.query(
      "UPDATE conversations SET message_count = message_count + 2, "
      "last_activity_at = CASE WHEN last_activity_at > $2 THEN last_activity_at ELSE $2 END "
      "WHERE id = $1 RETURNING message_count, agent_id",
      {user.conversation_id, std::max(user.created_at, reply.created_at)}, [&](const Row& r) {
        reply.seq = r.int64(0);
        user.seq = reply.seq - 1;
        agent_id = r.text(1);
      }));
  if (!agent_id) return ApiError::not_found("No conversation " + user.conversation_id + ".");
  reply.conversation_id = user.conversation_id;
  std::array<MessageRecord, 2> rows{std::move(user), std::move(reply)};
  PARLEY_TRY(insert_messages_later(c, rows));
  PARLEY_TRY(AgentRepo::add_to_counter(c, *agent_id, AgentCounter::kMessages, 2));
  PARLEY_TRY(FigureRepo::refresh(c, rows[0].conversation_id));
  return std::pair{std::move(rows[0]), std::move(rows[1])};
}

Result<std::optional<MessageRecord>> ConversationRepo::find_message(
    Connection& c, std::string_view conversation_id, std::string_view message_id) {
  std::optional<MessageRecord> out;
  PARLEY_TRY(c.query("SELECT " MESSAGE_COLUMNS
                     " FROM messages WHERE id = $1 AND conversation_id = $2",
                     {message_id, conversation_id}, [&](const Row& r) { out = read_message(r); }));
  return out;
}

Result<void> ConversationRepo::set_rating(Connection& c, std::string_view message_id,
                                          const std::optional<std::string>& rating,
                                          std::optional<int64_t> rated_at) {
  PARLEY_TRY(c.execute("UPDATE messages SET rating = $2, rated_at = $3 WHERE id = $1",
                       {message_id, db_opt(rating), db_opt(rated_at)}));
  return {};
}

Result<bool> ConversationRepo::lock(Connection& c, std::string_view id) {
  return c.lock_row("conversations", id);
}

Result<std::vector<MessageRecord>> ConversationRepo::messages(Connection& c,
                                                              std::string_view conversation_id) {
  return messages_after(c, conversation_id, 0);  // seq counts from 1
}

Result<std::vector<MessageRecord>> ConversationRepo::messages_after(
    Connection& c, std::string_view conversation_id, int64_t after) {
  std::vector<MessageRecord> out;
  PARLEY_TRY(c.query("SELECT " MESSAGE_COLUMNS
                     " FROM messages WHERE conversation_id = $1 AND seq > $2 ORDER BY seq",
                     {conversation_id, after},
                     [&](const Row& r) { out.push_back(read_message(r)); }));
  return out;
}

Result<std::vector<MessageRecord>> ConversationRepo::last_messages(Connection& c,
                                                                   std::string_view conversation_id,
                                                                   size_t n) {
  std::vector<MessageRecord> out;
  PARLEY_TRY(c.query("SELECT " MESSAGE_COLUMNS
                     " FROM messages WHERE conversation_id = $1 ORDER BY seq DESC LIMIT $2",
                     {conversation_id, static_cast<int64_t>(n)},
                     [&](const Row& r) { out.push_back(read_message(r)); }));
  std::reverse(out.begin(), out.end());
  return out;
}

Result<std::optional<int64_t>> ConversationRepo::remove(Connection& c, std::string_view account_id,
                                                        std::string_view id,
                                                        std::optional<int64_t> inactive_before) {
  // The counts taken off are the deleted row's: a turn that committed while the DELETE waited for
  // the row is taken off with the rest (a count read before the DELETE missed it). On
  // PostgreSQL, the DELETE checks its condition again on the row as that turn left it, so a
  // conversation the turn made active is not deleted as inactive.
  std::optional<std::pair<std::string, int64_t>> gone;
  std::string sql = "DELETE FROM conversations WHERE id = $1 AND account_id = $2";
  std::vector<DbValue> params{id, account_id};
  if (inactive_before) {
    sql += " AND last_activity_at < $3";
    params.emplace_back(*inactive_before);
  }
  sql += " RETURNING agent_id, message_count";
  PARLEY_TRY(c.query(sql, params, [&](const Row& r) { gone.emplace(r.text(0), r.int64(1)); }));
  if (!gone) return std::optional<int64_t>();
  PARLEY_TRY(AgentRepo::add_to_counter(c, gone->first, AgentCounter::kConversations, -1));
  PARLEY_TRY(AgentRepo::add_to_counter(c, gone->first, AgentCounter::kMessages, -gone->second));
  return std::optional<int64_t>(gone->second);
}

std::string_view ConversationRepo::columns() { return CONVERSATION_COLUMNS; }

int ConversationRepo::column_count() {
  static const int n = [] {
    std::string_view list = CONVERSATION_COLUMNS;
    return 1 + static_cast<int>(std::count(list.begin(), list.end(), ','));
  }();
  return n;
}
ConversationRecord ConversationRepo::read_row(const Row& r) { return read_conversation(r); }

}  // namespace parley

namespace parley {

Result<std::optional<ConversationRecord>> find_conversation_any(Connection& c,
                                                                std::string_view id) {
  return find_where(c, "id = $1", {id});
}

}  // namespace parley
