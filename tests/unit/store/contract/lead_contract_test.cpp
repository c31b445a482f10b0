// Leads: one per person per agent; a person giving details again is counted on the same lead,
// also when several submissions arrive at once.
#include "store/agent_repo.h"
#include "store/conversation_repo.h"
#include "store/lead_queries.h"
#include "store/lead_repo.h"
#include "store_contract.h"

namespace parley {
namespace {

LeadRecord lead(std::string id, std::string agent, std::string account, int64_t at) {
  LeadRecord l;
  l.id = std::move(id);
  l.agent_id = std::move(agent);
  l.account_id = std::move(account);
  l.person_key = "ada@example.com";
  l.email = "ada@example.com";
  l.collected_at = at;
  return l;
}

TEST_P(StoreContract, ASecondSubmissionOfAPersonFillsInAndCountsOnTheFirstLead) {
  LeadSaved first, second;
  write([&](Connection& c) -> Result<void> {
    ConversationRecord conv;
    conv.id = "cnv_9";
    conv.agent_id = agent_;
    conv.account_id = account_;
    conv.session_id = "s9";
    PARLEY_TRY(ConversationRepo::insert(c, conv));
    PARLEY_ASSIGN_OR_RETURN(first, LeadRepo::save(c, lead("lead_1", agent_, account_, now_)));
    auto again = lead("lead_2", agent_, account_, now_ + 1000);
    again.phone = "+44 20 7946 0000";
    again.conversation_id = "cnv_9";
    PARLEY_ASSIGN_OR_RETURN(second, LeadRepo::save(c, again));
    return {};
  });
  EXPECT_TRUE(first.created);
  EXPECT_EQ(first.lead.submission_count, 1);
  EXPECT_FALSE(second.created);
  EXPECT_EQ(second.lead.id, "lead_1");
  EXPECT_EQ(second.lead.submission_count, 2);
  EXPECT_EQ(second.lead.phone, "+44 20 7946 0000");
  EXPECT_EQ(second.lead.email, "ada@example.com");
  EXPECT_EQ(second.lead.conversation_id, "cnv_9");
  EXPECT_EQ(second.lead.collected_at, now_);
  EXPECT_EQ(second.lead.last_seen_at, now_ + 1000);
  auto stored = *LeadRepo::find(reader(), account_, "lead_1");
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->submission_count, 2);
  EXPECT_FALSE(LeadRepo::find(reader(), account_, "lead_2")->has_value());
  EXPECT_EQ((**AgentRepo::find_any(reader(), agent_)).leads_count, 1);
}

TEST_P(StoreContract, AnOlderSubmissionDoesNotMoveLastSeenBack) {
  LeadSaved saved;
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(LeadRepo::save(c, lead("lead_1", agent_, account_, now_ + 5000)));
    PARLEY_ASSIGN_OR_RETURN(saved, LeadRepo::save(c, lead("lead_2", agent_, account_, now_)));
    return {};
  });
  EXPECT_EQ(saved.lead.last_seen_at, now_ + 5000);
}

TEST_P(StoreContract, LeadPagesAreNewestFirst) {
  write([&](Connection& c) -> Result<void> {
    for (int i = 0; i < 4; ++i) {
      auto l = lead("lead_" + std::to_string(i), agent_, account_, now_ + i);
      l.person_key = "p" + std::to_string(i);
      PARLEY_TRY(LeadRepo::save(c, l));
    }
    return {};
  });
  PageQuery q;
  q.limit = 3;
  auto page = *LeadQueries::list(reader(), agent_, q);
  ASSERT_EQ(page.items.size(), 3u);
  EXPECT_TRUE(page.has_more);
  EXPECT_EQ(page.items[0].id, "lead_3");
  q.after = KeysetPosition{page.items.back().collected_at, page.items.back().id};
  auto rest = *LeadQueries::list(reader(), agent_, q);
  ASSERT_EQ(rest.items.size(), 1u);
  EXPECT_FALSE(rest.has_more);
  EXPECT_EQ(rest.items[0].id, "lead_0");
}

TEST_P(StoreContract, ConcurrentSubmissionsOfOnePersonMakeOneLeadCountedOncePerSubmission) {
  constexpr int kEach = 10;
  std::atomic<int> created{0};
  concurrently([&](int t, Database& db) {
    for (int i = 0; i < kEach; ++i) {
      LeadSaved saved;
      auto r = db.write([&](Connection& c) -> Result<void> {
        PARLEY_ASSIGN_OR_RETURN(
            saved, LeadRepo::save(c, lead("lead_" + std::to_string(t) + "_" + std::to_string(i),
                                          agent_, account_, now_ + i)));
        return {};
      });
      EXPECT_TRUE(r.ok());
      if (saved.created) ++created;
    }
  });
  EXPECT_EQ(created.load(), 1);
  PageQuery q;
  auto page = *LeadQueries::list(reader(), agent_, q);
  ASSERT_EQ(page.items.size(), 1u);
  EXPECT_EQ(page.items[0].submission_count, kThreads * kEach);
  EXPECT_EQ((**AgentRepo::find_any(reader(), agent_)).leads_count, 1);
}

}  // namespace
}  // namespace parley
