#include "store/figure_repo.h"
#include "store/entity_changes.h"
#include "store/pipelined.h"
#include "store/placeholders.h"

#include <set>

#include "core/json.h"
#include "core/time_zone.h"

namespace parley {

void Figures::add(const Figures& o, int64_t sign) {
  conversations += sign * o.conversations;
  visitor_messages += sign * o.visitor_messages;
  agent_replies += sign * o.agent_replies;
  answered += sign * o.answered;
  low_confidence += sign * o.low_confidence;
  fallbacks += sign * o.fallbacks;
  handoffs += sign * o.handoffs;
  live_chats += sign * o.live_chats;
  ended += sign * o.ended;
  resolved += sign * o.resolved;
  csat_sum += sign * o.csat_sum;
  csat_count += sign * o.csat_count;
  for (int i = 0; i < 5; ++i) csat[i] += sign * o.csat[i];
  thumbs_up += sign * o.thumbs_up;
  thumbs_down += sign * o.thumbs_down;
  for (const auto& [k, n] : o.channels) channels[k] += sign * n;
  for (const auto& [k, n] : o.topics) topics[k] += sign * n;
}

namespace {
// One conversation's contribution as stored in conversation_figures.
struct Contribution {
  std::string agent_id;
  int64_t day = 0;
  std::string channel;
  std::vector<std::string> topics;
  int64_t last_activity_at = 0;
  bool idle_ended = false;
  Figures f;  // conversations = 1; channels and topics filled from the two fields above
};

std::vector<std::string> topic_list(std::string_view json) {
  std::vector<std::string> out;
  auto doc = parse_json_value(json);
  if (!doc.ok() || !doc.value().IsArray()) return out;
  std::set<std::string> seen;
  for (const auto& v : doc.value().GetArray()) {
    if (v.IsString() && seen.insert(v.GetString()).second) out.emplace_back(v.GetString());
  }
  return out;
}

std::string topic_json(const std::vector<std::string>& topics) {
  JsonWriter w;
  w.begin_array();
  for (const auto& t : topics) w.string(t);
  w.end_array();
  return w.str();
}

void fill_names(Contribution& k) {
  k.f.channels = {{k.channel, 1}};
  k.f.topics.clear();
  for (const auto& t : k.topics) k.f.topics[t] = 1;
}

void set_csat(Figures& f, std::optional<int64_t> score) {
  if (!score || *score < 1 || *score > 5) return;
  f.csat_sum = *score;
  f.csat_count = 1;
  f.csat[*score - 1] = 1;
}

// What a conversation adds to its day, worked out from `f`: `before` is what it added so far
// (nothing when not counted yet), `now` is the sweeper's time (only it ends a conversation for
// inactivity).
Contribution contribution_of(const ConversationFacts& f, const std::optional<Contribution>& before,
                             std::optional<int64_t> now) {
  Contribution k;
  k.agent_id = f.agent_id;
  k.day = before ? before->day : local_day(f.created_at, f.time_zone);
  k.channel = f.channel;
  k.topics = topic_list(f.topics);
  k.last_activity_at = f.last_activity_at;
  k.f.conversations = 1;
  k.f.visitor_messages = f.visitor_messages;
  k.f.agent_replies = f.agent_replies;
  k.f.low_confidence = f.low_confidence;
  k.f.fallbacks = f.fallbacks;
  k.f.answered = f.agent_replies - f.fallbacks;  // NULL outcome counts as answered
  k.f.thumbs_up = f.thumbs_up;
  k.f.thumbs_down = f.thumbs_down;
  k.f.handoffs = f.handoff ? 1 : 0;
  k.f.live_chats = f.live_chat_started ? 1 : 0;
  set_csat(k.f, f.csat);
  // Ended: the live chat ended, the visitor gave a CSAT, or the sweeper found it idle (and no
  // activity came since). A conversation waiting for or with a person is not idle.
  const auto& live_status = f.live_chat_status;
  bool waiting = live_status == "requested" || live_status == "active";
  k.idle_ended = !waiting &&
                 ((now && *now - k.last_activity_at >= kConversationIdleMs) ||
                  (before && before->idle_ended && before->last_activity_at == k.last_activity_at));
  bool ended = live_status == "ended" || f.csat.has_value() || k.idle_ended;
  k.f.ended = ended ? 1 : 0;
  k.f.resolved = ended && !f.handoff && !f.recent_fallback ? 1 : 0;
  fill_names(k);
  return k;
}

// A conversation's contribution as stored (`before`, nothing when not counted yet) and as its
// rows say now (`after`, nothing when it is gone), read by one statement.
struct Recount {
  std::optional<Contribution> before;
  std::optional<Contribution> after;
};

// The recount names the conversation by a scalar subquery, (SELECT CAST($1 AS TEXT)), rather
// than by the parameter itself. PostgreSQL plans a prepared statement with its parameters' values
// (a custom plan) on its first five runs, and goes on doing so as long as those plans came out
// cheaper than the plan without values; planning this statement costs about 0.4 ms, eight times
// its run. With the value hidden in the subquery, a plan for a value is the plan without one
// (each table read by its key, the subquery run once) and never cheaper, so that plan is made
// once per connection and kept, until an ANALYZE of one of its tables.
Result<Recount> recount(Connection& c, std::string_view conversation_id,
                        std::optional<int64_t> now) {
  Recount out;
  std::optional<ConversationFacts> facts;
  PARLEY_TRY(c.query(
      "SELECT f.agent_id, f.day, f.channel, f.topics, f.last_activity_at, f.idle_ended,"
      " f.visitor_messages, f.agent_replies, f.answered, f.low_confidence, f.fallbacks, f.handoff,"
      " f.live_chat, f.ended, f.resolved, f.csat, f.thumbs_up, f.thumbs_down, f.conversation_id,"
      " c.agent_id, c.created_at, c.channel, c.topics, c.last_activity_at,"
      " c.handoff_requested_at, c.live_chat_requested_at, c.live_chat_status,"
      " c.live_chat_started_at, c.csat_score, a.time_zone, a.id,"
      " COALESCE(m.users, 0), COALESCE(m.replies, 0), COALESCE(m.low, 0),"
      " COALESCE(m.fallbacks, 0), COALESCE(m.up, 0), COALESCE(m.down, 0),"
      " (SELECT COUNT(*) FROM (SELECT outcome FROM messages"
      "   WHERE conversation_id = (SELECT CAST($1 AS TEXT)) AND role = 'assistant'"
      "   AND author_name IS NULL ORDER BY seq DESC LIMIT 2) r"
      "   WHERE r.outcome = 'fallback')"
      " FROM (SELECT (SELECT CAST($1 AS TEXT)) AS id) k"
      " LEFT JOIN conversation_figures f ON f.conversation_id = k.id"
      " LEFT JOIN conversations c ON c.id = k.id"
      " LEFT JOIN accounts a ON a.id = c.account_id"
      " CROSS JOIN (SELECT"
      "   SUM(CASE WHEN role = 'user' THEN 1 ELSE 0 END) AS users,"
      "   SUM(CASE WHEN role = 'assistant' AND author_name IS NULL THEN 1 ELSE 0 END) AS replies,"
      "   SUM(CASE WHEN role = 'assistant' AND author_name IS NULL"
      "     AND outcome = 'low_confidence' THEN 1 ELSE 0 END) AS low,"
      "   SUM(CASE WHEN role = 'assistant' AND author_name IS NULL"
      "     AND outcome = 'fallback' THEN 1 ELSE 0 END) AS fallbacks,"
      "   SUM(CASE WHEN rating = 'up' THEN 1 ELSE 0 END) AS up,"
      "   SUM(CASE WHEN rating = 'down' THEN 1 ELSE 0 END) AS down"
      "   FROM messages WHERE conversation_id = (SELECT CAST($1 AS TEXT))) m",
      {conversation_id}, [&](const Row& r) {
        if (!r.is_null(18)) {
          Contribution k;
          k.agent_id = r.text(0);
          k.day = r.int64(1);
          k.channel = r.text(2);
          k.topics = topic_list(r.text_view(3));
          k.last_activity_at = r.int64(4);
          k.idle_ended = r.boolean(5);
          k.f.conversations = 1;
          k.f.visitor_messages = r.int64(6);
          k.f.agent_replies = r.int64(7);
          k.f.answered = r.int64(8);
          k.f.low_confidence = r.int64(9);
          k.f.fallbacks = r.int64(10);
          k.f.handoffs = r.int64(11);
          k.f.live_chats = r.int64(12);
          k.f.ended = r.int64(13);
          k.f.resolved = r.int64(14);
          set_csat(k.f, r.opt_int64(15));
          k.f.thumbs_up = r.int64(16);
          k.f.thumbs_down = r.int64(17);
          fill_names(k);
          out.before = std::move(k);
        }
        if (r.is_null(19) || r.is_null(30)) return;  // the conversation (or its account) is gone
        ConversationFacts f;
        f.agent_id = r.text(19);
        f.created_at = r.int64(20);
        f.time_zone = r.text(29);
        f.channel = r.text(21);
        f.topics = r.text(22);
        f.last_activity_at = r.int64(23);
        f.handoff = !r.is_null(24) || !r.is_null(25);
        f.live_chat_status = r.opt_text(26);
        f.live_chat_started = !r.is_null(27);
        f.csat = r.opt_int64(28);
        f.visitor_messages = r.int64(31);
        f.agent_replies = r.int64(32);
        f.low_confidence = r.int64(33);
        f.fallbacks = r.int64(34);
        f.thumbs_up = r.int64(35);
        f.thumbs_down = r.int64(36);
        f.recent_fallback = r.int64(37) > 0;
        facts = std::move(f);
      }));
  if (facts) out.after = contribution_of(*facts, out.before, now);
  return out;
}

Result<void> move_day(Connection& c, std::string_view agent_id, int64_t day, const Figures& d) {
  const bool any = d.conversations || d.visitor_messages || d.agent_replies || d.answered ||
                   d.low_confidence || d.fallbacks || d.handoffs || d.live_chats || d.ended ||
                   d.resolved || d.csat_sum || d.csat_count || d.thumbs_up || d.thumbs_down;
  if (any) {
    PARLEY_TRY(execute_later(
        c,
        "INSERT INTO figure_days (agent_id, day, conversations, visitor_messages, agent_replies,"
        " answered, low_confidence, fallbacks, handoffs, live_chats, ended, resolved, csat_sum,"
        " csat_count, csat_1, csat_2, csat_3, csat_4, csat_5, thumbs_up, thumbs_down) VALUES"
        " ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,"
        " $20, $21) ON CONFLICT (agent_id, day) DO UPDATE SET"
        " conversations = figure_days.conversations + excluded.conversations,"
        " visitor_messages = figure_days.visitor_messages + excluded.visitor_messages,"
        " agent_replies = figure_days.agent_replies + excluded.agent_replies,"
        " answered = figure_days.answered + excluded.answered,"
        " low_confidence = figure_days.low_confidence + excluded.low_confidence,"
        " fallbacks = figure_days.fallbacks + excluded.fallbacks,"
        " handoffs = figure_days.handoffs + excluded.handoffs,"
        " live_chats = figure_days.live_chats + excluded.live_chats,"
        " ended = figure_days.ended + excluded.ended,"
        " resolved = figure_days.resolved + excluded.resolved,"
        " csat_sum = figure_days.csat_sum + excluded.csat_sum,"
        " csat_count = figure_days.csat_count + excluded.csat_count,"
        " csat_1 = figure_days.csat_1 + excluded.csat_1,"
        " csat_2 = figure_days.csat_2 + excluded.csat_2,"
        " csat_3 = figure_days.csat_3 + excluded.csat_3,"
        " csat_4 = figure_days.csat_4 + excluded.csat_4,"
        " csat_5 = figure_days.csat_5 + excluded.csat_5,"
        " thumbs_up = figure_days.thumbs_up + excluded.thumbs_up,"
        " thumbs_down = figure_days.thumbs_down + excluded.thumbs_down",
        {agent_id,        day,          d.conversations,  d.visitor_messages,
         d.agent_replies, d.answered,   d.low_confidence, d.fallbacks,
         d.handoffs,      d.live_chats, d.ended,          d.resolved,
         d.csat_sum,      d.csat_count, d.csat[0],        d.csat[1],
         d.csat[2],       d.csat[3],    d.csat[4],        d.thumbs_up,
         d.thumbs_down}));
  }
  // Every name that moved (the channel, each topic) in one statement.
  constexpr size_t kColumns = 5;
  std::vector<DbValue> params;
  auto names = [&](std::string_view kind, const std::map<std::string, int64_t>& m) {
    for (const auto& [name, n] : m) {
      if (n != 0) params.insert(params.end(), {agent_id, day, kind, name, n});
    }
  };
  names("channel", d.channels);
  names("topic", d.topics);
  if (params.empty()) return {};
  return execute_later(c,
                       "INSERT INTO figure_day_names (agent_id, day, kind, name, count) VALUES " +
                           placeholder_rows(params.size() / kColumns, kColumns) +
                           " ON CONFLICT (agent_id, day, kind, name) DO UPDATE SET"
                           " count = figure_day_names.count + excluded.count",
                       params);
}

#define INSERT_FIGURES                                                                        \
  "INSERT INTO conversation_figures (conversation_id, agent_id, day, channel, topics,"        \
  " last_activity_at, idle_ended, visitor_messages, agent_replies, answered, low_confidence," \
  " fallbacks, handoff, live_chat, ended, resolved, csat, thumbs_up, thumbs_down) VALUES"     \
  " ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)"
constexpr std::string_view kInsertFigures = INSERT_FIGURES;
constexpr std::string_view kUpsertFigures = INSERT_FIGURES
    " ON CONFLICT (conversation_id) DO UPDATE SET channel = excluded.channel,"
    " topics = excluded.topics, last_activity_at = excluded.last_activity_at,"
    " idle_ended = excluded.idle_ended, visitor_messages = excluded.visitor_messages,"
    " agent_replies = excluded.agent_replies, answered = excluded.answered,"
    " low_confidence = excluded.low_confidence, fallbacks = excluded.fallbacks,"
    " handoff = excluded.handoff, live_chat = excluded.live_chat, ended = excluded.ended,"
    " resolved = excluded.resolved, csat = excluded.csat, thumbs_up = excluded.thumbs_up,"
    " thumbs_down = excluded.thumbs_down";
#undef INSERT_FIGURES

// Stores the conversation's contribution: inserted for a conversation this unit of work inserted
// (no row can be there yet), else upserted.
Result<void> save(Connection& c, std::string_view conversation_id, const Contribution& k,
                  bool inserted_here) {
  const Figures& f = k.f;
  std::optional<int64_t> csat;
  if (f.csat_count) csat = f.csat_sum;
  PARLEY_TRY(execute_later(
      c, inserted_here ? kInsertFigures : kUpsertFigures,
      {conversation_id, std::string_view(k.agent_id), k.day, std::string_view(k.channel),
       topic_json(k.topics), k.last_activity_at, int64_t{k.idle_ended ? 1 : 0}, f.visitor_messages,
       f.agent_replies, f.answered, f.low_confidence, f.fallbacks, f.handoffs, f.live_chats,
       f.ended, f.resolved, db_opt(csat), f.thumbs_up, f.thumbs_down}));
  return {};
}
}  // namespace

namespace {
constexpr std::string_view kRefreshKey = "figures:";

// Moves the day's roll-ups by the difference between what the conversation added (`before`) and
// what it adds now (`after`), and stores the latter. `inserted_here`: the unit of work inserted
// the conversation.
Result<void> apply(Connection& c, std::string_view conversation_id, const Recount& counts,
                   bool inserted_here = false) {
  const std::optional<Contribution>& before = counts.before;
  const std::optional<Contribution>& after = counts.after;
  if (!after) return {};  // deleted: its figures stay counted
  if (before && before->day == after->day && before->agent_id == after->agent_id) {
    Figures d = after->f;
    d.add(before->f, -1);
    PARLEY_TRY(move_day(c, after->agent_id, after->day, d));
  } else {
    if (before) {
      Figures out;
      out.add(before->f, -1);
      PARLEY_TRY(move_day(c, before->agent_id, before->day, out));
    }
    PARLEY_TRY(move_day(c, after->agent_id, after->day, after->f));
  }
  return save(c, conversation_id, *after, inserted_here);
}

// Recounts the conversation and moves its day's roll-ups by the difference, at once.
Result<void> refresh_now(Connection& c, std::string_view conversation_id,
                         std::optional<int64_t> now) {
  PARLEY_ASSIGN_OR_RETURN(Recount counts, recount(c, conversation_id, now));
  return apply(c, conversation_id, counts);
}

// A conversation's figures, deferred to the end of the unit of work: a chat turn that inserts the
// conversation and appends two messages counts it once. From the facts its insert wrote when it
// has them and nothing else changed it since (count_new); else recounted from its rows.
class DeferredRefresh final : public Deferred {
 public:
  DeferredRefresh(std::string conversation_id, std::optional<ConversationFacts> written)
      : id_(std::move(conversation_id)), written_(std::move(written)) {}
  Result<void> run(Connection& c) override {
    if (!written_) return refresh_now(c, id_, std::nullopt);
    Recount counts;  // new in this unit of work: nothing counted before
    counts.after = contribution_of(*written_, std::nullopt, std::nullopt);
    return apply(c, id_, counts, /*inserted_here=*/true);
  }
  // The conversation changed after its insert: its rows say what it adds now.
  void count_from_rows() { written_.reset(); }

