#include "engine/handoff_intent.h"
#include "intent_test_helpers.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

TEST(AsksForPerson, RecognisesRequestsForAPerson) {
  for (const char* m : {"Can I talk to a human?", "I want a REAL person please",
                        "Please connect me with a representative",
                        "speak with someone from your team", "Is there a live agent?", "human!"}) {
    EXPECT_TRUE(asks_for_person(m)) << m;
  }
}

TEST(AsksForPerson, LeavesOtherQuestionsAlone) {
  for (const char* m : {"What are your opening hours?", "Is this humane?", "personal data policy",
                        "How do I reset my password?", ""}) {
    EXPECT_FALSE(asks_for_person(m)) << m;
  }
}

TEST(AcceptsOffer, ShortYesAnswersOnly) {
  EXPECT_TRUE(accepts_offer("Yes please"));
  EXPECT_TRUE(accepts_offer("ok"));
  EXPECT_TRUE(accepts_offer("Sure, connect me."));
  EXPECT_FALSE(accepts_offer("No thanks"));
  EXPECT_FALSE(accepts_offer("yes but not now"));
  EXPECT_FALSE(accepts_offer("What are your prices?"));
  EXPECT_FALSE(accepts_offer("ok what are your hours"));
  EXPECT_TRUE(accepts_offer("Yes, I'd like to talk to someone"));
}

TEST(AsksForPerson, ComparesWordsAsTheSharedNormaliserDoes) {
  // Plurals, full-width letters and quotes around a word do not hide the phrase.
  EXPECT_TRUE(asks_for_person("Are there any HUMANS there?"));
  EXPECT_TRUE(asks_for_person("Ｌｉｖｅ ａｇｅｎｔ please"));
  EXPECT_TRUE(asks_for_person("I want a 'human'"));
  EXPECT_TRUE(accepts_offer("Yes, thanks!"));
  EXPECT_FALSE(accepts_offer("Ｎｏ"));
}

TEST(HandoffSettings, ReadFromTheAgentSettings) {
  auto s = parse_agent_settings(R"({"handoffEmail":"team@example.com","liveChat":true})").handoff;
  EXPECT_EQ(s.email, "team@example.com");
  EXPECT_TRUE(s.live_chat);
  EXPECT_TRUE(s.available());
  auto none = parse_agent_settings(R"({"handoffEmail":"","liveChat":"yes"})").handoff;
  EXPECT_FALSE(none.available());
  EXPECT_FALSE(parse_agent_settings("not json").handoff.available());
}

}  // namespace
}  // namespace parley
