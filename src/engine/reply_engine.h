// ReplyEngine: turns an agent's settings, its knowledge, the conversation's recent history and the
// new message into reply text (streamed piece by piece through a callback) plus structured blocks
// (sources, follow-ups, buttons, products, form, lead form, booking, live-chat state). The chat
// flow (domain/chat.h) owns accounting and storage; an engine only composes the reply.
// Engines are shared by every request: reply() and start_reply() must be safe to call from many
// threads at once. start_reply() is the asynchronous form: an engine that waits on a provider
// (the `openai` one) returns at once and finishes on the outbound loop, so a reply in flight is a
// small state object rather than a thread; engines that only compute (retrieval) answer inline.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "engine/generation_options.h"
#include "knowledge/retriever.h"
#include "model/agent_settings.h"

namespace parley {

// What a citation shows as its title: the source's title, else its URL, else nothing (null).
inline std::optional<std::string> citation_title(const std::optional<std::string>& title,
                                                 const std::optional<std::string>& url) {
  if (title && !title->empty()) return title;
  if (url && !url->empty()) return url;
  return std::nullopt;
}

struct SourceRef {
  std::string source_id;
  std::optional<std::string> title;  // the source's title, else its URL, else none
  std::optional<std::string> url;
  // A page web search found (no source id): listed with `web: true` whatever `showSources` says.
  bool web = false;
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

// A chat form offered in a reply: a configured form (model/agent_settings.h's FormSetting).
struct FormBlock {
  std::string form_id;
  std::string name;
  std::string fields_json = "[]";  // the form's fields as configured, passed on untouched
  std::string submit_label;
};

// The contact-details form offered in a reply.
struct LeadFormBlock {
  std::string message;
  std::vector<std::string> fields;  // "name", "email", "phone"
  std::optional<FormBlock> form;    // the chat form the lead form names
};

struct BookingDay {
  std::string date;            // "2026-11-23", in the caller's time zone
  std::vector<int64_t> slots;  // slot starts, ms since the epoch
};

// Free meeting slots offered in a reply.
struct BookingBlock {
  std::string provider;
  std::string event_title;
  int64_t event_length = 0;  // minutes
  std::string time_zone;     // the caller's
  std::vector<BookingDay> days;
};

// Everything a reply offers besides its text, as types; views/chat_json.h writes them.
struct ReplyBlocks {
  std::vector<SourceRef> sources;  // what the reply drew on; the chat flow shows them per setting
  std::vector<std::string> follow_ups;
  std::vector<ButtonBlock> buttons;
  std::vector<ProductBlock> products;
  std::optional<FormBlock> form;
  std::optional<LeadFormBlock> lead_form;
  std::optional<BookingBlock> booking;
  std::optional<std::string> live_chat;  // "offered" | "requested"
  bool handoff = false;  // the conversation is to be mailed to the agent's hand-off address
  // How the reply came about (stored with it: messages.outcome): "answered", "low_confidence"
  // (answered, but below the agent's threshold plus kLowConfidenceMargin) or "fallback" (the
  // agent's fallback message); none for a reply no engine wrote. `confidence` is the knowledge's
  // (0..1) when the engine computed one.
  std::optional<std::string> outcome;
  std::optional<double> confidence;
  // The provider stopped the text at its token limit (its finish_reason was "length").
  bool cut_at_length = false;
};

// An answer whose confidence is below the agent's `answerThreshold` plus this is answered but
// marked "low_confidence" (docs/decisions/gaps.md).
inline constexpr double kLowConfidenceMargin = 0.1;

// The outcome of a reply: "fallback" when the engine gave the fallback message, else
// "low_confidence" when the confidence is known and below threshold + margin, else "answered".
inline std::string reply_outcome(bool fallback, std::optional<double> confidence,
                                 double threshold) {
  if (fallback) return "fallback";
  if (confidence && *confidence < threshold + kLowConfidenceMargin) return "low_confidence";
  return "answered";
}

// One earlier message of the conversation, oldest first.
struct HistoryMessage {
  std::string role;  // "user" | "assistant"
  std::string content;
};

// The reader's side of back-pressure for a streamed reply. After handing over a piece, an engine
// that reads a source (a provider stream) asks behind(); when the reader has fallen behind it
// pauses that source, and `resume` is called once (from any thread) when the reader caught up.
// Thread-safe.
class ReadPacer {
 public:
  virtual ~ReadPacer() = default;
  virtual bool behind(std::function<void()> resume) = 0;
};

struct TurnAnalysis;  // engine/turn_analysis.h

struct ReplyRequest {
  std::string agent_id;
  // The agent's, read once when it was loaded; never null.
  std::shared_ptr<const AgentSettings> settings = default_agent_settings();
  const Retriever* knowledge = nullptr;
  std::vector<HistoryMessage> history;  // at most the last 40 messages
  std::string message;
  std::string time_zone = "UTC";
  int64_t deadline_ms = 0;           // wall time (Clock) by which the reply must be complete
  bool live_chat_offered = false;    // the previous reply offered live chat
  std::shared_ptr<ReadPacer> pacer;  // null: the reader takes text as fast as it comes
  // The message analysed once and its intents, made by the chat turn (domain/chat.h); null for a
  // caller outside a chat turn, for which the engine router makes one.
  std::shared_ptr<const TurnAnalysis> analysis;
  GenerationOptions generation;
};

// Receives the reply text as it is written; returns false when nobody listens any more (the
// engine may then stop early).
using TextSink = std::function<bool(std::string_view piece)>;
// Receives the outcome of start_reply(), exactly once.
using ReplyDone = std::function<void(Result<ReplyBlocks>)>;

class ReplyEngine {
 public:
  virtual ~ReplyEngine() = default;
  // Writes the reply text through `sink` and returns the blocks; 504 timeout when the deadline
  // passes first. Blocks the calling thread until the reply is written.
  virtual Result<ReplyBlocks> reply(const ReplyRequest& request, const TextSink& sink) const = 0;
  // Starts the reply and may return before it is written: `sink` and then `done` may run on
  // another thread (the outbound loop), must not block, and are kept until `done` ran. The
  // default runs reply() on the calling thread.
  virtual void start_reply(std::shared_ptr<const ReplyRequest> request, TextSink sink,
                           ReplyDone done) const {
    done(reply(*request, sink));
  }
};

// How many earlier messages an engine is shown.
inline constexpr size_t kHistoryWindow = 40;

}  // namespace parley
