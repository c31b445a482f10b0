// Knowledge sources: per-agent sequences (also under concurrent inserts), counts by status,
// claims by workers, and the knowledge version; large sources and knowledge forms rewritten and
// removed.
#include <set>

#include "store/knowledge_form_repo.h"
#include "store/source_repo.h"
#include "store_contract.h"

namespace parley {
namespace {

SourceRecord source(std::string id, std::string agent, std::string account, int64_t at) {
  SourceRecord s;
  s.id = std::move(id);
  s.agent_id = std::move(agent);
  s.account_id = std::move(account);
  s.type = "text";
  s.content = "Opening hours are nine to five.";
  s.characters = 31;
  s.created_at = s.updated_at = at;
  return s;
}

TEST_P(StoreContract, SourcesTakeTheNextSeqOfTheirAgentAndNeverReuseOne) {
  std::vector<int64_t> seqs;
  write([&](Connection& c) -> Result<void> {
    seqs.clear();
    for (int i = 0; i < 3; ++i) {
      auto s = source("src_" + std::to_string(i), agent_, account_, now_ + i);
      PARLEY_TRY(SourceRepo::insert(c, s));
      seqs.push_back(s.seq);
    }
    return {};
  });
  EXPECT_EQ(seqs, (std::vector<int64_t>{1, 2, 3}));
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(SourceRepo::remove(c, "src_2"));
    auto s = source("src_3", agent_, account_, now_ + 3);
    PARLEY_TRY(SourceRepo::insert(c, s));
    EXPECT_EQ(s.seq, 4);
    return {};
  });
  auto listed = *SourceRepo::list(reader(), agent_);
  ASSERT_EQ(listed.size(), 3u);
  EXPECT_EQ(listed[0].id, "src_3");  // newest first
  EXPECT_FALSE(listed[0].content.has_value()) << "lists leave the text out";
  auto found = *SourceRepo::find(reader(), agent_, "src_0");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->content, "Opening hours are nine to five.");
}

TEST_P(StoreContract, AnInsertForAMissingAgentIsNotFound) {
  auto r = db().write([&](Connection& c) -> Result<void> {
    auto s = source("src_x", "agt_missing", account_, now_);
    return SourceRepo::insert(c, s);
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kNotFound);
}

TEST_P(StoreContract, SourcesAreCountedByStatusAndClaimedOnce) {
  write([&](Connection& c) -> Result<void> {
    for (int i = 0; i < 3; ++i) {
      auto s = source("src_" + std::to_string(i), agent_, account_, now_ + i);
      PARLEY_TRY(SourceRepo::insert(c, s));
    }
    return {};
  });
  std::optional<SourceRecord> next;
  bool first = false, second = true;
  write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(next, SourceRepo::next_claimable(c, now_));
    PARLEY_ASSIGN_OR_RETURN(first, SourceRepo::claim(c, next->id, now_, now_ + 1000));
    PARLEY_ASSIGN_OR_RETURN(second, SourceRepo::claim(c, next->id, now_, now_ + 1000));
    return {};
  });
  EXPECT_EQ(next->id, "src_0") << "the oldest first";
  EXPECT_TRUE(first);
  EXPECT_FALSE(second) << "its lease has not expired";
  auto counts = *SourceRepo::counts(reader(), agent_);
  EXPECT_EQ(counts.pending, 2);
  EXPECT_EQ(counts.processing, 1);
  EXPECT_EQ(*SourceRepo::committed_characters(reader(), agent_), 93);
}

TEST_P(StoreContract, ConcurrentSourceInsertsOfOneAgentGetDistinctConsecutiveSeqs) {
  constexpr int kEach = 15;
  std::atomic<int> failures{0};
  concurrently([&](int t, Database& db) {
    for (int i = 0; i < kEach; ++i) {
      auto r = db.write([&](Connection& c) {
        auto s =
            source("src_" + std::to_string(t) + "_" + std::to_string(i), agent_, account_, now_);
        return SourceRepo::insert(c, s);
      });
      if (!r.ok()) ++failures;
    }
  });
  EXPECT_EQ(failures.load(), 0);
  std::set<int64_t> seqs;
  auto listed = SourceRepo::list(reader(), agent_);  // kept: a range-for over *temporary dangles
  ASSERT_TRUE(listed.ok());
  for (const auto& s : *listed) seqs.insert(s.seq);
  ASSERT_EQ(seqs.size(), size_t{kThreads * kEach});
  EXPECT_EQ(*seqs.begin(), 1);
  EXPECT_EQ(*seqs.rbegin(), kThreads * kEach);
}

TEST_P(StoreContract, ConcurrentKnowledgeVersionBumpsAreEachCounted) {
  constexpr int kEach = 20;
  std::atomic<int> failures{0};
  concurrently([&](int, Database& db) {
    for (int i = 0; i < kEach; ++i) {
      auto r = db.write([&](Connection& c) -> Result<void> {
        PARLEY_TRY(SourceRepo::bump_version(c, agent_));
        return {};
      });
      if (!r.ok()) ++failures;
    }
  });
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(*SourceRepo::version(reader(), agent_), kThreads * kEach);
}

// A unit of work that changes megabytes (an agent's knowledge form rewritten, a long source
// removed) commits like any other: on SQLite its savepoint's journal outgrows memory and goes to
// a temporary file.
TEST_P(StoreContract, MegabytesRewrittenAndRemovedInOneUnitOfWork) {
  std::string form(3 << 20, 'f');
  std::string content(3 << 20, 'c');
  for (int64_t version = 1; version <= 3; ++version) {
    form[0] = static_cast<char>('0' + version);
    write([&](Connection& c) -> Result<void> {
      return KnowledgeFormRepo::save(c, agent_, version, 1, form, now_ + version);
    });
  }
  auto stored = *KnowledgeFormRepo::find(reader(), agent_, 3);
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->form.size(), form.size());
  EXPECT_EQ(stored->form[0], '3');

  auto s = source("src_long", agent_, account_, now_);
  s.content = content;
  s.characters = static_cast<int64_t>(content.size());
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(SourceRepo::insert(c, s));
    return {};
  });
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(SourceRepo::remove(c, "src_long"));
    return {};
  });
  EXPECT_FALSE(SourceRepo::find(reader(), agent_, "src_long")->has_value());
}

}  // namespace
}  // namespace parley
