// The chat flow behind POST /api/v1/agents/{agentId}/chat, as one domain function: validate the
// request, find or start the conversation, check plan messages, the agent's cap and its busy
// limit, honour a team takeover, run the reply engine within the deadline, then write the user
// message, the reply, the counters, a lead from contact details and its outbox event in one
// transaction. Nothing is stored when any step fails. Knows no HTTP; safe from many threads.
#pragma once

#include <optional>
#include <string>

#include "core/clock.h"
#include "core/random.h"
#include "domain/chat_slots.h"
#include "domain/conversations.h"
#include "domain/plan_message_hold.h"
#include "domain/reply_metrics.h"
#include "domain/usage.h"
#include "domain/widget_identity.h"
#include "engine/mailer.h"
#include "engine/reply_engine.h"
#include "knowledge/retriever.h"
#include "store/agent_repo.h"
#include "store/conversation_repo.h"
#include "store/db.h"

namespace parley {

class AccountCache;
class AgentCache;
struct LoadedAgent;

// Chat limits set when the server starts.
struct ChatConfig {
  int64_t timeout_ms = 55'000;                 // 504 timeout beyond this
  int64_t event_stream_heartbeat_ms = 15'000;  // a comment line in an event stream this long silent
  int64_t replies_per_agent_hour = kDefaultRepliesPerAgentHour;
  // A turn adds two messages; one that would pass this is refused with 409 conflict.
  int64_t max_messages_per_conversation = kDefaultMaxMessagesPerConversation;
};

// The 504 a chat turn ends with past its deadline, whichever step noticed: the same code and
// message whether the request waited for a thread, the engine ran out of time or the deadline
// answered first. "The reply took longer than 55 seconds."
ApiError reply_timeout(int64_t timeout_ms);

struct ChatServices {
  Database& db;
  const Clock& clock;
  Random& random;
  const ReplyEngine& engine;
  const Retriever& retriever;
  ChatConfig config;
  const Mailer* mailer = nullptr;   // hand-off mail; null: hand-offs by email fail with 500
  ChatSlots* slots = nullptr;       // engines in flight per agent and account; null: no caps
  AgentCache* agents = nullptr;     // agents with their settings read; null: loaded every turn
  AccountCache* accounts = nullptr;  // accounts with their limits read; null: read every turn
  ReplyMetrics* metrics = nullptr;  // replies by engine and outcome for /metrics; null: not counted
  // The reply counters known in memory (SQLite); null: read every turn.
  std::shared_ptr<UsageCounts> usage = nullptr;
};

inline constexpr size_t kMaxMessageChars = 10'000;
inline constexpr size_t kMaxSessionIdChars = 100;

// A chat message from the widget instead of the API: the conversation records the visitor, page
// and country, and the widget's own rules (widget_rules.h) apply.
struct WidgetVisitor {
  std::string visitor_id;
  std::optional<std::string> page;
  std::optional<std::string> country;  // from the trusted country header; nothing when unknown
  // A team member trying the agent in the dashboard: private agents answer, and the widget's
  // country and per-visitor rules do not apply (the conversation is a widget one all the same).
  bool in_dashboard = false;
  // The page's signed user id, already checked against the agent's secret: stored with the
  // conversation (and bound to a contact when verified) in the turn's transaction.
  std::optional<IdentityCheck> identity;
};

inline constexpr size_t kMaxVisitorIdChars = 100;
// The visitor ids of the dashboard's try-it chats; a widget page may not use them.
inline constexpr std::string_view kDashboardVisitorPrefix = "dashboard_";
inline constexpr size_t kMaxPageChars = 2'000;

struct ChatRequest {
  std::string agent_id = {};
  std::string message = {};
  std::optional<std::string> conversation_id = {};
  std::optional<std::string> session_id = {};
  std::optional<std::string> time_zone = {};  // IANA zone; UTC when absent
  std::optional<WidgetVisitor> widget = {};   // set: channel `widget`, else `api`
  // The history the agent sees, given by the caller (the OpenAI-compatible front: the request's
  // earlier messages) instead of read from the stored conversation; only the last 40 are kept.
  // Nothing of it is stored: the turn stores its own two messages as always.
  std::optional<std::vector<HistoryMessage>> history = {};
  // Sampling options for an LLM engine's provider call (the built-in engine ignores them).
  GenerationOptions generation = {};
  // How long the request had already waited (for a thread) when it was prepared: the reply's
  // deadline counts from the request's arrival.
  int64_t waited_ms = 0;
};

struct ChatReply {
  std::string reply;
  std::string conversation_id;
  std::string session_id;
  ReplyBlocks blocks;  // `sources` only when the agent shows sources
  std::optional<std::string> live_chat;
};

// 400 invalid_request naming the field: message blank or over 10,000 characters, sessionId
// empty or over 100, conversationId empty, timeZone not an IANA zone; for the widget, visitorId
// empty or over 100, page over 2,000.
Result<void> validate_chat_request(const ChatRequest& request);

// True when `zone` names a time zone of the system's tz database ("Europe/Paris", "UTC").
bool is_known_time_zone(std::string_view zone);

// The stored session id for a caller's session id: as given when it begins with "svcapi",
// else "svcapi_" + a digest of (agent, session).
std::string api_session_id(std::string_view agent_id, std::string_view caller_session);

// One chat turn in three steps, so that a streamed reply can start sending text while the engine
// writes it: prepare() checks everything that can refuse the request (400/404/403/429, and 504
// when the request waited past its deadline before it got here) and finds the conversation;
// run() writes the reply through the engine (504 past the deadline); commit() stores the
// exchange in one transaction. run() also comes in two halves, start_engine() and finish_run(),
// so that no thread waits while an engine waits on its provider (domain/chat_runner.h). A turn is
// used by one thread at a time.
// prepare() also analyses the message once and decides the turn's intents (engine/turn_analysis.h);
// the engine, the commit's contact details, gap and topics all read that one analysis.
// Unless a team member has the conversation, prepare() takes an engine slot (chat_slots.h: 429
// agent_busy past the agent's or account's cap) and the run is counted on the agent's hour
// (EngineRunCount); the slot is given back when run() returns, so a run its client stopped
// waiting for keeps it.
//
// The agent's hour counts engine runs, whatever their outcome: a turn that stores its exchange
// counts its run in the same transaction; one that ends otherwise (the engine failed or ran out of
// time, the plan refused it as it was stored, its client went away) counts it on its own, written
// behind, when the turn is destroyed.
class EngineRunCount {
 public:
  EngineRunCount(Database& db, std::shared_ptr<UsageCounts> usage, std::string agent_id, int64_t at)
      : db_(db), usage_(std::move(usage)), agent_id_(std::move(agent_id)), at_(at) {}
  EngineRunCount(const EngineRunCount&) = delete;
  EngineRunCount& operator=(const EngineRunCount&) = delete;
  ~EngineRunCount();

