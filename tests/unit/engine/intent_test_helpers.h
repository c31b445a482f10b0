// The intent matchers as a chat turn uses them (engine/turn_analysis.h), for tests that write
// settings and a message as text: the settings' keywords compiled (engine/intent_keywords.h) and
// the message analysed in English (text/analyzed_text.h), once per call.
#pragma once

#include <memory>
#include <string_view>

#include "engine/booking.h"
#include "engine/handoff_intent.h"
#include "engine/offers.h"

namespace parley {

inline IntentKeywords keywords_of(const AgentSettings& settings) {
  return IntentKeywords(std::make_shared<const AgentSettings>(settings));
}
inline AnalyzedText in_english(std::string_view message) {
  return AnalyzedText(message, Analyzer::english());
}

inline std::vector<ButtonBlock> match_buttons(const AgentSettings& s, std::string_view message) {
  return match_buttons(keywords_of(s), in_english(message));
}
inline std::vector<ProductBlock> match_products(const AgentSettings& s, std::string_view message) {
  return match_products(keywords_of(s), in_english(message));
}
inline std::optional<FormBlock> match_form(const AgentSettings& s, std::string_view message) {
  return match_form(keywords_of(s), in_english(message));
}
inline bool asks_to_be_contacted(const AgentSettings& s, std::string_view message) {
  return asks_to_be_contacted(keywords_of(s), in_english(message));
}
inline bool asks_for_booking(const AgentSettings& s, std::string_view message) {
  return asks_for_booking(keywords_of(s), in_english(message));
}
inline bool asks_for_person(std::string_view message) {
  return asks_for_person(in_english(message));
}
inline bool accepts_offer(std::string_view message) { return accepts_offer(in_english(message)); }

}  // namespace parley
