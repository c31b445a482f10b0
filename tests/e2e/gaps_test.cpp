// The support lead's loop, first half: each agent reply stores its outcome and confidence; the
// visitor's thumbs on a reply (widget) are stored, changed, taken back and shown in transcripts;
// questions the agent could not answer become gaps grouped by meaning ("how much is a day pass?"
// with "day pass price"), listed in the console and by `parley admin gaps list`; "Answer this"
// and "Improve answer" add a Q&A pair that answers the question afterwards; the console's
// conversation list reads as an inbox with a filter per badge. Roles and tenant isolation on each
// new route.
#include <chrono>
#include <thread>

#include "chat_support.h"
#include "harness.h"

namespace parley::e2e {
namespace {

class Gaps : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new Server(unlimited()); }
  static void TearDownTestSuite() { delete server_; }
  static Server* server_;
  const Server& s() { return *server_; }

  void SetUp() override {
    c_ = chat_setup(s());
    owner_ = create_member(s(), c_.account, "owner")["token"].get<std::string>();
    // Knowledge the agent answers from, unrelated to the questions it cannot answer.
    add_qa("What are your opening hours?", "We are open 9 to 5, Monday to Friday.");
    wait_trained();
  }

  void add_qa(const std::string& q, const std::string& a) {
    auto r = s().post("/api/v1/agents/" + c_.agent + "/sources", c_.key,
                      Json{{"type", "qa"}, {"question", q}, {"answer", a}}.dump());
    ASSERT_LT(r.status, 300) << r.body;
  }
  void wait_trained() {
    for (int i = 0; i < 1000; ++i) {
      auto r = s().get("/api/v1/agents/" + c_.agent + "/sources", c_.key);
      if (r.status == 200 && r.json()["training"]["done"] == true) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL() << "training did not finish";
  }
  HttpResponse widget_message(const std::string& message, const std::string& visitor,
                              const std::string& conv = "") {
    Json body{{"message", message}, {"visitorId", visitor}};
    if (!conv.empty()) body["conversationId"] = conv;
    return s().request({"POST", "/widget/v1/agents/" + c_.agent + "/messages", body.dump(), {}});
  }
  HttpResponse rate(const std::string& conv, const std::string& message, const Json& rating,
                    const std::string& visitor = "v-1") {
    Json body{{"visitorId", visitor}};
    if (!rating.is_discarded()) body["rating"] = rating;
    return s().request({"POST",
                        "/widget/v1/conversations/" + conv + "/messages/" + message + "/rating",
                        body.dump(),
                        {}});
  }
  Json transcript(const std::string& conv, const std::string& token = "") {
    auto r = s().get("/console/v1/conversations/" + conv, token.empty() ? owner_ : token);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json()["data"];
  }
  Json gaps(const std::string& query = "") {
    auto r = s().get("/console/v1/agents/" + c_.agent + "/gaps" + query, owner_);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json()["data"];
  }
  HttpResponse inbox(const std::string& query = "") {
    return s().get("/console/v1/agents/" + c_.agent + "/conversations" + query, owner_);
  }

  ChatSetup c_;
  std::string owner_;
};
Server* Gaps::server_ = nullptr;

TEST_F(Gaps, EachAgentReplyStoresItsOutcomeAndConfidence) {
  auto known = chat(s(), c_, {{"message", "What are your opening hours?"}});
  ASSERT_EQ(known.status, 200) << known.body;
  auto unknown = chat(s(), c_, {{"message", "Can I bring my dog?"}});
  ASSERT_EQ(unknown.json()["reply"], kDefaultFallback);

  auto answered = transcript(known.json()["conversationId"])["messages"];
  ASSERT_EQ(answered.size(), 2u);
  EXPECT_TRUE(answered[0]["outcome"].is_null());  // the visitor's message has none
  EXPECT_TRUE(answered[0]["confidence"].is_null());
  EXPECT_EQ(answered[1]["outcome"], "answered");
  EXPECT_GE(answered[1]["confidence"].get<double>(), 0.7);
  EXPECT_TRUE(answered[1]["rating"].is_null());
  auto fallback = transcript(unknown.json()["conversationId"])["messages"];
  EXPECT_EQ(fallback[1]["outcome"], "fallback");
  EXPECT_LT(fallback[1]["confidence"].get<double>(), 0.6);

  // A team member's reply has none.
  std::string conv = unknown.json()["conversationId"];
  ASSERT_EQ(s().post("/console/v1/conversations/" + conv + "/takeover", owner_, "{}").status, 200);
  ASSERT_EQ(s().post("/console/v1/conversations/" + conv + "/reply", owner_,
                     R"({"message":"Yes, dogs are welcome."})")
                .status,
            201);
  auto team = transcript(conv)["messages"].back();
  EXPECT_EQ(team["content"], "Yes, dogs are welcome.");
  EXPECT_TRUE(team["outcome"].is_null());
}

TEST_F(Gaps, ThumbsAreStoredChangedTakenBackAndShown) {
  auto first = widget_message("What are your opening hours?", "v-1");
  ASSERT_EQ(first.status, 200) << first.body;
  std::string conv = first.json()["conversationId"];
  auto messages = transcript(conv)["messages"];
  std::string question = messages[0]["id"], reply = messages[1]["id"];

  auto up = rate(conv, reply, "up");
  ASSERT_EQ(up.status, 200) << up.body;
  EXPECT_EQ(up.json()["data"]["messageId"], reply);
  EXPECT_EQ(up.json()["data"]["rating"], "up");
  EXPECT_TRUE(up.json()["data"]["ratedAt"].is_string());
  EXPECT_EQ(transcript(conv)["messages"][1]["rating"], "up");
  EXPECT_TRUE(transcript(conv)["messages"][1]["ratedAt"].is_string());
  EXPECT_EQ(gaps().size(), 0u);

  // Changed to a thumbs-down: the question becomes a gap, and the conversation is rated low.
  auto down = rate(conv, reply, "down");
  ASSERT_EQ(down.status, 200) << down.body;
  EXPECT_EQ(transcript(conv)["messages"][1]["rating"], "down");
  auto open = gaps();
  ASSERT_EQ(open.size(), 1u) << open.dump();
  EXPECT_EQ(open[0]["question"], "What are your opening hours?");
  auto low = inbox("?filter=rated_low").json()["data"];
  ASSERT_EQ(low.size(), 1u);
  EXPECT_EQ(low[0]["id"], conv);
  // The widget's own transcript shows it too.
  auto own = s().request({"GET", "/widget/v1/conversations/" + conv + "?visitorId=v-1", "", {}});
  EXPECT_EQ(own.json()["data"]["messages"][1]["rating"], "down");

  // Taken back: no rating, no gap.
  auto back = rate(conv, reply, nullptr);
  ASSERT_EQ(back.status, 200) << back.body;
  EXPECT_TRUE(back.json()["data"]["rating"].is_null());
  EXPECT_TRUE(transcript(conv)["messages"][1]["rating"].is_null());
  EXPECT_TRUE(transcript(conv)["messages"][1]["ratedAt"].is_null());
  EXPECT_EQ(gaps().size(), 0u);
  // Nothing of the question stays behind in an empty group either.
  EXPECT_EQ(s().sql("SELECT COUNT(*) FROM gap_groups WHERE agent_id = '" + c_.agent + "'")[0][0],
            "0");
  EXPECT_EQ(inbox("?filter=rated_low").json()["data"].size(), 0u);

  // Refusals: the field named, a visitor's own message, unknown ids and another visitor.
  auto bad = rate(conv, reply, "sideways");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.error_code(), "invalid_request");
  EXPECT_NE(bad.error_message().find("rating"), std::string::npos);
  auto missing = rate(conv, reply, Json(Json::value_t::discarded));
  EXPECT_EQ(missing.status, 400);
  EXPECT_NE(missing.error_message().find("rating"), std::string::npos);
  auto visitor = rate(conv, question, "up");
  EXPECT_EQ(visitor.status, 400);
  EXPECT_NE(visitor.error_message().find("messageId"), std::string::npos);
  EXPECT_EQ(rate(conv, "msg_missing", "up").status, 404);
  EXPECT_EQ(rate(conv, reply, "up", "v-2").status, 404);
  EXPECT_EQ(rate("cnv_missing", reply, "up").status, 404);
}

