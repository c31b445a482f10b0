#include "domain/chat.h"

#include <unicode/timezone.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>

#include "core/crypto.h"
#include "core/json.h"
#include "domain/account_cache.h"
#include "domain/agent_cache.h"
#include "domain/agents.h"
#include "domain/gaps.h"
#include "domain/handoff.h"
#include "domain/leads.h"
#include "domain/topic_analysis.h"
#include "domain/widget_rules.h"
#include "engine/contact_details.h"
#include "engine/turn_analysis.h"
#include "store/account_repo.h"
#include "store/conversation_repo.h"
#include "store/entity_changes.h"
#include "store/lead_repo.h"
#include "store/pipelined.h"

namespace parley {

namespace {
ApiError api_only(std::string_view field) {
  return ApiError::invalid("'" + std::string(field) +
                           "' names a conversation started in the chat widget; only conversations "
                           "started through the API can be continued through the API.");
}

std::string sources_json(const std::vector<SourceRef>& sources) {
  JsonWriter w;
  w.begin_array();
  for (const auto& s : sources) {
    w.begin_object().key("title").string_or_null(s.title).key("url").string_or_null(s.url);
    if (s.web) w.key("web").boolean(true);
    w.end_object();
  }
  w.end_array();
  return w.str();
}

// What the chat found before running the engine: the conversation to continue (or the one to
// start) and whether a team member has it.
struct Target {
  std::optional<ConversationRecord> existing;
  std::string conversation_id;
  std::string session_id;
  // Made here, for this turn: no other request can know it, so no conversation can have it.
  bool session_made_here = false;
};

Result<Target> resolve_conversation(ChatServices& s, Connection& c, std::string_view account_id,
                                    const AgentRecord& agent, const ChatRequest& r) {
  Target t;
  if (r.widget) {
    // The widget continues only its own visitor's widget conversations; anything else looks
    // missing, so a conversation id alone tells a page nothing.
    if (r.conversation_id) {
      PARLEY_ASSIGN_OR_RETURN(t.existing,
                              ConversationRepo::find(c, account_id, *r.conversation_id));
      if (!t.existing || t.existing->agent_id != agent.id || t.existing->channel != "widget" ||
          t.existing->visitor_id != r.widget->visitor_id) {
        return ApiError::not_found("No conversation '" + *r.conversation_id +
                                   "' of this visitor with this agent.");
      }
      t.conversation_id = t.existing->id;
      t.session_id = t.existing->session_id;
    } else {
      t.conversation_id = new_ordered_id(s.random, "cnv_");
      t.session_id = "w_" + random_base62(s.random, 22);
      t.session_made_here = true;
    }
    return t;
  }
  if (r.conversation_id) {
    PARLEY_ASSIGN_OR_RETURN(t.existing, ConversationRepo::find(c, account_id, *r.conversation_id));
    if (!t.existing || t.existing->agent_id != agent.id) {
      return ApiError::not_found("No conversation '" + *r.conversation_id + "' for this agent.");
    }
    if (t.existing->channel != "api") return api_only("conversationId");
  } else if (r.session_id) {
    t.session_id = api_session_id(agent.id, *r.session_id);
    PARLEY_ASSIGN_OR_RETURN(t.existing,
                            ConversationRepo::find_by_session(c, agent.id, t.session_id));
    if (t.existing && t.existing->channel != "api") return api_only("sessionId");
  } else {
    t.session_id = "svcapi_" + ordered_base62(s.random);
    t.session_made_here = true;
  }
  if (t.existing) {
    t.conversation_id = t.existing->id;
    t.session_id = t.existing->session_id;
  } else {
    t.conversation_id = new_ordered_id(s.random, "cnv_");
  }
  return t;
}
}  // namespace

bool is_known_time_zone(std::string_view zone) {
  if (zone.empty()) return false;
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString canonical;
  UBool is_system = false;
  icu::TimeZone::getCanonicalID(icu::UnicodeString::fromUTF8(icu::StringPiece(
                                    zone.data(), static_cast<int32_t>(zone.size()))),
                                canonical, is_system, status);
  return U_SUCCESS(status) && is_system;
}

std::string api_session_id(std::string_view agent_id, std::string_view caller_session) {
  if (caller_session.rfind("svcapi", 0) == 0) return std::string(caller_session);
  std::string material(agent_id);
  material.push_back('\n');
  material += caller_session;
  return "svcapi_" + sha256_hex(material).substr(0, 32);
}

ApiError reply_timeout(int64_t timeout_ms) {
  // Whole seconds as "55 seconds", others to the tenth: "1.5 seconds".
  std::string amount = std::to_string(timeout_ms / 1000);
  if (timeout_ms % 1000 >= 100) amount += "." + std::to_string(timeout_ms % 1000 / 100);
  const char* unit = timeout_ms == 1000 ? " second." : " seconds.";
  return ApiError{ErrorCode::kTimeout, "The reply took longer than " + amount + unit};
}

Result<void> validate_chat_request(const ChatRequest& r) {
  if (is_blank(r.message))
    return ApiError::invalid("'message' must not be empty or only whitespace.");
  if (utf8_length(r.message) > kMaxMessageChars) {
    return ApiError::invalid("'message' must be at most 10000 characters.");
  }
  if (r.conversation_id && r.conversation_id->empty()) {
    return ApiError::invalid("'conversationId' must not be empty.");
  }
  if (r.session_id && (r.session_id->empty() || utf8_length(*r.session_id) > kMaxSessionIdChars)) {
    return ApiError::invalid("'sessionId' must be 1 to 100 characters.");
  }
  if (r.time_zone && !is_known_time_zone(*r.time_zone)) {
    return ApiError::invalid("'timeZone' must be an IANA time zone such as 'Europe/Paris'.");
  }
  if (r.widget) {
    if (r.widget->visitor_id.empty() || utf8_length(r.widget->visitor_id) > kMaxVisitorIdChars)
      return ApiError::invalid("'visitorId' must be 1 to 100 characters.");
    if (r.widget->page && utf8_length(*r.widget->page) > kMaxPageChars)
      return ApiError::invalid("'page' must be at most 2000 characters.");
  }
  return {};
}

Result<ChatTurn> ChatTurn::prepare(ChatServices& s, std::string_view account_id,
                                   const ChatRequest& r) {
  PARLEY_TRY(validate_chat_request(r));
  // A request that waited (for a thread) past its deadline is refused before anything is read,
  // counted or stored.
  if (r.waited_ms >= s.config.timeout_ms) {
    return reply_timeout(s.config.timeout_ms);
  }
  ChatTurn t(s);
  t.account_id_ = std::string(account_id);
  t.request_ = r;
  PARLEY_ASSIGN_OR_RETURN(Connection & read, s.db.read());
  if (s.agents != nullptr) {
    PARLEY_ASSIGN_OR_RETURN(t.agent_, s.agents->get(account_id, r.agent_id));
  } else {
    PARLEY_ASSIGN_OR_RETURN(auto agent, get_agent(read, account_id, r.agent_id));
    t.agent_ = load_settings(std::move(agent));
  }
  t.settings_ = t.agent_->settings;
  const AgentRecord& agent = t.agent_->record;
  if (agent.is_private && !(r.widget && r.widget->in_dashboard)) {
    return ApiError{ErrorCode::kAgentPrivate,
                    "The agent is private; it answers only in the dashboard."};
  }
  std::shared_ptr<const Account> account;
  if (s.accounts != nullptr) {
    PARLEY_ASSIGN_OR_RETURN(account, s.accounts->find(account_id));
  } else {
    PARLEY_ASSIGN_OR_RETURN(auto found, AccountRepo::find(read, account_id));
    if (found) account = std::make_shared<const Account>(std::move(*found));
  }
  if (!account) return ApiError::not_found("No account " + std::string(account_id) + ".");
  WidgetRules widget_rules;
  if (r.widget && !r.widget->in_dashboard) {
    widget_rules = read_widget_rules(*t.settings_);
    PARLEY_TRY(check_country(widget_rules, r.widget->country));
  }
  t.account_time_zone_ = account->time_zone;
  t.limits_ = ReplyLimits{effective_limits(account->plan, account->overrides).messages_per_month,
                          t.settings_->reply.monthly_message_cap, s.config.replies_per_agent_hour};
  PARLEY_ASSIGN_OR_RETURN(Target target, resolve_conversation(s, read, account_id, agent, r));
  t.existing_ = std::move(target.existing);
  t.session_made_here_ = target.session_made_here;
  if (t.existing_) {
    PARLEY_TRY(check_message_room(*t.existing_, 2, s.config.max_messages_per_conversation));
  }
  t.reply_.conversation_id = std::move(target.conversation_id);
  t.reply_.session_id = std::move(target.session_id);
  t.paused_ = t.existing_ && t.existing_->taken_over_by.has_value();
  if (t.paused_) t.reply_.live_chat = "paused";
  t.received_at_ = s.clock.now_ms();
  t.deadline_ms_ = t.received_at_ - r.waited_ms + s.config.timeout_ms;
  // A visitor talking with a team member is not held to the agent's per-visitor allowance.
  if (r.widget && !r.widget->in_dashboard && !t.paused_) {
    PARLEY_TRY(
        check_visitor_messages(read, widget_rules, agent.id, r.widget->visitor_id, t.received_at_));
  }
  // Refuse before running the engine; where writers run at once, the same statement holds the
  // plan's message (domain/plan_message_hold.h). commit() checks the months again in its write.
  // The hour is not checked again there: it counts engine runs, this one included, and the slots
  // bound how far concurrent runs can go past it. The slot comes first, so that a turn it refuses
  // holds no message; the limits' refusals still come before the slot's.
  if (!t.paused_) {
    if (s.slots) {
      auto lease = s.slots->acquire(account_id, agent.id);
      if (!lease.ok()) {
        PARLEY_TRY(check_reply_allowed(read, account_id, agent.id, t.limits_, t.received_at_,
                                       s.usage.get()));
        return lease.error();
      }
      t.slot_ = std::move(lease).value();
    }
    PARLEY_ASSIGN_OR_RETURN(
        t.hold_, PlanMessageHold::check_and_take(s.db, read, t.account_id_, agent.id, t.limits_,
                                                 t.received_at_, s.usage.get()));
    t.run_count_ = std::make_unique<EngineRunCount>(s.db, s.usage, agent.id, t.received_at_);
  }
  // Read here, on the request's thread: run() may be on a thread without a database connection.
  if (r.history && !t.paused_) {
    const auto& given = *r.history;
    size_t skip = given.size() > kHistoryWindow ? given.size() - kHistoryWindow : 0;
    t.history_.assign(given.begin() + static_cast<std::ptrdiff_t>(skip), given.end());
  } else if (t.existing_ && !t.paused_) {
    PARLEY_ASSIGN_OR_RETURN(auto last,
                            ConversationRepo::last_messages(read, t.existing_->id, kHistoryWindow));
    for (auto& m : last) t.history_.push_back({std::move(m.role), std::move(m.content)});
  }
  // The message's one analysis and the turn's intents: everything after this reads them. The
  // keywords come compiled with the agent (load_settings); an agent built without them has them
  // compiled here.
  const bool offered = t.existing_ && t.existing_->live_chat_offered;
  t.analysis_ = t.agent_->keywords ? analyze_turn(r.message, *t.agent_->keywords, offered)
                                   : analyze_turn(r.message, IntentKeywords(t.settings_), offered);
  t.known_live_chat_ =
      t.paused_ ? std::optional<std::string>("paused") : t.analysis_->intents.live_chat;
  return t;
}

ReplyRequest ChatTurn::engine_request() const {
  ReplyRequest er;
  er.agent_id = agent_->record.id;
  er.settings = settings_;
  er.knowledge = &s_.retriever;
  er.history = history_;  // kept: a hand-off mail quotes it
  er.message = request_.message;
  er.time_zone = request_.time_zone.value_or("UTC");
  er.deadline_ms = deadline_ms_;
  er.live_chat_offered = existing_ && existing_->live_chat_offered;
  er.analysis = analysis_;
  er.generation = request_.generation;
  return er;
}

Result<void> ChatTurn::run(const TextSink& sink) {
  // Given back when the engine has returned, whatever the outcome.
  auto slot = std::move(slot_);
  if (paused_) return {};
  auto blocks = s_.engine.reply(engine_request(), [&](std::string_view piece) {
    reply_.reply += piece;
    return sink(piece);
  });
  slot.reset();
  return finish_run(std::move(blocks));
}

void ChatTurn::start_engine(TextSink sink, std::shared_ptr<ReadPacer> pacer, ReplyDone done) {
  std::shared_ptr<ChatSlots::Lease> slot = std::move(slot_);
  if (paused_) return done(ReplyBlocks{});
  if (s_.clock.now_ms() > deadline_ms_) {
    // Waited for a reply thread past the deadline: the engine does not start.
    slot.reset();
    return done(reply_timeout(s_.config.timeout_ms));
  }
  auto request = std::make_shared<ReplyRequest>(engine_request());
  request->pacer = std::move(pacer);
  s_.engine.start_reply(
      std::move(request),
      [this, sink = std::move(sink)](std::string_view piece) {
        reply_.reply += piece;
        return sink(piece);
      },
      [slot = std::move(slot), done = std::move(done), metrics = s_.metrics,
       engine = settings_->reply.engine,
       started = std::chrono::steady_clock::now()](Result<ReplyBlocks> blocks) mutable {
        slot.reset();
        if (metrics) {
          std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
          metrics->observe_duration(engine, took.count());
          metrics->count_reply(engine, blocks.ok() ? reply_outcome(*blocks) : "failed");
        }
        done(std::move(blocks));
      });
}

Result<void> ChatTurn::finish_run(Result<ReplyBlocks> outcome) {
  if (paused_) return {};
  // However the engine noticed its deadline (its own check, the provider call's timeout), the
  // client is told the same thing.
  if (!outcome.ok() && outcome.error().code == ErrorCode::kTimeout)
    return reply_timeout(s_.config.timeout_ms);
  PARLEY_TRY(outcome);
  reply_.blocks = std::move(outcome).value();
  if (s_.clock.now_ms() > deadline_ms_) return reply_timeout(s_.config.timeout_ms);
  // Knowledge is cited only when the agent shows its sources; web pages always (the contract).
  if (!settings_->reply.show_sources)
    std::erase_if(reply_.blocks.sources, [](const SourceRef& s) { return !s.web; });
  reply_.live_chat = reply_.blocks.live_chat;
  // Mailed before anything is stored: a mail that cannot be sent fails the turn.
  if (reply_.blocks.handoff) {
    PARLEY_TRY(send_handoff_mail(s_.mailer, agent_->record, settings_->handoff,
                                 reply_.conversation_id, history_, request_.message, reply_.reply,
                                 s_.clock.now_ms()));
  }
  return {};
}

EngineRunCount::~EngineRunCount() {
  if (counted_) return;
  // Written behind: nothing waits for it. The counts in memory learn of it once it committed.
  if (!usage_) {
    db_.write_async([agent_id = std::move(agent_id_), at = at_](Connection& c) {
      return count_engine_run(c, agent_id, at);
    });
    return;
  }
  auto seen = std::make_shared<CountsSeen>(usage_);
  int64_t* count = place_in(*seen);
  db_.write_then([agent_id = std::move(agent_id_), at = at_, seen,
                  count](Connection& c) { return count_engine_run(c, agent_id, at, count); },
                 [seen](Result<void> stored) {
                   if (stored.ok()) seen->committed();
                 });
}

int64_t* EngineRunCount::place_in(CountsSeen& seen) const {
  return seen.place(agent_id_, hour_period(at_));
}

Result<void> EngineRunCount::count_in(Connection& c, int64_t* count) const {
  return count_engine_run(c, agent_id_, at_, count);
}

Result<ChatReply> ChatTurn::commit() {
  PARLEY_ASSIGN_OR_RETURN(WriteFn work, commit_work());
  auto stored = s_.db.write(std::move(work));
  if (!stored.ok()) {
    failed();
    return stored.error();
  }
  committed();
  return reply_;
}

void ChatTurn::committed() {
  if (run_count_) run_count_->committed();
  if (hold_) hold_->kept();
  if (seen_) seen_->committed();
  seen_.reset();
}

void ChatTurn::failed() { hold_.reset(); }

namespace {
// The turn's reply count, checked at the end of its unit of work once its answers are in. What
// the answers fill is the turn's (it outlives its write); a unit of work that fails first drops
// its unanswered statements with it (the transaction rolls back unsent).
struct CheckReplyCount final : Deferred {
  const PendingReplyCount* count = nullptr;
  uint64_t answers = 0;  // the mark of the count's statements (store/pipelined.h)
  int64_t* account_seen = nullptr;  // where the months' counts go for UsageCounts; null: nowhere
  int64_t* agent_seen = nullptr;
  Result<void> run(Connection& c) override {
    PARLEY_TRY(wait_for_answers(c, answers));
    if (account_seen) *account_seen = count->account_count();
    if (agent_seen) *agent_seen = count->agent_count();
    return count->check();
  }
};
}  // namespace

Result<WriteFn> ChatTurn::commit_work() {
  const int64_t replied_at = std::max(received_at_, s_.clock.now_ms());
  // The message held before the engine ran is kept unless the reply falls in the next month:
  // then it is given back and the reply's month held. A hold refused does not refuse the turn at
  // once: the write's other checks come first, as where the transaction counts the month, and a
  // turn a team member took meanwhile still stores its user's message. The refusal is given
  // where the month would have been counted.
  bool plan_used_up = false;
  if (!paused_ && !(hold_ && hold_->of_month_of(replied_at))) {
    hold_.reset();
    auto held =
        PlanMessageHold::take(s_.db, account_id_, replied_at, limits_.account_messages_per_month);
    if (held.ok()) {
      hold_ = std::move(held).value();
    } else if (held.error().code == ErrorCode::kMessageLimitReached) {
      plan_used_up = true;
    } else {
      return held.error();
    }
  }
  const PlanMessageHold* hold = hold_.get();
  // The reply counters' counts the turn's statements return, for the counts in memory.
  std::shared_ptr<CountsSeen> seen;
  std::array<int64_t*, 3> places{};  // the account's month, the agent's, the agent's hour
  if (s_.usage) {
    seen = std::make_shared<CountsSeen>(s_.usage);
    const std::string month = month_period(replied_at);
    places[0] = seen->place(account_id_, month);
    places[1] = seen->place(agent_->record.id, month);
    if (run_count_) places[2] = run_count_->place_in(*seen);
    seen_ = seen;
  }
  // The unit of work may run more than once (db.h): it keeps the turn's state and writes it again.
  WriteFn work = [this, replied_at, seen, places, hold,
                  plan_used_up](Connection& c) -> Result<void> {
    if (seen) seen->clear();
    const ContactDetails& contact = analysis_->intents.contact;
    const std::string& agent_id = agent_->record.id;
    // Every turn takes the agent's row first, which every turn updates anyway (its counters):
    // turns of one agent then take the rows they share in one order, and concurrent writers
    // (PostgreSQL nodes) queue instead of deadlocking on a conversation and the agent. The lock
    // is the counters' update, by what the turn is expected to count: a conversation unless it
    // names one (one found by its session is set right at the end), and its messages. It goes
    // with the conversation's lookup below, in one round trip.
    bool agent_exists = false;
    std::array<int64_t, 4> expected{};  // by AgentCounter
    expected[static_cast<size_t>(AgentCounter::kConversations)] = existing_ ? 0 : 1;
    expected[static_cast<size_t>(AgentCounter::kMessages)] = paused_ ? 1 : 2;
    PARLEY_TRY(AgentRepo::lock_counting_later(c, agent_id, expected, agent_exists));
    ChatReply& out = reply_;
    // The gap groups a fallback's question is filed among come back with the lookup, too (read
    // but unused when the conversation turns out to be taken over).
    std::vector<GapGroupRecord> gap_groups;
    if (!paused_) PARLEY_TRY(read_reply_gap_groups(c, agent_id, out.blocks.outcome, gap_groups));
    const uint64_t gap_groups_asked = answers_mark(c);
    std::optional<ConversationRecord> conv;
    if (existing_) {
      PARLEY_ASSIGN_OR_RETURN(conv, ConversationRepo::find(c, account_id_, out.conversation_id));
    } else if (!session_made_here_) {
      // Another request may have started this session's conversation meanwhile.
      PARLEY_ASSIGN_OR_RETURN(conv, ConversationRepo::find_by_session(c, agent_id, out.session_id));
    } else {
      PARLEY_TRY(wait_for_answers(c, gap_groups_asked));  // the lock's, without a lookup
    }
    if (!agent_exists) return ApiError::not_found("No agent " + agent_id + ".");
    if (existing_ && !conv)
      return ApiError::not_found("No conversation '" + out.conversation_id + "' for this agent.");
    if (!existing_ && conv && conv->channel != "api") return api_only("sessionId");
    // A new conversation is inserted below with the turn's messages, numbered in the insert (no
    // update of its row to number them).
    const bool starts = !conv;
    if (conv) {
      // Again in the write, with the count as it is now (another turn may have filled it).
      PARLEY_TRY(check_message_room(*conv, 2, s_.config.max_messages_per_conversation));
      out.conversation_id = conv->id;
    } else {
      ConversationRecord fresh;
      fresh.id = out.conversation_id;
      fresh.agent_id = agent_id;
      fresh.account_id = account_id_;
      fresh.session_id = out.session_id;
      fresh.channel = request_.widget ? "widget" : "api";
      if (request_.widget) {
        fresh.visitor_id = request_.widget->visitor_id;
        fresh.page = request_.widget->page;
        fresh.country = request_.widget->country;
      }
      fresh.created_at = received_at_;
      fresh.last_activity_at = received_at_;
      conv = fresh;
    }
    if (request_.widget && request_.widget->identity) {
      const auto apply = starts ? apply_identity_unstored : apply_identity;
      PARLEY_TRY(
          apply(c, s_.random, received_at_, agent_->record, *conv, *request_.widget->identity));
    }
    bool paused =
        paused_ || (conv && conv->taken_over_by);  // taken over while the reply was written
    MessageRecord user{new_ordered_id(s_.random, "msg_"), out.conversation_id, 0,    "user",
                       request_.message,          std::nullopt,        "[]", received_at_};
    std::string asked_id = user.id;
    if (paused) {
      // Only a stored conversation is taken over: one this turn starts never is.
      PARLEY_TRY(ConversationRepo::append_message(c, std::move(user)));
    } else {
      MessageRecord answer{new_ordered_id(s_.random, "msg_"),
                           out.conversation_id,
                           0,
                           "assistant",
                           out.reply,
                           std::nullopt,
                           sources_json(out.blocks.sources),
                           replied_at,
                           out.blocks.outcome,
                           out.blocks.confidence};
      std::array<MessageRecord, 2> exchange{std::move(user), std::move(answer)};
      if (starts) {
        PARLEY_TRY(ConversationRepo::insert(c, *conv, exchange, account_time_zone_));
      } else {
        PARLEY_ASSIGN_OR_RETURN(
            auto appended,
            ConversationRepo::append_exchange(c, std::move(exchange[0]), std::move(exchange[1])));
        exchange = {std::move(appended.first), std::move(appended.second)};
      }
      const MessageRecord& asked = exchange[0];
      const MessageRecord& reply = exchange[1];
      // The lookup waited for them already; kept so that the groups are read only once in.
      PARLEY_TRY(wait_for_answers(c, gap_groups_asked));
      PARLEY_TRY(record_reply_gap(c, s_.random, *conv, asked, reply, settings_->knowledge,
                                  analysis_->message, &gap_groups));
      PARLEY_TRY(record_reply_handoff(c, s_.random, account_id_, out.conversation_id, out.blocks,
                                      existing_ && existing_->live_chat_offered, replied_at));
    }
    if (!contact.empty()) {
      LeadRecord lead;
      lead.id = new_ordered_id(s_.random, "lead_");
      lead.agent_id = agent_id;
      lead.account_id = account_id_;
      lead.person_key = contact.person_key();
      lead.email = contact.email;
      lead.phone = contact.phone;
      lead.source = "chat";
      lead.conversation_id = out.conversation_id;
      lead.collected_at = received_at_;
      PARLEY_TRY(record_lead(c, s_.random, replied_at, lead));
    }
    PARLEY_TRY(refresh_topics(c, *settings_, out.conversation_id,
                              TopicMessage{asked_id, &analysis_->message}));
    if (!paused && plan_used_up) return message_limit_reached(limits_.account_messages_per_month);
    if (paused && run_count_) PARLEY_TRY(run_count_->count_in(c, places[2]));
    if (!paused) {
      // Counted last, in one statement with the engine run on the agent's hour: a count's row
      // is held from its count until the commit, and the later it is taken, the shorter the
      // queue of turns behind it. The account's month, which every turn of the account moves,
      // is counted here only where there is no such queue (SQLite); elsewhere the hold counted
      // it before the transaction.
      std::optional<EngineRunAt> run;
      if (run_count_) run = run_count_->with_reply(places[2]);
      PARLEY_TRY(count_reply_within_limits_later(c, account_id_, agent_id, limits_, replied_at,
                                                 reply_count_, hold != nullptr, run));
      // Where a count may refuse the turn (or its months go to UsageCounts), the answers come
      // back with the statement that the end of the unit of work waits for (the figures' read
      // when the turn continues a conversation; a `SELECT 1` of the check's own when it starts
      // one, whose figures are not read back); the check, deferred after it, refuses the turn
      // before COMMIT, and the whole exchange rolls back. Where none can (the plan's message
      // held, the agent without a monthly cap), nothing waits: the answers come with COMMIT's.
      if (reply_count_.may_refuse() || places[0] != nullptr || places[1] != nullptr) {
        auto check = std::make_unique<CheckReplyCount>();
        check->count = &reply_count_;
        check->answers = answers_mark(c);
        check->account_seen = places[0];
        check->agent_seen = places[1];
        PARLEY_TRY(defer(c, "chat:reply-count", std::move(check)));
      }
    }
    if (paused && !paused_) out = ChatReply{"", out.conversation_id, out.session_id, {}, "paused"};
    if (paused && hold) PARLEY_TRY(hold->give_back_in(c));
    return {};
  };
  return work;
}

Result<ChatReply> chat(ChatServices& s, std::string_view account_id, const ChatRequest& request) {
  PARLEY_ASSIGN_OR_RETURN(ChatTurn turn, ChatTurn::prepare(s, account_id, request));
  PARLEY_TRY(turn.run([](std::string_view) { return true; }));
  return turn.commit();
}

}  // namespace parley
