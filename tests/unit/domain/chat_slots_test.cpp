#include "domain/chat_slots.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

TEST(ChatSlots, AgentAccountAndServerCapsRefuseWithRetryAfterAndLeasesGiveSlotsBack) {
  ChatSlots slots({/*per_agent=*/2, /*per_account=*/3, /*total=*/4});
  auto a1 = slots.acquire("acc_1", "agt_1");
  auto a2 = slots.acquire("acc_1", "agt_1");
  ASSERT_TRUE(a1.ok() && a2.ok());
  auto agent_full = slots.acquire("acc_1", "agt_1");
  ASSERT_FALSE(agent_full.ok());
  EXPECT_EQ(agent_full.error().code, ErrorCode::kAgentBusy);
  EXPECT_EQ(agent_full.error().retry_after_s, kBusyRetryAfterS);
  EXPECT_NE(agent_full.error().message.find("agent is already writing 2"), std::string::npos);

  auto b1 = slots.acquire("acc_1", "agt_2");
  ASSERT_TRUE(b1.ok());
  auto account_full = slots.acquire("acc_1", "agt_2");
  ASSERT_FALSE(account_full.ok());
  EXPECT_EQ(account_full.error().code, ErrorCode::kAgentBusy);
  EXPECT_NE(account_full.error().message.find("account is already writing 3"), std::string::npos);

  auto c1 = slots.acquire("acc_2", "agt_3");
  ASSERT_TRUE(c1.ok());
  auto server_full = slots.acquire("acc_3", "agt_4");
  ASSERT_FALSE(server_full.ok());
  EXPECT_EQ(server_full.error().code, ErrorCode::kUnavailable);
  EXPECT_EQ(slots.in_flight(), 4);

  a1->reset();  // the engine returned
  EXPECT_EQ(slots.in_flight(), 3);
  EXPECT_TRUE(slots.acquire("acc_1", "agt_1").ok());
  EXPECT_EQ(slots.in_flight(), 3) << "the temporary lease was given back at once";
}

}  // namespace
}  // namespace parley