TEST_F(Gaps, AParaphrasedGapIsGroupedWithItsOriginalAndAnsweredOnce) {
  auto api = chat(s(), c_, {{"message", "How much is a day pass?"}});
  ASSERT_EQ(api.json()["reply"], kDefaultFallback);
  auto widget = widget_message("day pass price", "v-1");
  ASSERT_EQ(widget.json()["reply"], kDefaultFallback);
  auto other = chat(s(), c_, {{"message", "Can I bring my dog?"}});
  ASSERT_EQ(other.json()["reply"], kDefaultFallback);

  auto open = gaps();
  ASSERT_EQ(open.size(), 2u) << open.dump();
  Json group;
  for (const auto& g : open)
    if (g["count"] == 2) group = g;
  ASSERT_FALSE(group.is_null()) << open.dump();
  EXPECT_EQ(group["question"], "How much is a day pass?");
  EXPECT_EQ(group["channels"], Json::array({"api", "widget"}));
  EXPECT_EQ(group["resolved"], false);
  EXPECT_TRUE(group["firstAskedAt"].is_string());
  EXPECT_TRUE(group["lastAskedAt"].is_string());
  std::string id = group["id"];

  auto one = s().get("/console/v1/agents/" + c_.agent + "/gaps/" + id, owner_);
  ASSERT_EQ(one.status, 200) << one.body;
  auto conversations = one.json()["data"]["conversations"];
  ASSERT_EQ(conversations.size(), 2u);
  EXPECT_EQ(conversations[0]["conversationId"], widget.json()["conversationId"]);
  EXPECT_EQ(conversations[0]["question"], "day pass price");
  EXPECT_EQ(conversations[0]["reason"], "fallback");
  EXPECT_EQ(conversations[1]["conversationId"], api.json()["conversationId"]);

  // The operator's view.
  auto listed = s().admin({"gaps", "list", "--agent", c_.agent})["data"];
  ASSERT_EQ(listed.size(), 2u);
  for (const auto& g : listed) {
    for (const char* field :
         {"question", "count", "firstAskedAt", "lastAskedAt", "channels", "resolved"})
      EXPECT_TRUE(g.contains(field)) << field;
  }

  auto answered = s().post("/console/v1/agents/" + c_.agent + "/gaps/" + id + "/answer", owner_,
                           Json{{"answer", "The price of a day pass is 12 euros."}}.dump());
  ASSERT_EQ(answered.status, 201) << answered.body;
  auto a = answered.json();
  EXPECT_EQ(a["result"], "created");
  EXPECT_EQ(a["data"]["type"], "qa");
  EXPECT_EQ(a["data"]["question"], "How much is a day pass?");
  EXPECT_EQ(a["gap"]["resolved"], true);
  EXPECT_EQ(a["gap"]["answerSourceId"], a["data"]["id"]);
  wait_trained();

  EXPECT_EQ(gaps().size(), 1u);  // the dog question is still open
  auto resolved = gaps("?status=resolved");
  ASSERT_EQ(resolved.size(), 1u);
  EXPECT_EQ(resolved[0]["id"], id);

  auto again = chat(s(), c_, {{"message", "How much is a day pass?"}});
  EXPECT_EQ(again.json()["reply"], "The price of a day pass is 12 euros.");
  auto paraphrase = widget_message("day pass price", "v-2");
  EXPECT_EQ(paraphrase.json()["reply"], "The price of a day pass is 12 euros.");

  // Answering again with the same text changes nothing; another text updates the pair.
  auto same = s().post("/console/v1/agents/" + c_.agent + "/gaps/" + id + "/answer", owner_,
                       Json{{"answer", "The price of a day pass is 12 euros."}}.dump());
  ASSERT_EQ(same.status, 200) << same.body;
  EXPECT_EQ(same.json()["result"], "unchanged");
}

