// Conversations (API and widget) and their messages. Appending a message keeps the conversation's
// message count and last activity, and the agent's counters, in the same transaction.
// Stateless; every function runs on the connection it is given.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "store/db.h"

namespace parley {

struct ConversationRecord {
  std::string id;
  std::string agent_id;
  std::string account_id;
  std::string session_id;
  std::string channel = "api";  // "api" | "widget"
  std::optional<std::string> country;
  std::optional<std::string> page;
  std::optional<std::string> visitor_id;
  int64_t created_at = 0;
  int64_t last_activity_at = 0;
  int64_t message_count = 0;
  std::string topics = "[]";  // JSON array of strings
  std::optional<std::string> sentiment;
  std::optional<int64_t> handoff_requested_at;
  std::optional<std::string> live_chat_status;  // "requested" | "active" | "ended"
  std::optional<int64_t> live_chat_requested_at;
  std::optional<int64_t> live_chat_started_at;
  std::optional<int64_t> live_chat_ended_at;
  std::optional<std::string> taken_over_by;  // team member's first name while taken over
  bool live_chat_offered = false;
  std::optional<int64_t> csat_score;
  std::optional<std::string> csat_comment;
  std::optional<int64_t> csat_rated_at;
  // The contact the conversation is bound to (a verified widget identity), and what the widget
  // said of the visitor: identity_status "verified" | "invalid_signature" | "missing_signature" |
  // "no_secret" | "contact_limit_reached", nothing while anonymous; identity_external_id the
  // user id the page claimed (domain/widget_identity.h).
  std::optional<std::string> contact_id;
  std::optional<std::string> identity_status;
  std::optional<std::string> identity_external_id;
};

struct MessageRecord {
  std::string id;
  std::string conversation_id;
  int64_t seq = 0;   // set by append_message
  std::string role;  // "user" | "assistant"
  std::string content;
  std::optional<std::string> author_name;
  std::string sources = "[]";  // JSON array of {title, url}
  int64_t created_at = 0;
  // An agent reply's: "answered" | "low_confidence" | "fallback", and the knowledge's confidence
  // (0..1). None on visitor messages and team members' replies.
  std::optional<std::string> outcome = std::nullopt;
  std::optional<double> confidence = std::nullopt;
  // The visitor's thumbs on an agent reply, "up" | "down", and when it was last given.
  std::optional<std::string> rating = std::nullopt;
  std::optional<int64_t> rated_at = std::nullopt;
};

class ConversationRepo {
 public:
  // Inserts the conversation and counts it on its agent. With `first`, the conversation starts
  // with those messages, as if they were appended one by one after the insert (their seqs follow
  // its count, which moves by as many; its last activity moves to the latest of their times),
  // without an update of the new row and without waiting: every statement goes with the next one
  // that is waited for (store/pipelined.h).
  // `time_zone`, its account's, when the caller knows it: the figures are then counted from what
  // was written rather than read back (FigureRepo::count_new).
  static Result<void> insert(Connection& c, ConversationRecord conv,
                             std::span<MessageRecord> first = {},
                             std::optional<std::string_view> time_zone = std::nullopt);
  // The conversation if it belongs to `account_id`.
  static Result<std::optional<ConversationRecord>> find(Connection& c, std::string_view account_id,
                                                        std::string_view id);
  static Result<std::optional<ConversationRecord>> find_by_session(Connection& c,
                                                                   std::string_view agent_id,
                                                                   std::string_view session_id);
  // Holds the conversation's row until the transaction ends (Connection::lock_row): taken before
  // a read-modify-write of it. False when there is no such conversation.
  static Result<bool> lock(Connection& c, std::string_view id);
  // Writes the mutable columns of the conversation (live chat, hand-off, topics, csat, ...) but
  // the message count, which only append_message moves; the last activity never moves back.
  static Result<void> update(Connection& c, const ConversationRecord& conv);
  // Writes the conversation's contact and identity (domain/widget_identity.h binds them).
  static Result<void> set_identity(Connection& c, const ConversationRecord& conv);
  // Appends the message (its seq follows the last one, taken by one atomic increment of the
  // conversation's message count), moves the last activity to the message's time, and counts
  // the message on the agent.
  static Result<MessageRecord> append_message(Connection& c, MessageRecord m);
  // A visitor's message and the agent's reply appended together, as append_message would one
  // after the other, with one update of the conversation: its count moves by two (the messages
  // take the last two seqs) and its last activity to the later of the two times. The user
  // message's seq is waited for; the inserts are not (store/pipelined.h execute_later). Returns
  // both messages with their seqs.
  static Result<std::pair<MessageRecord, MessageRecord>> append_exchange(Connection& c,
                                                                         MessageRecord user,
                                                                         MessageRecord reply);
  // The whole transcript, oldest first.
  static Result<std::vector<MessageRecord>> messages(Connection& c,
                                                     std::string_view conversation_id);
  // The messages after seq `after`, oldest first.
  static Result<std::vector<MessageRecord>> messages_after(Connection& c,
                                                           std::string_view conversation_id,
                                                           int64_t after);
  // The last `n` messages, oldest first.
  static Result<std::vector<MessageRecord>> last_messages(Connection& c,
                                                          std::string_view conversation_id,
                                                          size_t n);
  // The message of the conversation, or none.
  static Result<std::optional<MessageRecord>> find_message(Connection& c,
                                                           std::string_view conversation_id,
                                                           std::string_view message_id);
  // Sets (or with none, clears) the message's rating and when it was given.
  static Result<void> set_rating(Connection& c, std::string_view message_id,
                                 const std::optional<std::string>& rating,
                                 std::optional<int64_t> rated_at);
  // Deletes the conversation of the account and its messages, and takes them off its agent's
  // counts; its leads keep existing with no conversation. With `inactive_before`, only while its
  // last activity is before then. The messages it held, or none when nothing was deleted.
  static Result<std::optional<int64_t>> remove(Connection& c, std::string_view account_id,
                                               std::string_view id,
                                               std::optional<int64_t> inactive_before = {});
  // The column list read_row expects, for queries kept in other files (list pages).
  static std::string_view columns();
  // How many columns that is: a query reading more after them starts at this index.
  static int column_count();
  static ConversationRecord read_row(const Row& r);
};

}  // namespace parley

namespace parley {

// Any account's conversation (operator tools: takeover, team replies).
Result<std::optional<ConversationRecord>> find_conversation_any(Connection& c, std::string_view id);

}  // namespace parley
