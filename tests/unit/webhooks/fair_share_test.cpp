// Fair shares of the delivery senders: webhooks take turns, and the caps per webhook and per
// account count what is already in flight.
#include "webhooks/fair_share.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

DueDelivery due(const std::string& id, const std::string& webhook, const std::string& account) {
  DueDelivery d;
  d.delivery.id = id;
  d.delivery.webhook_id = webhook;
  d.account_id = account;
  return d;
}

std::vector<std::string> ids(const std::vector<DueDelivery>& all, const std::vector<size_t>& at) {
  std::vector<std::string> out;
  for (size_t i : at) out.push_back(all[i].delivery.id);
  return out;
}

TEST(FairShare, WebhooksTakeTurnsInTheOrderOfTheirEarliestDelivery) {
  // Earliest first, as the repository returns them: w1's backlog comes before w2's and w3's.
  std::vector<DueDelivery> all = {due("a1", "w1", "A"), due("a2", "w1", "A"),
                                  due("b1", "w2", "B"), due("c1", "w3", "C"),
                                  due("b2", "w2", "B")};
  EXPECT_EQ(ids(all, pick_fairly(all, {}, {2, 4}, 10)),
            (std::vector<std::string>{"a1", "b1", "c1", "a2", "b2"}));
  EXPECT_EQ(ids(all, pick_fairly(all, {}, {2, 4}, 3)),
            (std::vector<std::string>{"a1", "b1", "c1"}));
}

TEST(FairShare, AWebhookAtItsCapWaitsWhileOthersGo) {
  std::vector<DueDelivery> all = {due("a1", "w1", "A"), due("a2", "w1", "A"),
                                  due("b1", "w2", "B")};
  InFlight in_flight;
  in_flight.add(due("a0", "w1", "A"));
  EXPECT_EQ(ids(all, pick_fairly(all, in_flight, {2, 4}, 10)),
            (std::vector<std::string>{"a1", "b1"}));
  in_flight.add(due("a00", "w1", "A"));
  EXPECT_EQ(ids(all, pick_fairly(all, in_flight, {2, 4}, 10)), (std::vector<std::string>{"b1"}));
  in_flight.remove(due("a0", "w1", "A"));
  in_flight.remove(due("a00", "w1", "A"));
  EXPECT_TRUE(in_flight.by_webhook.empty());
  EXPECT_TRUE(in_flight.by_account.empty());
}

TEST(FairShare, AnAccountsWebhooksShareTheAccountsCap) {
  // Five webhooks of account A, each with a backlog, then one of account B.
  std::vector<DueDelivery> all;
  for (int round = 0; round < 2; ++round)
    for (int w = 0; w < 5; ++w)
      all.push_back(due("a" + std::to_string(w) + std::to_string(round), "w" + std::to_string(w),
                        "A"));
  all.push_back(due("b", "wb", "B"));
  auto picked = ids(all, pick_fairly(all, {}, {2, 4}, 32));
  EXPECT_EQ(picked, (std::vector<std::string>{"a00", "a10", "a20", "a30", "b"}));
}

}  // namespace
}  // namespace parley
