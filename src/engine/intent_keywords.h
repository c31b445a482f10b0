// An agent's intent keywords compiled once, when its settings are read (domain/agents.h keeps them
// with the agent in the agent cache): the lemmas of every button's, product's and form's keywords
// and title, of the lead form's and the booking's phrases (configured or the defaults). A turn's
// intent pass (engine/turn_analysis.h) compares them with the message's lemmas, so no keyword is
// analysed again per message. Lemmas are English ones (text/analyzer.h), as the built-in intent
// phrases are, whatever the agent's language.
// Immutable once built; safe to share between threads.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/agent_settings.h"

namespace parley {

class IntentKeywords {
 public:
  // A button, product or form: each keyword's content lemmas, and its title's (label or name;
  // empty when it has none).
  struct Item {
    std::vector<std::vector<std::string>> keywords;
    std::vector<std::string> title;
  };

  explicit IntentKeywords(std::shared_ptr<const AgentSettings> settings);

  const AgentSettings& settings() const { return *settings_; }
  // One entry per entry of the settings' buttons, products and forms, in order.
  const std::vector<Item>& buttons() const { return buttons_; }
  const std::vector<Item>& products() const { return products_; }
  const std::vector<Item>& forms() const { return forms_; }
  // The phrases (every word's lemma) that call for the lead form, and for booking; empty when the
  // agent has none.
  const std::vector<std::vector<std::string>>& contact_phrases() const { return contact_phrases_; }
  const std::vector<std::vector<std::string>>& booking_phrases() const { return booking_phrases_; }

 private:
  std::shared_ptr<const AgentSettings> settings_;
  std::vector<Item> buttons_;
  std::vector<Item> products_;
  std::vector<Item> forms_;
  std::vector<std::vector<std::string>> contact_phrases_;
  std::vector<std::vector<std::string>> booking_phrases_;
};

}  // namespace parley
