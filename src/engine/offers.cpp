#include "engine/offers.h"

#include <algorithm>
#include <string>

#include "text/normalizer.h"

namespace parley {

namespace {
// A configured text that says something: set and not empty.
const std::string* given(const std::optional<std::string>& s) {
  return s && !s->empty() ? &*s : nullptr;
}

// Every compiled content lemma of a phrase is among the message's (an empty phrase never is).
bool covers(const AnalyzedText& message, const std::vector<std::string>& wanted) {
  if (wanted.empty()) return false;
  for (const auto& w : wanted)
    if (!message.has_content_lemma(w)) return false;
  return true;
}

bool matches(const IntentKeywords::Item& item, const AnalyzedText& message) {
  for (const auto& k : item.keywords)
    if (covers(message, k)) return true;
  return covers(message, item.title);
}

const std::string& title_of(const ButtonSetting& b) { return *b.label; }
const std::string& title_of(const ProductSetting& p) { return *p.name; }
const std::optional<std::string>& title_member(const ButtonSetting& b) { return b.label; }
const std::optional<std::string>& title_member(const ProductSetting& p) { return p.name; }

ButtonBlock block_of(const ButtonSetting& b) { return {*b.label, *b.url}; }

ProductBlock block_of(const ProductSetting& item) {
  ProductBlock p;
  p.name = *item.name;
  p.url = *item.url;
  if (given(item.image)) p.image = item.image;
  p.price = item.price;
  p.compare_at_price = item.compare_at_price;
  if (given(item.currency)) p.currency = item.currency;
  p.available = item.available;
  return p;
}

// The configured items `wanted` accepts (given each item and its place), in the settings' order,
// as blocks, at most `limit`. Items without a url or a title are skipped.
template <typename Item, typename Wanted>
auto pick(const std::vector<Item>& items, size_t limit, Wanted&& wanted) {
  std::vector<decltype(block_of(items.front()))> out;
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& item = items[i];
    if (out.size() >= limit) break;
    if (!given(item.url) || !given(title_member(item))) continue;
    if (wanted(item, i)) out.push_back(block_of(item));
  }
  return out;
}
}  // namespace

std::vector<ButtonBlock> match_buttons(const IntentKeywords& keywords,
                                       const AnalyzedText& message) {
  return pick(keywords.settings().buttons, kMaxButtons, [&](const ButtonSetting&, size_t i) {
    return matches(keywords.buttons()[i], message);
  });
}

std::vector<ProductBlock> match_products(const IntentKeywords& keywords,
                                         const AnalyzedText& message) {
  return pick(keywords.settings().products, kMaxProducts, [&](const ProductSetting&, size_t i) {
    return matches(keywords.products()[i], message);
  });
}

std::vector<ButtonBlock> match_buttons_titled(const AgentSettings& settings,
                                              std::string_view title) {
  return pick(settings.buttons, kMaxButtons,
              [&](const ButtonSetting& b, size_t) { return title_of(b) == title; });
}

std::vector<ProductBlock> match_products_titled(const AgentSettings& settings,
                                                std::string_view title) {
  return pick(settings.products, kMaxProducts,
              [&](const ProductSetting& p, size_t) { return title_of(p) == title; });
}

namespace {
// The reply's form for the first configured form `wanted` accepts; forms without an id or a
// name are skipped.
template <typename Wanted>
std::optional<FormBlock> pick_form(const AgentSettings& settings, Wanted&& wanted) {
  for (size_t i = 0; i < settings.forms.size(); ++i) {
    const FormSetting& form = settings.forms[i];
    if (!given(form.id) || !given(form.name) || !wanted(form, i)) continue;
    const std::string* submit = given(form.submit_label);
    return FormBlock{*form.id, *form.name, form.fields_json, submit ? *submit : "Submit"};
  }
  return std::nullopt;
}
}  // namespace

std::optional<FormBlock> match_form(const IntentKeywords& keywords, const AnalyzedText& message) {
  return pick_form(keywords.settings(), [&](const FormSetting&, size_t i) {
    return matches(keywords.forms()[i], message);
  });
}

std::optional<FormBlock> form_named(const AgentSettings& settings, std::string_view name) {
  return pick_form(settings, [&](const FormSetting& form, size_t) { return *form.name == name; });
}

std::vector<std::string> form_names(const AgentSettings& settings) {
  std::vector<std::string> out;
  pick_form(settings, [&](const FormSetting& form, size_t) {
    out.push_back(*form.name);
    return false;
  });
  return out;
}

std::optional<LeadFormBlock> lead_form(const AgentSettings& settings) {
  if (!settings.lead_form) return std::nullopt;
  const LeadFormSetting& l = *settings.lead_form;
  LeadFormBlock out;
  const std::string* message = given(l.message);
  out.message = message ? *message : "Leave your contact details and our team will get back to you.";
  for (const auto& name : l.fields)
    if (name == "name" || name == "email" || name == "phone") out.fields.push_back(name);
  if (out.fields.empty()) out.fields = {"name", "email"};
  if (const std::string* id = given(l.form_id))
    out.form = pick_form(settings, [&](const FormSetting& f, size_t) { return *f.id == *id; });
  return out;
}

bool asks_to_be_contacted(const IntentKeywords& keywords, const AnalyzedText& message) {
  for (const auto& phrase : keywords.contact_phrases())
    if (contains_phrase(message.lemmas(), phrase)) return true;
  return false;
}

}  // namespace parley