 private:
  std::string id_;
  std::optional<ConversationFacts> written_;
};
}  // namespace

Result<void> FigureRepo::refresh(Connection& c, std::string_view conversation_id,
                                 std::optional<int64_t> now) {
  std::string key = std::string(kRefreshKey).append(conversation_id);
  // Only this file defers work under kRefreshKey.
  auto* pending = static_cast<DeferredRefresh*>(find_deferred(c, key));
  if (now) {
    // Counted at once; what is still deferred for it counts from the rows as they will be then.
    if (pending != nullptr) pending->count_from_rows();
    return refresh_now(c, conversation_id, now);
  }
  if (pending != nullptr) {
    pending->count_from_rows();
    return {};
  }
  return defer(c, std::move(key),
               std::make_unique<DeferredRefresh>(std::string(conversation_id), std::nullopt));
}

Result<void> FigureRepo::count_new(Connection& c, std::string_view id, ConversationFacts facts) {
  std::string key = std::string(kRefreshKey).append(id);
  if (find_deferred(c, key) != nullptr) return {};  // a recount is asked for already
  return defer(c, std::move(key),
               std::make_unique<DeferredRefresh>(std::string(id), std::move(facts)));
}

Result<void> FigureRepo::refresh_for_message(Connection& c, std::string_view message_id) {
  std::optional<std::string> conversation_id;
  PARLEY_TRY(c.query("SELECT conversation_id FROM messages WHERE id = $1", {message_id},
                     [&](const Row& r) { conversation_id = r.text(0); }));
  if (!conversation_id) return {};
  return refresh(c, *conversation_id);
}

Result<std::vector<std::string>> FigureRepo::idle(Connection& c, int64_t idle_before,
                                                  int64_t limit) {
  std::vector<std::string> out;
  PARLEY_TRY(
      c.query("SELECT f.conversation_id FROM conversation_figures f"
              " JOIN conversations c ON c.id = f.conversation_id"
              " WHERE f.ended = 0 AND f.last_activity_at <= $1"
              " AND (c.live_chat_status IS NULL OR c.live_chat_status = 'ended')"
              " ORDER BY f.last_activity_at LIMIT $2",
              {idle_before, limit}, [&](const Row& r) { out.push_back(r.text(0)); }));
  return out;
}

Result<std::vector<FigureDay>> FigureRepo::days(Connection& c, std::string_view agent_id,
                                                int64_t first, int64_t last) {
  std::vector<FigureDay> out;
  PARLEY_TRY(run_deferred_now(c, kRefreshKey));
  PARLEY_TRY(c.query(
      "SELECT day, conversations, visitor_messages, agent_replies, answered, low_confidence,"
      " fallbacks, handoffs, live_chats, ended, resolved, csat_sum, csat_count, csat_1, csat_2,"
      " csat_3, csat_4, csat_5, thumbs_up, thumbs_down FROM figure_days"
      " WHERE agent_id = $1 AND day BETWEEN $2 AND $3 ORDER BY day",
      {agent_id, first, last}, [&](const Row& r) {
        FigureDay d;
        d.day = r.int64(0);
        Figures& f = d.figures;
        f.conversations = r.int64(1);
        f.visitor_messages = r.int64(2);
        f.agent_replies = r.int64(3);
        f.answered = r.int64(4);
        f.low_confidence = r.int64(5);
        f.fallbacks = r.int64(6);
        f.handoffs = r.int64(7);
        f.live_chats = r.int64(8);
        f.ended = r.int64(9);
        f.resolved = r.int64(10);
        f.csat_sum = r.int64(11);
        f.csat_count = r.int64(12);
        for (int i = 0; i < 5; ++i) f.csat[i] = r.int64(13 + i);
        f.thumbs_up = r.int64(18);
        f.thumbs_down = r.int64(19);
        out.push_back(std::move(d));
      }));
  size_t at = 0;
  PARLEY_TRY(c.query(
      "SELECT day, kind, name, count FROM figure_day_names"
      " WHERE agent_id = $1 AND day BETWEEN $2 AND $3 AND count > 0 ORDER BY day",
      {agent_id, first, last}, [&](const Row& r) {
        int64_t day = r.int64(0);
        while (at < out.size() && out[at].day < day) ++at;
        if (at == out.size() || out[at].day != day) return;
        auto& m = r.text_view(1) == "channel" ? out[at].figures.channels : out[at].figures.topics;
        m[r.text(2)] = r.int64(3);
      }));
  return out;
}

}  // namespace parley
