// Figures of conversations, kept per agent and per day (the account's time zone) on write: every
// write that changes a conversation or one of its messages calls refresh() in its own transaction,
// which recounts what the conversation adds to its day (conversation_figures), takes out what it
// added before and puts the new figures into the roll-ups (figure_days, figure_day_names). A
// conversation's contribution thus follows it: a later fallback, a changed CSAT or thumb moves
// the day's figures by the difference. Stateless; every function runs on the connection it is
// given. docs/decisions/figures.md says what each figure counts.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "store/db.h"

namespace parley {

// How long a conversation stays open without activity before it counts as ended.
inline constexpr int64_t kConversationIdleMs = 30 * 60 * 1000;

// What one conversation adds to its day, or (summed) a day's or a period's figures.
struct Figures {
  int64_t conversations = 0;
  int64_t visitor_messages = 0;
  int64_t agent_replies = 0;   // the agent's own replies, not a team member's
  int64_t answered = 0;        // agent replies that were not the fallback
  int64_t low_confidence = 0;  // of those answered, below the threshold's margin
  int64_t fallbacks = 0;
  int64_t handoffs = 0;    // conversations with a hand-off or live-chat request
  int64_t live_chats = 0;  // conversations a team member joined
  int64_t ended = 0;
  int64_t resolved = 0;  // ended, no hand-off request, no fallback in the last two replies
  int64_t csat_sum = 0;
  int64_t csat_count = 0;
  int64_t csat[5] = {0, 0, 0, 0, 0};  // scores 1 to 5
  int64_t thumbs_up = 0;
  int64_t thumbs_down = 0;
  std::map<std::string, int64_t> channels;
  std::map<std::string, int64_t> topics;

  void add(const Figures& o, int64_t sign = 1);
};

struct FigureDay {
  int64_t day = 0;  // days since 1970-01-01 in the account's time zone
  Figures figures;
};

// What a conversation's figures are worked out from: its row, its account's time zone, and its
// messages' counts. The recount reads them; a conversation inserted with its first messages
// gives them as it was written (FigureRepo::count_new).
struct ConversationFacts {
  std::string agent_id;
  int64_t created_at = 0;
  std::string time_zone = "UTC";  // its account's: the day it counts in
  std::string channel;
  std::string topics = "[]";  // JSON array of strings
  int64_t last_activity_at = 0;
  bool handoff = false;  // a hand-off or a live chat was requested
  std::optional<std::string> live_chat_status;
  bool live_chat_started = false;
  std::optional<int64_t> csat;
  int64_t visitor_messages = 0;
  int64_t agent_replies = 0;  // the agent's own replies, not a team member's
  int64_t low_confidence = 0;
  int64_t fallbacks = 0;
  int64_t thumbs_up = 0;
  int64_t thumbs_down = 0;
  bool recent_fallback = false;  // a fallback among the agent's last two replies
};

class FigureRepo {
 public:
  // Recounts the conversation and moves its day's roll-ups by the difference (nothing when it is
  // gone). `now` tells whether it has ended by inactivity: only the sweeper passes one. The unit
  // of work holds the conversation's row (inserted it, updated it, or locked it): on PostgreSQL
  // nothing else keeps its figures' row from outliving a deletion that runs meanwhile (0055).
  static Result<void> refresh(Connection& c, std::string_view conversation_id,
                              std::optional<int64_t> now = std::nullopt);
  // The conversation `id` was inserted by the running unit of work, with its first messages, and
  // `facts` are what was written: its figures are counted from them at the end of the unit of
  // work, without reading them back (a new conversation's first turn). A refresh() of it later
  // in the same unit of work (its topics moved, a hand-off) makes that a recount.
  static Result<void> count_new(Connection& c, std::string_view id, ConversationFacts facts);
  // The same, for the conversation of a message whose rating changed (messages.rating); its row
  // held as refresh() says.
  static Result<void> refresh_for_message(Connection& c, std::string_view message_id);
  // Conversations not yet ended whose last activity is at or before `idle_before`, oldest first.
  static Result<std::vector<std::string>> idle(Connection& c, int64_t idle_before, int64_t limit);
  // The agent's days from `first` to `last` (day numbers) that have figures, oldest first.
  static Result<std::vector<FigureDay>> days(Connection& c, std::string_view agent_id,
                                             int64_t first, int64_t last);
};

}  // namespace parley
