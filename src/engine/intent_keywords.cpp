#include "engine/intent_keywords.h"

#include <array>
#include <string_view>

#include "text/normalizer.h"

namespace parley {

namespace {
constexpr std::array<std::string_view, 5> kDefaultContactPhrases = {
    "contact me", "call me back", "get in touch", "reach me", "email me"};
constexpr std::array<std::string_view, 7> kDefaultBookingKeywords = {
    "book", "booking", "appointment", "meeting", "schedule", "demo", "call"};

template <typename Setting>
IntentKeywords::Item item_of(const Setting& s, const std::optional<std::string>& title) {
  IntentKeywords::Item item;
  for (const auto& k : s.keywords) item.keywords.push_back(content_words(k));
  if (title && !title->empty()) item.title = content_words(*title);
  return item;
}

template <typename List>
std::vector<std::vector<std::string>> phrases_of(const List& list) {
  std::vector<std::vector<std::string>> out;
  for (std::string_view phrase : list) out.push_back(tokenize(phrase));
  return out;
}
}  // namespace

IntentKeywords::IntentKeywords(std::shared_ptr<const AgentSettings> settings)
    : settings_(std::move(settings)) {
  const AgentSettings& s = *settings_;
  for (const auto& b : s.buttons) buttons_.push_back(item_of(b, b.label));
  for (const auto& p : s.products) products_.push_back(item_of(p, p.name));
  for (const auto& f : s.forms) forms_.push_back(item_of(f, f.name));
  if (s.lead_form) {
    contact_phrases_ = s.lead_form->keywords ? phrases_of(*s.lead_form->keywords)
                                             : phrases_of(kDefaultContactPhrases);
  }
  if (s.booking) {
    booking_phrases_ = s.booking->keywords ? phrases_of(*s.booking->keywords)
                                           : phrases_of(kDefaultBookingKeywords);
  }
}

}  // namespace parley
