// ReplyEngine: turns an agent's settings, its knowledge, the conversation's recent history and the
// new message into reply text (streamed piece by piece through a callback) plus structured blocks
// (sources, follow-ups, buttons, products, form, lead form, booking, live-chat state). The chat
// flow (domain/chat.h) owns accounting and storage; an engine only composes the reply.
// Engines are shared by every request: reply() must be safe to call from many threads at once.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "knowledge/retriever.h"

namespace parley {

// The settings of an agent that shape its replies, read from the agent's settings JSON.
struct ReplySettings {
  bool show_sources = false;
  bool follow_ups = false;
  bool save_contact_details = false;
  std::string fallback_message;  // the default when the agent has none
  std::optional<int64_t> monthly_message_cap;
  std::string engine = "retrieval";
};

// The fallback message of an agent that has not set `fallbackMessage`.
inline constexpr std::string_view kDefaultFallbackMessage =
    "Sorry, I don't have an answer to that yet. Could you rephrase your question, or ask about "
    "something else?";

// Reads the reply settings from an agent's settings JSON (unknown or mistyped values keep their
// defaults: the settings were validated when they were written).
ReplySettings read_reply_settings(std::string_view settings_json);

struct SourceRef {
  std::string source_id;
  std::string title;
  std::optional<std::string> url;
};

struct ButtonBlock {
  std::string label;
  std::string url;
};

struct ProductBlock {
  std::string name;
  std::string url;
  std::optional<std::string> image;
  std::optional<double> price;
  std::optional<double> compare_at_price;
  std::optional<std::string> currency;
  std::optional<bool> available;
};

// Everything a reply offers besides its text. Objects whose inner shape the next engines define
// (form, lead form, booking) are carried as serialised JSON objects.
struct ReplyBlocks {
  std::vector<SourceRef> sources;  // what the reply drew on; the chat flow shows them per setting
  std::vector<std::string> follow_ups;
  std::vector<ButtonBlock> buttons;
  std::vector<ProductBlock> products;
  std::optional<std::string> form_json;
  std::optional<std::string> lead_form_json;
  std::optional<std::string> booking_json;
  std::optional<std::string> live_chat;  // "offered" | "requested"
  bool handoff = false;  // the conversation is to be mailed to the agent's hand-off address
};

// One earlier message of the conversation, oldest first.
struct HistoryMessage {
  std::string role;  // "user" | "assistant"
  std::string content;
};

struct ReplyRequest {
  std::string agent_id;
  ReplySettings settings;
  const Retriever* knowledge = nullptr;
  std::vector<HistoryMessage> history;  // at most the last 40 messages
  std::string message;
  std::string time_zone = "UTC";
  int64_t deadline_ms = 0;  // wall time (Clock) by which the reply must be complete
  std::string settings_json = "{}";  // the agent's whole settings (instructions, llm, offers, ...)
  bool live_chat_offered = false;    // the previous reply offered live chat
};

// Receives the reply text as it is written; returns false when nobody listens any more (the
// engine may then stop early).
using TextSink = std::function<bool(std::string_view piece)>;

class ReplyEngine {
 public:
  virtual ~ReplyEngine() = default;
  // Writes the reply text through `sink` and returns the blocks; 504 timeout when the deadline
  // passes first.
  virtual Result<ReplyBlocks> reply(const ReplyRequest& request, const TextSink& sink) const = 0;
};

// How many earlier messages an engine is shown.
inline constexpr size_t kHistoryWindow = 40;

}  // namespace parley
