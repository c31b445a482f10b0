#include "engine/offers.h"

#include <rapidjson/document.h>

#include <set>
#include <string>

#include "core/json.h"
#include "text/normalizer.h"

namespace parley {

namespace {
std::optional<std::string> text_of(const rapidjson::Value& item, const char* name) {
  auto it = item.FindMember(name);
  if (it == item.MemberEnd() || !it->value.IsString() || it->value.GetStringLength() == 0)
    return std::nullopt;
  return std::string(it->value.GetString(), it->value.GetStringLength());
}

std::optional<double> number_of(const rapidjson::Value& item, const char* name) {
  auto it = item.FindMember(name);
  if (it == item.MemberEnd() || !it->value.IsNumber()) return std::nullopt;
  return it->value.GetDouble();
}

// Every content word of `phrase` is among the message's words.
bool covers(const std::set<std::string>& words, std::string_view phrase) {
  auto wanted = content_words(phrase);
  if (wanted.empty()) return false;
  for (const auto& w : wanted)
    if (!words.count(w)) return false;
  return true;
}

bool matches(const rapidjson::Value& item, const std::set<std::string>& words, const char* title) {
  auto keywords = item.FindMember("keywords");
  if (keywords != item.MemberEnd() && keywords->value.IsArray()) {
    for (const auto& k : keywords->value.GetArray())
      if (k.IsString() && covers(words, std::string_view(k.GetString(), k.GetStringLength())))
        return true;
  }
  auto name = text_of(item, title);
  return name && covers(words, *name);
}

ButtonBlock button_of(const rapidjson::Value& item) {
  return {*text_of(item, "label"), *text_of(item, "url")};
}

ProductBlock product_of(const rapidjson::Value& item) {
  ProductBlock p;
  p.name = *text_of(item, "name");
  p.url = *text_of(item, "url");
  p.image = text_of(item, "image");
  p.price = number_of(item, "price");
  p.compare_at_price = number_of(item, "compareAtPrice");
  p.currency = text_of(item, "currency");
  auto available = item.FindMember("available");
  if (available != item.MemberEnd() && available->value.IsBool())
    p.available = available->value.GetBool();
  return p;
}

// The items of the settings array `array` that `wanted` accepts, in the settings' order, made
// into blocks by `make`, at most `limit`.
template <typename Block, typename Wanted, typename Make>
std::vector<Block> pick(std::string_view settings_json, const char* array, const char* title,
                        size_t limit, Wanted&& wanted, Make&& make) {
  std::vector<Block> out;
  rapidjson::Document doc;
  doc.Parse(settings_json.data(), settings_json.size());
  if (doc.HasParseError() || !doc.IsObject()) return out;
  auto items = doc.FindMember(array);
  if (items == doc.MemberEnd() || !items->value.IsArray()) return out;
  for (const auto& item : items->value.GetArray()) {
    if (out.size() >= limit) break;
    if (!item.IsObject() || !text_of(item, "url") || !text_of(item, title)) continue;
    if (wanted(item)) out.push_back(make(item));
  }
  return out;
}

std::set<std::string> word_set(std::string_view message) {
  auto list = content_words(message);
  return {list.begin(), list.end()};
}
}  // namespace

std::vector<ButtonBlock> match_buttons(std::string_view settings_json, std::string_view message) {
  auto words = word_set(message);
  return pick<ButtonBlock>(
      settings_json, "buttons", "label", kMaxButtons,
      [&](const rapidjson::Value& item) { return matches(item, words, "label"); }, button_of);
}

std::vector<ProductBlock> match_products(std::string_view settings_json, std::string_view message) {
  auto words = word_set(message);
  return pick<ProductBlock>(
      settings_json, "products", "name", kMaxProducts,
      [&](const rapidjson::Value& item) { return matches(item, words, "name"); }, product_of);
}

std::vector<ButtonBlock> match_buttons_titled(std::string_view settings_json,
                                              std::string_view title) {
  return pick<ButtonBlock>(
      settings_json, "buttons", "label", kMaxButtons,
      [&](const rapidjson::Value& item) { return *text_of(item, "label") == title; }, button_of);
}

std::vector<ProductBlock> match_products_titled(std::string_view settings_json,
                                                std::string_view title) {
  return pick<ProductBlock>(
      settings_json, "products", "name", kMaxProducts,
      [&](const rapidjson::Value& item) { return *text_of(item, "name") == title; }, product_of);
}

namespace {
// The reply's form object for the first configured form `wanted` accepts.
template <typename Wanted>
std::optional<std::string> pick_form(std::string_view settings_json, Wanted&& wanted) {
  rapidjson::Document doc;
  doc.Parse(settings_json.data(), settings_json.size());
  if (doc.HasParseError() || !doc.IsObject()) return std::nullopt;
  auto forms = doc.FindMember("forms");
  if (forms == doc.MemberEnd() || !forms->value.IsArray()) return std::nullopt;
  for (const auto& form : forms->value.GetArray()) {
    if (!form.IsObject() || !text_of(form, "id") || !text_of(form, "name") || !wanted(form))
      continue;
    JsonWriter w;
    w.begin_object()
        .key("formId")
        .string(*text_of(form, "id"))
        .key("name")
        .string(*text_of(form, "name"));
    w.key("fields");
    auto fields = form.FindMember("fields");
    if (fields != form.MemberEnd() && fields->value.IsArray())
      w.value(fields->value);
    else
      w.begin_array().end_array();
    w.key("submitLabel").string(text_of(form, "submitLabel").value_or("Submit")).end_object();
    return w.str();
  }
  return std::nullopt;
}
}  // namespace

std::optional<std::string> match_form(std::string_view settings_json, std::string_view message) {
  auto words = word_set(message);
  return pick_form(settings_json,
                   [&](const rapidjson::Value& form) { return matches(form, words, "name"); });
}

std::optional<std::string> form_named(std::string_view settings_json, std::string_view name) {
  return pick_form(settings_json,
                   [&](const rapidjson::Value& form) { return *text_of(form, "name") == name; });
}

std::vector<std::string> form_names(std::string_view settings_json) {
  std::vector<std::string> out;
  pick_form(settings_json, [&](const rapidjson::Value& form) {
    out.push_back(*text_of(form, "name"));
    return false;
  });
  return out;
}

std::optional<std::string> lead_form(std::string_view settings_json) {
  rapidjson::Document doc;
  doc.Parse(settings_json.data(), settings_json.size());
  if (doc.HasParseError() || !doc.IsObject()) return std::nullopt;
  auto lf = doc.FindMember("leadForm");
  if (lf == doc.MemberEnd() || !lf->value.IsObject()) return std::nullopt;
  const rapidjson::Value& l = lf->value;
  JsonWriter w;
  w.begin_object().key("message").string(
      text_of(l, "message")
          .value_or("Leave your contact details and our team will get back to you."));
  w.key("fields").begin_array();
  size_t written = 0;
  auto fields = l.FindMember("fields");
  if (fields != l.MemberEnd() && fields->value.IsArray()) {
    for (const auto& f : fields->value.GetArray()) {
      if (!f.IsString()) continue;
      std::string_view name(f.GetString(), f.GetStringLength());
      if (name == "name" || name == "email" || name == "phone") {
        w.string(name);
        ++written;
      }
    }
  }
  if (written == 0) w.string("name").string("email");
  w.end_array().key("form");
  std::optional<std::string> form;
  if (auto id = text_of(l, "formId")) {
    form = pick_form(settings_json,
                     [&](const rapidjson::Value& f) { return *text_of(f, "id") == *id; });
  }
  if (form)
    w.raw(*form);
  else
    w.null();
  w.end_object();
  return w.str();
}

bool asks_to_be_contacted(std::string_view settings_json, std::string_view message) {
  rapidjson::Document doc;
  doc.Parse(settings_json.data(), settings_json.size());
  if (doc.HasParseError() || !doc.IsObject()) return false;
  auto lf = doc.FindMember("leadForm");
  if (lf == doc.MemberEnd() || !lf->value.IsObject()) return false;
  auto words = tokenize(message);
  auto has_phrase = [&](std::string_view phrase) { return contains_phrase(words, tokenize(phrase)); };
  auto keywords = lf->value.FindMember("keywords");
  if (keywords != lf->value.MemberEnd() && keywords->value.IsArray() && !keywords->value.Empty()) {
    for (const auto& k : keywords->value.GetArray())
      if (k.IsString() && has_phrase({k.GetString(), k.GetStringLength()})) return true;
    return false;
  }
  for (std::string_view phrase :
       {"contact me", "call me back", "get in touch", "reach me", "email me"})
    if (has_phrase(phrase)) return true;
  return false;
}

}  // namespace parley
