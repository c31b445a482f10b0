#include "engine/offers.h"

#include <rapidjson/document.h>

#include <set>
#include <string>

#include "engine/text_match.h"

namespace parley {

namespace {
std::optional<std::string> text_of(const rapidjson::Value& item, const char* name) {
  auto it = item.FindMember(name);
  if (it == item.MemberEnd() || !it->value.IsString() || it->value.GetStringLength() == 0) return std::nullopt;
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
      if (k.IsString() && covers(words, std::string_view(k.GetString(), k.GetStringLength()))) return true;
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
  if (available != item.MemberEnd() && available->value.IsBool()) p.available = available->value.GetBool();
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
  return pick<ButtonBlock>(settings_json, "buttons", "label", kMaxButtons,
                           [&](const rapidjson::Value& item) { return matches(item, words, "label"); }, button_of);
}

std::vector<ProductBlock> match_products(std::string_view settings_json, std::string_view message) {
  auto words = word_set(message);
  return pick<ProductBlock>(settings_json, "products", "name", kMaxProducts,
                            [&](const rapidjson::Value& item) { return matches(item, words, "name"); }, product_of);
}

std::vector<ButtonBlock> match_buttons_titled(std::string_view settings_json, std::string_view title) {
  return pick<ButtonBlock>(settings_json, "buttons", "label", kMaxButtons,
                           [&](const rapidjson::Value& item) { return *text_of(item, "label") == title; }, button_of);
}

std::vector<ProductBlock> match_products_titled(std::string_view settings_json, std::string_view title) {
  return pick<ProductBlock>(settings_json, "products", "name", kMaxProducts,
                            [&](const rapidjson::Value& item) { return *text_of(item, "name") == title; }, product_of);
}

}  // namespace parley
