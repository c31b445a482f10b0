// One analysis and one decision per chat turn: the message analysed once (text/analyzed_text.h)
// and the intents the one intent pass finds in it (the live-chat state, a request for a person,
// the buttons, products and form it calls for, whether it asks to be contacted or to book, the
// contact details it gives). The chat flow (domain/chat.cpp) builds it when it prepares the turn;
// the engine router acts on the intents, the retrieval engine asks the knowledge with the analysed
// message, and the turn's commit takes its contact details, gap terms and topics from it. Nothing
// downstream analyses the message again.
// Immutable once built; safe to share between threads.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/contact_details.h"
#include "engine/intent_keywords.h"
#include "engine/reply_engine.h"
#include "text/analyzed_text.h"

namespace parley {

// What the message asks for, decided once per turn.
struct TurnIntents {
  // "requested" when the user accepts a pending live-chat offer, "offered" when a `retrieval`
  // agent with live chat meets a request for a person (engine/handoff_intent.h).
  std::optional<std::string> live_chat;
  bool asks_for_person = false;
  // The offers the `retrieval` engine attaches (the `openai` engine's model picks its own).
  std::vector<ButtonBlock> buttons;
  std::vector<ProductBlock> products;
  std::optional<FormBlock> form;
  bool asks_to_be_contacted = false;
  bool asks_for_booking = false;
  ContactDetails contact;  // only when the agent saves contact details
};

struct TurnAnalysis {
  TurnAnalysis(std::string_view message, const IntentKeywords& keywords, bool live_chat_offered);

  // The message in the agent's language's forms: what its knowledge is asked with.
  AnalyzedText message;
  // The same words in English forms, split once with `message`; set only when the agent's
  // language is not English (the intent phrases are English).
  std::optional<AnalyzedText> english_message;
  TurnIntents intents;

  // The message as the intent phrases are compared with it.
  const AnalyzedText& intent_text() const { return english_message ? *english_message : message; }
};

// The analysis of a turn; `keywords` are the agent's compiled ones, `live_chat_offered` whether
// the previous reply offered live chat.
std::shared_ptr<const TurnAnalysis> analyze_turn(std::string_view message,
                                                 const IntentKeywords& keywords,
                                                 bool live_chat_offered);

}  // namespace parley