TEST_F(Gaps, ImproveAnswerFromAnAgentReplyAnswersTheQuestionAfterwards) {
  auto asked = widget_message("Do you rent bikes?", "v-1");
  ASSERT_EQ(asked.json()["reply"], kDefaultFallback);
  std::string conv = asked.json()["conversationId"];
  auto messages = transcript(conv)["messages"];
  std::string reply = messages[1]["id"];

  auto improved = s().post("/console/v1/conversations/" + conv + "/messages/" + reply + "/improve",
                           owner_, Json{{"answer", "Yes, we rent bikes by the day."}}.dump());
  ASSERT_EQ(improved.status, 201) << improved.body;
  EXPECT_EQ(improved.json()["data"]["question"], "Do you rent bikes?");
  EXPECT_EQ(improved.json()["gap"]["resolved"], true);
  wait_trained();
  EXPECT_EQ(gaps().size(), 0u);
  EXPECT_EQ(widget_message("Do you rent bikes?", "v-2").json()["reply"],
            "Yes, we rent bikes by the day.");

  // The question may be given; a visitor's message cannot be improved; the answer is required.
  auto own = s().post(
      "/console/v1/conversations/" + conv + "/messages/" + reply + "/improve", owner_,
      Json{{"answer", "We rent city bikes."}, {"question", "Can I rent a city bike?"}}.dump());
  ASSERT_EQ(own.status, 201) << own.body;
  EXPECT_EQ(own.json()["data"]["question"], "Can I rent a city bike?");
  auto visitor = s().post("/console/v1/conversations/" + conv + "/messages/" +
                              messages[0]["id"].get<std::string>() + "/improve",
                          owner_, Json{{"answer", "x"}}.dump());
  EXPECT_EQ(visitor.status, 400);
  EXPECT_NE(visitor.error_message().find("messageId"), std::string::npos);
  auto blank = s().post("/console/v1/conversations/" + conv + "/messages/" + reply + "/improve",
                        owner_, Json{{"answer", "  "}}.dump());
  EXPECT_EQ(blank.status, 400);
  EXPECT_NE(blank.error_message().find("answer"), std::string::npos);
}

