#include "engine/turn_analysis.h"

#include "engine/booking.h"
#include "engine/handoff_intent.h"
#include "engine/offers.h"

namespace parley {

TurnAnalysis::TurnAnalysis(std::string_view text, const IntentKeywords& keywords,
                           bool live_chat_offered)
    : message(text, Analyzer::for_language_or_english(keywords.settings().knowledge.language)) {
  if (&message.analyzer() != &Analyzer::english())
    english_message = message.in(Analyzer::english());
  const AgentSettings& settings = keywords.settings();
  const AnalyzedText& words = intent_text();
  TurnIntents& i = intents;
  i.asks_for_person = asks_for_person(words);
  i.live_chat = known_live_chat(settings.handoff, settings.reply.engine, live_chat_offered, words);
  if (settings.reply.engine != "openai") {
    i.buttons = match_buttons(keywords, words);
    i.products = match_products(keywords, words);
    i.form = match_form(keywords, words);
    i.asks_to_be_contacted = asks_to_be_contacted(keywords, words);
    i.asks_for_booking = asks_for_booking(keywords, words);
  }
  if (settings.reply.save_contact_details) i.contact = find_contact_details(text);
}

std::shared_ptr<const TurnAnalysis> analyze_turn(std::string_view message,
                                                 const IntentKeywords& keywords,
                                                 bool live_chat_offered) {
  return std::make_shared<const TurnAnalysis>(message, keywords, live_chat_offered);
}

}  // namespace parley
