#include "engine/offers.h"
#include "intent_test_helpers.h"

#include <gtest/gtest.h>

#include "views/chat_json.h"

namespace parley {
namespace {

// The tests write settings as an agent stores them, and compare forms as the reply shows them.
AgentSettings offer_settings(std::string_view json) { return parse_agent_settings(json); }

template <typename Block, typename Write>
std::optional<std::string> json_of(const std::optional<Block>& block, Write write) {
  if (!block) return std::nullopt;
  JsonWriter w;
  write(w, *block);
  return w.str();
}
std::optional<std::string> json_of(const std::optional<FormBlock>& form) {
  return json_of(form, write_form_json);
}
std::optional<std::string> json_of(const std::optional<LeadFormBlock>& lead_form) {
  return json_of(lead_form, write_lead_form_json);
}

constexpr const char* kOffersSettings = R"({
  "buttons": [
    {"label": "See pricing", "url": "https://example.com/pricing", "keywords": ["price", "cost", "pricing plan"]},
    {"label": "Book a demo", "url": "https://example.com/demo"},
    {"label": "No url", "keywords": ["price"]}
  ],
  "products": [
    {"name": "Blue Jacket", "url": "https://shop.example.com/blue-jacket", "image": "https://shop.example.com/j.png",
     "price": 79.5, "compareAtPrice": 99, "currency": "EUR", "available": true, "keywords": ["coat"]},
    {"name": "Red Scarf", "url": "https://shop.example.com/red-scarf"}
  ]})";

TEST(Offers, ButtonsMatchByKeywordOrLabel) {
  auto b = match_buttons(offer_settings(kOffersSettings), "What are your prices?");
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].label, "See pricing");
  EXPECT_EQ(b[0].url, "https://example.com/pricing");
  EXPECT_EQ(match_buttons(offer_settings(kOffersSettings), "Can I book a DEMO?").at(0).label, "Book a demo");
  EXPECT_EQ(match_buttons(offer_settings(kOffersSettings), "Tell me about the pricing plans").size(), 1u);
  EXPECT_TRUE(match_buttons(offer_settings(kOffersSettings), "Where are you based?").empty());
}

TEST(Offers, ProductsCarryWhatIsKnown) {
  auto p = match_products(offer_settings(kOffersSettings), "Do you sell a warm coat?");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].name, "Blue Jacket");
  EXPECT_EQ(p[0].image, "https://shop.example.com/j.png");
  EXPECT_EQ(p[0].price, 79.5);
  EXPECT_EQ(p[0].compare_at_price, 99);
  EXPECT_EQ(p[0].currency, "EUR");
  EXPECT_EQ(p[0].available, true);
  auto scarf = match_products(offer_settings(kOffersSettings), "red scarf in stock?");
  ASSERT_EQ(scarf.size(), 1u);
  EXPECT_FALSE(scarf[0].price.has_value());
  EXPECT_FALSE(scarf[0].available.has_value());
}

TEST(Offers, TitledPicksTheExactItem) {
  EXPECT_EQ(match_products_titled(offer_settings(kOffersSettings), "Red Scarf").size(), 1u);
  EXPECT_TRUE(match_products_titled(offer_settings(kOffersSettings), "red scarf").empty());
  EXPECT_EQ(match_buttons_titled(offer_settings(kOffersSettings), "Book a demo").at(0).url,
            "https://example.com/demo");
}

TEST(Offers, MalformedSettingsOfferNothing) {
  EXPECT_TRUE(match_buttons(offer_settings("not json"), "price").empty());
  EXPECT_TRUE(match_products(offer_settings(R"({"products": {}})"), "jacket").empty());
}

constexpr const char* kForms = R"({"forms": [
  {"id": "form_quote", "name": "Request a quote", "submitLabel": "Send", "keywords": ["quote"],
   "fields": [{"id": "f1", "label": "Company", "type": "text", "required": true}]},
  {"id": "form_feedback", "name": "Feedback"}]})";

TEST(Offers, FormMatchedByKeywordOrName) {
  EXPECT_EQ(
      json_of(match_form(offer_settings(kForms), "Can I get a quote?")),
      R"({"formId":"form_quote","name":"Request a quote","fields":[{"id":"f1","label":"Company","type":"text","required":true}],"submitLabel":"Send"})");
  EXPECT_EQ(json_of(match_form(offer_settings(kForms), "I have some feedback")),
            R"({"formId":"form_feedback","name":"Feedback","fields":[],"submitLabel":"Submit"})");
  EXPECT_FALSE(json_of(match_form(offer_settings(kForms), "Hello")).has_value());
  EXPECT_EQ(form_names(offer_settings(kForms)), (std::vector<std::string>{"Request a quote", "Feedback"}));
  EXPECT_TRUE(json_of(form_named(offer_settings(kForms), "Feedback")).has_value());
}

TEST(Offers, LeadFormWithContactFieldsAndItsForm) {
  std::string settings = R"({"forms": [{"id": "form_quote", "name": "Request a quote"}],
    "leadForm": {"message": "How can we reach you?", "fields": ["email", "phone", "fax"], "formId": "form_quote"}})";
  EXPECT_EQ(
      json_of(lead_form(offer_settings(settings))),
      R"({"message":"How can we reach you?","fields":["email","phone"],)"
      R"("form":{"formId":"form_quote","name":"Request a quote","fields":[],"submitLabel":"Submit"}})");
  EXPECT_EQ(
      json_of(lead_form(offer_settings(R"({"leadForm": {}})"))),
      R"({"message":"Leave your contact details and our team will get back to you.","fields":["name","email"],"form":null})");
  EXPECT_FALSE(json_of(lead_form(offer_settings("{}"))).has_value());
  EXPECT_TRUE(asks_to_be_contacted(offer_settings(settings), "Please contact me tomorrow"));
  EXPECT_FALSE(asks_to_be_contacted(offer_settings(settings), "What is your contact page?"));
  EXPECT_FALSE(asks_to_be_contacted(offer_settings("{}"), "Please contact me"));
}

TEST(LeadForm, ContactPhrasesAreMatchedAsNormalisedWords) {
  const char* settings = R"({"leadForm": {"keywords": ["call me back"]}})";
  EXPECT_TRUE(asks_to_be_contacted(offer_settings(settings), "Could you CALL ME BACK?"));
  EXPECT_FALSE(asks_to_be_contacted(offer_settings(settings), "call back me"));
}

}  // namespace
}  // namespace parley