TEST_F(Gaps, ALowCsatMakesTheFirstQuestionAGap) {
  auto asked = widget_message("What are your opening hours?", "v-1");
  std::string conv = asked.json()["conversationId"];
  auto rated = s().request({"POST",
                            "/widget/v1/conversations/" + conv + "/csat",
                            Json{{"visitorId", "v-1"}, {"score", 1}}.dump(),
                            {}});
  ASSERT_EQ(rated.status, 200) << rated.body;
  auto open = gaps();
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0]["question"], "What are your opening hours?");
  auto better = s().request({"POST",
                             "/widget/v1/conversations/" + conv + "/csat",
                             Json{{"visitorId", "v-1"}, {"score", 4}}.dump(),
                             {}});
  ASSERT_EQ(better.status, 200) << better.body;
  EXPECT_EQ(gaps().size(), 0u);
}

TEST_F(Gaps, TheInboxShowsVisitorPreviewAndBadgesWithAFilterForEach) {
  // Answered, with contact details given: the visitor is its lead.
  auto known = widget_message("What are your opening hours?", "v-1");
  std::string answered = known.json()["conversationId"];
  auto contact =
      s().request({"POST",
                   "/widget/v1/conversations/" + answered + "/contact",
                   Json{{"visitorId", "v-1"}, {"email", "ada@example.com"}, {"name", "Ada"}}.dump(),
                   {}});
  ASSERT_LT(contact.status, 300) << contact.body;
  // Unanswered: the fallback.
  std::string unanswered =
      chat(s(), c_, {{"message", "Can I bring my dog?"}}).json()["conversationId"];
  // Handed off: a live chat requested.
  std::string handed =
      chat(s(), c_, {{"message", "What are your opening hours?"}}).json()["conversationId"];
  s().admin({"conversation", "set-live-chat", handed, "--status", "requested"});
  // Rated low: a CSAT of 2.
  std::string low =
      chat(s(), c_, {{"message", "What are your opening hours?"}}).json()["conversationId"];
  s().admin({"conversation", "set-csat", low, "--score", "2"});

  auto all = inbox();
  ASSERT_EQ(all.status, 200) << all.body;
  auto rows = all.json()["data"];
  ASSERT_EQ(rows.size(), 4u);
  std::map<std::string, Json> by_id;
  for (const auto& r : rows) by_id[r["id"]] = r;
  auto first = by_id[answered];
  EXPECT_EQ(first["visitor"]["email"], "ada@example.com");
  EXPECT_EQ(first["visitor"]["name"], "Ada");
  EXPECT_EQ(first["preview"], "What are your opening hours?");
  EXPECT_EQ(first["badges"],
            (Json{{"unanswered", false}, {"handedOff", false}, {"ratedLow", false}}));
  EXPECT_TRUE(by_id[unanswered]["visitor"].is_null());
  EXPECT_EQ(by_id[unanswered]["preview"], "Can I bring my dog?");
  EXPECT_EQ(by_id[unanswered]["badges"]["unanswered"], true);
  EXPECT_EQ(by_id[handed]["badges"]["handedOff"], true);
  EXPECT_EQ(by_id[low]["badges"]["ratedLow"], true);

  auto only = [&](const std::string& filter) {
    auto r = inbox("?filter=" + filter);
    EXPECT_EQ(r.status, 200) << r.body;
    std::vector<std::string> ids;
    Json page = r.json();  // kept: the rows are read from it
    for (const auto& row : page["data"]) ids.push_back(row["id"]);
    return ids;
  };
  EXPECT_EQ(only("unanswered"), std::vector<std::string>{unanswered});
  EXPECT_EQ(only("handed_off"), std::vector<std::string>{handed});
  EXPECT_EQ(only("rated_low"), std::vector<std::string>{low});
  // The filter pages like the list, and goes with the search.
  auto paged = inbox("?filter=unanswered&limit=1");
  EXPECT_EQ(paged.json()["hasMore"], false);
  auto searched = inbox("?filter=unanswered&q=opening");
  EXPECT_EQ(searched.json()["data"].size(), 0u);

  auto bad = inbox("?filter=urgent");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.error_code(), "invalid_request");
  EXPECT_NE(bad.error_message().find("filter"), std::string::npos);
}