  // Counts the run in the transaction of `c`, the hour's count after it set in `count` when
  // given; committed() once that transaction committed.
  Result<void> count_in(Connection& c, int64_t* count = nullptr) const;
  // The run for count_reply_within_limits_later, which counts it with the turn's reply.
  EngineRunAt with_reply(int64_t* count = nullptr) const { return {at_, count}; }
  void committed() { counted_ = true; }
  // The place in `seen` for the hour's count this run makes.
  int64_t* place_in(CountsSeen& seen) const;

 private:
  Database& db_;
  std::shared_ptr<UsageCounts> usage_;
  std::string agent_id_;
  int64_t at_;
  bool counted_ = false;
};

class ChatTurn {
 public:
  static Result<ChatTurn> prepare(ChatServices& s, std::string_view account_id,
                                  const ChatRequest& request);

  // A team member has the conversation: run() writes nothing and commit() stores only the
  // user message.
  bool paused() const { return paused_; }
  // The live-chat state known before the engine runs (paused, or the turn's intents'), for the
  // X-Live-Chat header of a stream.
  const std::optional<std::string>& known_live_chat() const { return known_live_chat_; }
  const std::string& conversation_id() const { return reply_.conversation_id; }
  const std::string& session_id() const { return reply_.session_id; }
  int64_t deadline_ms() const { return deadline_ms_; }
  ChatServices& services() { return s_; }

  // Runs the engine; each piece of text goes to `sink` as it is written. May run on another
  // thread than prepare() and commit() (not at the same time).
  Result<void> run(const TextSink& sink);
  // run() without waiting: starts the engine (ReplyEngine::start_reply), which hands each piece
  // to `sink` and then its outcome to `done`, possibly on another thread and after this returned;
  // the engine slot is given back before `done` runs. The turn must outlive `done`.
  void start_engine(TextSink sink, std::shared_ptr<ReadPacer> pacer, ReplyDone done);
  // The rest of run() once the engine is done: the deadline, the sources shown, the hand-off
  // mail (which may block).
  Result<void> finish_run(Result<ReplyBlocks> blocks);
  // Stores the user message, the reply, counters, usage and any lead; returns the reply.
  Result<ChatReply> commit();
  // commit()'s transaction, for Database::write_then; reply() is the result once it succeeded.
  // Where writers run at once, the plan's message was held by prepare(); a reply written in the
  // next month holds that month here first, ahead of the transaction
  // (domain/plan_message_hold.h), and a month used up is refused in the transaction, after its
  // other checks.
  Result<WriteFn> commit_work();
  // commit_work()'s transaction committed, or failed: the plan's message held for it is given
  // back at once (commit() says either itself).
  void committed();
  void failed();
  const ChatReply& reply() const { return reply_; }

 private:
  explicit ChatTurn(ChatServices& s) : s_(s) {}

  ChatServices s_;
  std::string account_id_;
  std::string account_time_zone_;  // the day a new conversation's figures count in
  ChatRequest request_;
  std::shared_ptr<const LoadedAgent> agent_;
  std::shared_ptr<const AgentSettings> settings_;  // agent_'s
  ReplyLimits limits_;
  ReplyRequest engine_request() const;
  std::optional<ConversationRecord> existing_;
  // The session id was made for this turn (none was given): its conversation is new for certain,
  // and the write does not look for one.
  bool session_made_here_ = false;
  std::vector<HistoryMessage> history_;
  // The message analysed once with the turn's intents (engine/turn_analysis.h), made by prepare().
  std::shared_ptr<const TurnAnalysis> analysis_;
  bool paused_ = false;
  std::optional<std::string> known_live_chat_;
  int64_t received_at_ = 0;
  int64_t deadline_ms_ = 0;
  ChatReply reply_;
  std::unique_ptr<ChatSlots::Lease> slot_;  // held from prepare() until run() returns
  std::unique_ptr<EngineRunCount> run_count_;  // the engine's run; none when paused at prepare()
  std::shared_ptr<CountsSeen> seen_;           // the counts commit_work() tells s_.usage
  std::unique_ptr<PlanMessageHold> hold_;      // the plan's message, held by prepare()
  PendingReplyCount reply_count_;              // the reply's counts, set by its write's answers
};

// prepare(), run() collecting the text, commit().
Result<ChatReply> chat(ChatServices& s, std::string_view account_id, const ChatRequest& request);

}  // namespace parley
