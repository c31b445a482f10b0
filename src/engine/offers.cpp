#include "engine/offers.h"

#include <algorithm>
#include <set>
#include <string>

#include "text/normalizer.h"

namespace parley {

namespace {
// A configured text that says something: set and not empty.
const std::string* given(const std::optional<std::string>& s) {
  return s && !s->empty() ? &*s : nullptr;
}

// Every content word of `phrase` is among the message's words.
bool covers(const std::set<std::string>& words, std::string_view phrase) {
  auto wanted = content_words(phrase);
  if (wanted.empty()) return false;
  for (const auto& w : wanted)
    if (!words.count(w)) return false;
  return true;
}

bool matches(const std::vector<std::string>& keywords, const std::optional<std::string>& title,
             const std::set<std::string>& words) {
  for (const auto& k : keywords)
    if (covers(words, k)) return true;
  return given(title) && covers(words, *title);
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

// The configured items `wanted` accepts, in the settings' order, as blocks, at most `limit`.
// Items without a url or a title are skipped.
template <typename Item, typename Wanted>
auto pick(const std::vector<Item>& items, size_t limit, Wanted&& wanted) {
  std::vector<decltype(block_of(items.front()))> out;
  for (const auto& item : items) {
    if (out.size() >= limit) break;
    if (!given(item.url) || !given(title_member(item))) continue;
    if (wanted(item)) out.push_back(block_of(item));
  }
  return out;
}

std::set<std::string> word_set(std::string_view message) {
  auto list = content_words(message);
  return {list.begin(), list.end()};
}
}  // namespace

std::vector<ButtonBlock> match_buttons(const AgentSettings& settings, std::string_view message) {
  auto words = word_set(message);
  return pick(settings.buttons, kMaxButtons,
              [&](const ButtonSetting& b) { return matches(b.keywords, b.label, words); });
}

std::vector<ProductBlock> match_products(const AgentSettings& settings, std::string_view message) {
  auto words = word_set(message);
  return pick(settings.products, kMaxProducts,
              [&](const ProductSetting& p) { return matches(p.keywords, p.name, words); });
}

std::vector<ButtonBlock> match_buttons_titled(const AgentSettings& settings,
                                              std::string_view title) {
  return pick(settings.buttons, kMaxButtons,
              [&](const ButtonSetting& b) { return title_of(b) == title; });
}

std::vector<ProductBlock> match_products_titled(const AgentSettings& settings,
                                                std::string_view title) {
  return pick(settings.products, kMaxProducts,
              [&](const ProductSetting& p) { return title_of(p) == title; });
}

namespace {
// The reply's form for the first configured form `wanted` accepts; forms without an id or a
// name are skipped.
template <typename Wanted>
std::optional<FormBlock> pick_form(const AgentSettings& settings, Wanted&& wanted) {
  for (const auto& form : settings.forms) {
    if (!given(form.id) || !given(form.name) || !wanted(form)) continue;
    const std::string* submit = given(form.submit_label);
    return FormBlock{*form.id, *form.name, form.fields_json, submit ? *submit : "Submit"};
  }
  return std::nullopt;
}
}  // namespace

std::optional<FormBlock> match_form(const AgentSettings& settings, std::string_view message) {
  auto words = word_set(message);
  return pick_form(settings,
                   [&](const FormSetting& form) { return matches(form.keywords, form.name, words); });
}

std::optional<FormBlock> form_named(const AgentSettings& settings, std::string_view name) {
  return pick_form(settings, [&](const FormSetting& form) { return *form.name == name; });
}

std::vector<std::string> form_names(const AgentSettings& settings) {
  std::vector<std::string> out;
  pick_form(settings, [&](const FormSetting& form) {
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
    out.form = pick_form(settings, [&](const FormSetting& f) { return *f.id == *id; });
  return out;
}

bool asks_to_be_contacted(const AgentSettings& settings, std::string_view message) {
  if (!settings.lead_form) return false;
  auto words = tokenize(message);
  auto has_phrase = [&](std::string_view phrase) { return contains_phrase(words, tokenize(phrase)); };
  if (const auto& keywords = settings.lead_form->keywords) {
    for (const auto& k : *keywords)
      if (has_phrase(k)) return true;
    return false;
  }
  for (std::string_view phrase :
       {"contact me", "call me back", "get in touch", "reach me", "email me"})
    if (has_phrase(phrase)) return true;
  return false;
}

}  // namespace parley
