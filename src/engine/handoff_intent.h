// Hand-off: whether a user's message asks for a person, and the agent settings that decide what
// the agent then does (offer live chat when `liveChat` is on, else mail the conversation to
// `handoffEmail`). The `retrieval` engine uses the phrase match; the `openai` engine lets the
// model decide through a tool. Each reads the turn's message analysed once in English
// (engine/turn_analysis.h). Pure functions; safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model/agent_settings.h"
#include "text/analyzed_text.h"

namespace parley {

// True when the message asks to talk to a person ("can I talk to a human?", "speak with someone
// from your team", "I want a real person", "representative", "live agent"). English phrases,
// matched as whole words of the shared normaliser (text/normalizer.h).
bool asks_for_person(const AnalyzedText& message);

// True when the message accepts an offer ("yes", "sure", "ok please", "yes please connect me").
bool accepts_offer(const AnalyzedText& message);

// The live-chat state of a reply that is known before any engine runs: "requested" when the
// user accepts a pending offer, "offered" when a `retrieval` agent with live chat meets a request
// for a person; nothing otherwise (the `openai` engine's model decides by itself). Decided once
// per turn by the intent pass (engine/turn_analysis.h), which the engine router acts on and the
// chat flow announces in the X-Live-Chat header of a stream.
std::optional<std::string> known_live_chat(const HandoffSettings& settings, std::string_view engine,
                                           bool offer_pending, const AnalyzedText& message);

// The texts the agent writes when it hands off.
inline constexpr std::string_view kLiveChatOfferText =
    "I can bring a member of our team into this chat. Would you like that?";
inline constexpr std::string_view kLiveChatRequestedText =
    "I've asked our team to join this chat. Someone will be with you shortly.";
inline constexpr std::string_view kHandoffText =
    "I've passed this conversation on to our team. Someone will get back to you soon.";

}  // namespace parley
