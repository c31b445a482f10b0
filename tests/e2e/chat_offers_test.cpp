// Offers in replies with both engines, with the exact JSON of each block: buttons and products,
// a form, a lead form, booking slots in two time zones, and API actions with the address guard.
#include "chat_llm_support.h"

namespace parley::e2e {
namespace {

class ChatOffers : public LlmChatTest {};

constexpr const char* kCatalogue =
    R"("buttons":[{"label":"See pricing","url":"https://example.com/pricing","keywords":["price","cost"]}],)"
    R"("products":[{"name":"Blue Jacket","url":"https://shop.example.com/blue","image":"https://shop.example.com/b.png",)"
    R"("price":79.5,"compareAtPrice":99,"currency":"EUR","available":true,"keywords":["jacket","coat"]},)"
    R"({"name":"Red Scarf","url":"https://shop.example.com/red"}])";

TEST_F(ChatOffers, RetrievalAgentOffersMatchingButtonsAndProducts) {
  auto c = chat_setup(s(), std::string("{") + kCatalogue + "}");
  auto r = chat(s(), c, {{"message", "How much does the blue jacket cost?"}});
  ASSERT_EQ(r.status, 200) << r.body;
  auto j = r.json();
  EXPECT_EQ(j["buttons"],
            Json::parse(R"([{"label":"See pricing","url":"https://example.com/pricing"}])"));
  EXPECT_EQ(j["products"],
            Json::parse(R"([{"name":"Blue Jacket","url":"https://shop.example.com/blue",
      "image":"https://shop.example.com/b.png","price":79.5,"compareAtPrice":99.0,"currency":"EUR","available":true}])"));
  auto none = chat(s(), c, {{"message", "Where are you based?"}});
  EXPECT_EQ(none.json()["buttons"], Json::array());
  EXPECT_EQ(none.json()["products"], Json::array());
}

TEST_F(ChatOffers, OpenAiAgentOffersWhatTheModelPicksThroughTools) {
  auto c = chat_setup(s(), std::string(R"({"engine":"openai",)") + kCatalogue + "}");
  llm_->script(
      {{200,
        "text/event-stream",
        {sse_body({tool_chunk(0, "call_p", "show_products", R"({"names":["Red Scarf"]})"),
                   tool_chunk(1, "call_b", "show_buttons", R"({"names":["See pricing"]})"),
                   finish_chunk("tool_calls")})}},
       {200, "text/event-stream", {sse_body({text_chunk("Here you go."), finish_chunk("stop")})}}});
  auto r = chat(s(), c, {{"message", "Something warm for my neck?"}});
  ASSERT_EQ(r.status, 200) << r.body;
  auto j = r.json();
  EXPECT_EQ(j["reply"], "Here you go.");
  EXPECT_EQ(j["products"],
            Json::parse(R"([{"name":"Red Scarf","url":"https://shop.example.com/red"}])"));
  EXPECT_EQ(j["buttons"],
            Json::parse(R"([{"label":"See pricing","url":"https://example.com/pricing"}])"));
  auto first = Json::parse(llm_->requests().at(0).body);
  ASSERT_EQ(first["tools"].size(), 2u);
  EXPECT_EQ(first["tools"][0]["function"]["name"], "show_buttons");
  EXPECT_EQ(first["tools"][0]["function"]["parameters"]["properties"]["names"]["items"]["enum"],
            Json::parse(R"(["See pricing"])"));
  EXPECT_EQ(first["tools"][1]["function"]["parameters"]["properties"]["names"]["items"]["enum"],
            Json::parse(R"(["Blue Jacket","Red Scarf"])"));
}

TEST_F(ChatOffers, ApiActionsAreToolsAndTheGuardRefusesAnInternalAddress) {
  auto c = chat_setup(s(), R"({"engine":"openai",
      "apiActions":[{"name":"order_status","description":"Looks up an order","method":"GET",
                     "url":"https://127.0.0.1:9/orders/{orderId}","parameters":[{"name":"orderId","required":true}]}],
      "clientActions":[{"name":"open_cart","url":"https://example.com/cart"}]})");
  llm_->script({{200,
                 "text/event-stream",
                 {sse_body({tool_chunk(0, "call_o", "action_order_status", R"({"orderId":"42"})"),
                            finish_chunk("tool_calls")})}},
                {200,
                 "text/event-stream",
                 {sse_body({text_chunk("I could not look that up."), finish_chunk("stop")})}}});
  auto r = chat(s(), c, {{"message", "Where is order 42?"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["reply"], "I could not look that up.");
  auto reqs = llm_->requests();
  ASSERT_EQ(reqs.size(), 2u);
  auto tools = Json::parse(reqs[0].body)["tools"];
  ASSERT_EQ(tools.size(), 1u);  // client-side actions are never offered
  EXPECT_EQ(tools[0]["function"]["name"], "action_order_status");
  EXPECT_EQ(tools[0]["function"]["parameters"]["required"], Json::parse(R"(["orderId"])"));
  auto result = Json::parse(reqs[1].body)["messages"].back();
  EXPECT_EQ(result["role"], "tool");
  EXPECT_NE(result["content"].get<std::string>().find("refused"), std::string::npos)
      << result.dump();
}

constexpr const char* kBooking =
    R"("booking":{"provider":"calendar","eventTitle":"Intro call","eventLength":60,"timeZone":"UTC","daysAhead":3,)"
    R"("availability":{"mon":[["23:00","24:00"]],"tue":[["23:00","24:00"]],"wed":[["23:00","24:00"]],)"
    R"("thu":[["23:00","24:00"]],"fri":[["23:00","24:00"]],"sat":[["23:00","24:00"]],"sun":[["23:00","24:00"]]}})";

TEST_F(ChatOffers, BookingIsShownInTheCallersTimeZone) {
  auto c = chat_setup(s(), std::string("{") + kBooking + "}");
  auto utc = chat(s(), c, {{"message", "Can I book a call?"}});
  auto tokyo = chat(s(), c, {{"message", "Can I book a call?"}, {"timeZone", "Asia/Tokyo"}});
  ASSERT_EQ(utc.status, 200) << utc.body;
  ASSERT_EQ(tokyo.status, 200) << tokyo.body;
  auto a = utc.json()["booking"], b = tokyo.json()["booking"];
  EXPECT_EQ(a["provider"], "calendar");
  EXPECT_EQ(a["eventTitle"], "Intro call");
  EXPECT_EQ(a["eventLength"], 60);
  EXPECT_EQ(a["timeZone"], "UTC");
  EXPECT_EQ(b["timeZone"], "Asia/Tokyo");
  EXPECT_EQ(a.size(), 5u);
  ASSERT_GE(a["days"].size(), 3u) << a.dump();
  ASSERT_EQ(a["days"].size(), b["days"].size());
  for (size_t i = 0; i < a["days"].size(); ++i) {
    auto& day = a["days"][i];
    ASSERT_EQ(day.size(), 2u);
    ASSERT_EQ(day["slots"].size(), 1u);
    std::string slot = day["slots"][0];
    EXPECT_EQ(slot.substr(0, 10), day["date"]);  // 23:00 UTC is that UTC date
    EXPECT_EQ(slot.substr(10), "T23:00:00.000Z");
    EXPECT_EQ(b["days"][i]["slots"], day["slots"]);  // the same UTC times
    EXPECT_NE(b["days"][i]["date"], day["date"]);    // 08:00 the next day in Tokyo
  }
  EXPECT_TRUE(chat(s(), c, {{"message", "What do you sell?"}}).json()["booking"].is_null());
}

TEST_F(ChatOffers, OpenAiAgentShowsBookingThroughItsTool) {
  auto c = chat_setup(s(), std::string(R"({"engine":"openai",)") + kBooking + "}");
  llm_->script(
      {{200,
        "text/event-stream",
        {sse_body({tool_chunk(0, "call_k", "show_booking", "{}"), finish_chunk("tool_calls")})}},
       {200, "text/event-stream", {sse_body({text_chunk("Pick a time."), finish_chunk("stop")})}}});
  auto r = chat(s(), c, {{"message", "Let's meet"}, {"timeZone", "Europe/Paris"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["reply"], "Pick a time.");
  EXPECT_EQ(r.json()["booking"]["timeZone"], "Europe/Paris");
  EXPECT_GE(r.json()["booking"]["days"].size(), 3u);
}

constexpr const char* kForm =
    R"("forms":[{"id":"form_quote","name":"Request a quote","submitLabel":"Send","keywords":["quote"],)"
    R"("fields":[{"id":"f1","label":"Company","type":"text","required":true}]}])";

TEST_F(ChatOffers, FormIsOfferedByBothEngines) {
  Json expected = Json::parse(R"({"formId":"form_quote","name":"Request a quote",
      "fields":[{"id":"f1","label":"Company","type":"text","required":true}],"submitLabel":"Send"})");
  auto retrieval = chat_setup(s(), std::string("{") + kForm + "}");
  auto r = chat(s(), retrieval, {{"message", "Can I get a quote?"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json()["form"], expected);
  EXPECT_TRUE(chat(s(), retrieval, {{"message", "hello"}}).json()["form"].is_null());

  auto openai = chat_setup(s(), std::string(R"({"engine":"openai",)") + kForm + "}");
  llm_->script(
      {{200,
        "text/event-stream",
        {sse_body({tool_chunk(0, "call_f", "show_form", R"({"names":["Request a quote"]})"),
                   finish_chunk("tool_calls")})}},
       {200,
        "text/event-stream",
        {sse_body({text_chunk("Please fill this in."), finish_chunk("stop")})}}});
  auto o = chat(s(), openai, {{"message", "How much for 40 seats?"}});
  ASSERT_EQ(o.status, 200) << o.body;
  EXPECT_EQ(o.json()["form"], expected);
  EXPECT_EQ(o.json()["reply"], "Please fill this in.");
}

TEST_F(ChatOffers, LeadFormWhenAskedToBeContactedOrWithoutAnAnswer) {
  auto c = chat_setup(
      s(), R"({"leadForm":{"message":"How can we reach you?","fields":["name","email"]}})");
  Json expected =
      Json::parse(R"({"message":"How can we reach you?","fields":["name","email"],"form":null})");
  auto asked = chat(s(), c, {{"message", "Can someone contact me about pricing?"}});
  ASSERT_EQ(asked.status, 200) << asked.body;
  EXPECT_EQ(asked.json()["leadForm"], expected);
  auto unanswered = chat(s(), c, {{"message", "What is the airspeed of a swallow?"}});
  EXPECT_EQ(unanswered.json()["reply"], kDefaultFallback);
  EXPECT_EQ(unanswered.json()["leadForm"], expected);

  auto openai = chat_setup(
      s(),
      R"({"engine":"openai","leadForm":{"message":"How can we reach you?","fields":["name","email"]}})");
  llm_->script({{200,
                 "text/event-stream",
                 {sse_body({tool_chunk(0, "call_l", "ask_contact_details", "{}"),
                            finish_chunk("tool_calls")})}},
                {200,
                 "text/event-stream",
                 {sse_body({text_chunk("Leave your details."), finish_chunk("stop")})}}});
  auto o = chat(s(), openai, {{"message", "I'd like a callback"}});
  ASSERT_EQ(o.status, 200) << o.body;
  EXPECT_EQ(o.json()["leadForm"], expected);
}

}  // namespace
}  // namespace parley::e2e
