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
#include "domain/usage.h"
#include "engine/reply_engine.h"
#include "knowledge/retriever.h"
#include "store/db.h"

namespace parley {

// Chat limits set when the server starts.
struct ChatConfig {
  int64_t timeout_ms = 55'000;  // 504 timeout beyond this
  int64_t replies_per_agent_hour = kDefaultRepliesPerAgentHour;
};

struct ChatServices {
  Database& db;
  const Clock& clock;
  Random& random;
  const ReplyEngine& engine;
  const Retriever& retriever;
  ChatConfig config;
};

inline constexpr size_t kMaxMessageChars = 10'000;
inline constexpr size_t kMaxSessionIdChars = 100;

struct ChatRequest {
  std::string agent_id = {};
  std::string message = {};
  std::optional<std::string> conversation_id = {};
  std::optional<std::string> session_id = {};
  std::optional<std::string> time_zone = {};  // IANA zone; UTC when absent
};

struct ChatReply {
  std::string reply;
  std::string conversation_id;
  std::string session_id;
  ReplyBlocks blocks;  // `sources` only when the agent shows sources
  std::optional<std::string> live_chat;
};

// 400 invalid_request naming the field: message blank or over 10,000 characters, sessionId
// empty or over 100, conversationId empty, timeZone not an IANA zone.
Result<void> validate_chat_request(const ChatRequest& request);

// True when `zone` names a time zone of the system's tz database ("Europe/Paris", "UTC").
bool is_known_time_zone(std::string_view zone);

// The stored session id for a caller's session id: as given when it begins with "svcapi",
// else "svcapi_" + a digest of (agent, session).
std::string api_session_id(std::string_view agent_id, std::string_view caller_session);

Result<ChatReply> chat(ChatServices& s, std::string_view account_id, const ChatRequest& request);

}  // namespace parley
