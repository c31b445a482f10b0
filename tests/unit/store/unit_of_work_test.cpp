// What a UnitOfWork records (store/entity_changes.h) when several units are committed together, as
// SQLite's group commit does: one unit's repeated changes of an entity are kept once, and a unit
// that is rolled back and forgotten (truncate) leaves what the units before it recorded exactly
// as they recorded it, counts included.
#include "store/entity_changes.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

AgentCounts counts(int64_t messages, int64_t seq) {
  AgentCounts n;
  n.messages = messages;
  n.seq = seq;
  return n;
}

TEST(UnitOfWork, OneUnitKeepsAnEntityOnceWithItsNewestCounts) {
  UnitOfWork work;
  work.begin();
  work.changed(Entity::kAgent, "agt_a", counts(2, 1));
  work.changed(Entity::kAgent, "agt_a", counts(4, 2));
  ASSERT_EQ(work.changes().size(), 1u);
  EXPECT_EQ(work.changes()[0].counts->messages, 4);
  work.changed(Entity::kAgent, "agt_a");  // the whole agent changed
  ASSERT_EQ(work.changes().size(), 1u);
  EXPECT_FALSE(work.changes()[0].counts.has_value());
}

TEST(UnitOfWork, AUnitRolledBackLeavesTheCountsAnEarlierUnitRecorded) {
  UnitOfWork work;
  work.begin();
  work.changed(Entity::kAgent, "agt_a", counts(2, 1));
  work.abandon();
  // The next unit of the same transaction moves the same agent's counters, then is rolled back.
  const size_t mark = work.mark();
  work.begin();
  work.changed(Entity::kAgent, "agt_a", counts(4, 2));
  work.abandon();
  work.truncate(mark);
  ASSERT_EQ(work.changes().size(), 1u);
  ASSERT_TRUE(work.changes()[0].counts.has_value());
  EXPECT_EQ(work.changes()[0].counts->messages, 2);
  EXPECT_EQ(work.changes()[0].counts->seq, 1);
}

TEST(UnitOfWork, UnitsCommittedTogetherKeepAnEntryEach) {
  UnitOfWork work;
  work.begin();
  work.changed(Entity::kAgent, "agt_a", counts(2, 1));
  work.abandon();
  work.begin();
  work.changed(Entity::kAgent, "agt_a", counts(4, 2));
  work.abandon();
  ASSERT_EQ(work.changes().size(), 2u);
  EXPECT_EQ(work.changes()[1].counts->messages, 4);
}

}  // namespace
}  // namespace parley