TEST_F(Gaps, RolesAndAccountsAreChecked) {
  auto asked = chat(s(), c_, {{"message", "Can I bring my dog?"}});
  ASSERT_EQ(asked.json()["reply"], kDefaultFallback);
  std::string conv = asked.json()["conversationId"];
  std::string reply = transcript(conv)["messages"][1]["id"];
  std::string improve = "/console/v1/conversations/" + conv + "/messages/" + reply + "/improve";
  std::string id = gaps()[0]["id"];
  std::string base = "/console/v1/agents/" + c_.agent + "/gaps";
  Json answer{{"answer", "Dogs are welcome."}};

  auto viewer = create_member(s(), c_.account, "viewer")["token"].get<std::string>();
  EXPECT_EQ(s().get(base, viewer).status, 200);
  EXPECT_EQ(s().get(base + "/" + id, viewer).status, 200);
  auto refused = s().post(base + "/" + id + "/answer", viewer, answer.dump());
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(refused.error_code(), "forbidden");
  EXPECT_EQ(s().post(improve, viewer, answer.dump()).status, 403);

  auto other = chat_setup(s());
  auto outsider = create_member(s(), other.account, "owner")["token"].get<std::string>();
  EXPECT_EQ(s().get(base, outsider).status, 404);
  EXPECT_EQ(s().get(base + "/" + id, outsider).status, 404);
  EXPECT_EQ(s().post(base + "/" + id + "/answer", outsider, answer.dump()).status, 404);
  EXPECT_EQ(s().post(improve, outsider, answer.dump()).status, 404);
  EXPECT_EQ(s().post("/console/v1/conversations/" + conv + "/messages/msg_missing/improve", owner_,
                     answer.dump())
                .status,
            404);
  EXPECT_EQ(s().get("/console/v1/agents/" + c_.agent + "/conversations", outsider).status, 404);
  // Another agent's gap through one's own agent is not found either.
  auto mine = s().get("/console/v1/agents/" + other.agent + "/gaps/" + id, outsider);
  EXPECT_EQ(mine.status, 404);
  EXPECT_EQ(s().get(base + "/gap_missing", owner_).status, 404);
  EXPECT_EQ(s().get(base, "").status, 401);

  auto status = s().get(base + "?status=closed", owner_);
  EXPECT_EQ(status.status, 400);
  EXPECT_NE(status.error_message().find("status"), std::string::npos);
  auto empty = s().post(base + "/" + id + "/answer", owner_, "{}");
  EXPECT_EQ(empty.status, 400);
  EXPECT_NE(empty.error_message().find("answer"), std::string::npos);
  auto extra = s().post(base + "/" + id + "/answer", owner_, R"({"answer":"x","score":1})");
  EXPECT_EQ(extra.status, 400);
  auto long_question = s().post(base + "/" + id + "/answer", owner_,
                                Json{{"answer", "x"}, {"question", std::string(201, 'q')}}.dump());
  EXPECT_EQ(long_question.status, 400);
  EXPECT_NE(long_question.error_message().find("question"), std::string::npos);
}

}  // namespace
}  // namespace parley::e2e
