// Offers the `retrieval` engine attaches to a reply from the agent's settings: `buttons`
// (label, url) and `products` (name, url and, when known, image, price, compareAtPrice,
// currency, available), each matched when the user's message contains one of the item's
// `keywords`, or every content word of its label or name (Unicode case folding, plain plurals
// folded, so "Pricing plans?" matches the keyword "pricing plan"). Items without a url are
// skipped. The keywords are compiled once per settings (engine/intent_keywords.h) and compared
// with the turn's analysed message. Pure functions; safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/intent_keywords.h"
#include "engine/reply_engine.h"
#include "text/analyzed_text.h"

namespace parley {

inline constexpr size_t kMaxButtons = 3;
inline constexpr size_t kMaxProducts = 4;

// `message` is the turn's message analysed in English (engine/turn_analysis.h), `keywords` the
// agent's compiled ones.
std::vector<ButtonBlock> match_buttons(const IntentKeywords& keywords, const AnalyzedText& message);
std::vector<ProductBlock> match_products(const IntentKeywords& keywords,
                                         const AnalyzedText& message);

// The chat form (setting `forms`: id, name, fields, submitLabel, keywords) the message calls for
// (a keyword, or every content word of its name), as the reply's `form`: formId, name, fields
// (as configured), submitLabel ("Submit" when not set). Forms without an id or name are skipped.
std::optional<FormBlock> match_form(const IntentKeywords& keywords, const AnalyzedText& message);
// The form whose name is exactly `name` (the `openai` engine's `show_form` tool).
std::optional<FormBlock> form_named(const AgentSettings& settings, std::string_view name);
// The names of the configured forms.
std::vector<std::string> form_names(const AgentSettings& settings);

// The lead form (setting `leadForm`: message, fields, formId, keywords) as the reply's
// `leadForm`: message, fields (contact fields: "name", "email", "phone"; name and email by
// default), form (the chat form named by formId, or none). Nothing when the agent has no lead
// form.
std::optional<LeadFormBlock> lead_form(const AgentSettings& settings);
// True when the agent has a lead form and the message calls for it (one of its `keywords`, by
// default "contact me", "call me back", "get in touch", "reach me").
bool asks_to_be_contacted(const IntentKeywords& keywords, const AnalyzedText& message);

// The configured items whose label (buttons) or name (products) is exactly `title`: what the
// `openai` engine shows when the model picks items through its tools.
std::vector<ButtonBlock> match_buttons_titled(const AgentSettings& settings,
                                              std::string_view title);
std::vector<ProductBlock> match_products_titled(const AgentSettings& settings,
                                                std::string_view title);

}  // namespace parley
