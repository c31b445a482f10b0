// Workspace connections and page imports: a connection replaced in place and the key ids of
// stored tokens, the page queue (requeued only when finished, claimed once also by concurrent
// workers, taken over when a lease ends), disconnect failing unfinished pages, and a page's row
// leaving with its source.
#include <atomic>

#include "store/source_repo.h"
#include "store/workspace_repo.h"
#include "store_contract.h"

namespace parley {
namespace {

WorkspaceConnectionRecord connection(const std::string& agent, const std::string& account,
                                     const std::string& key) {
  WorkspaceConnectionRecord r;
  r.agent_id = agent;
  r.account_id = account;
  r.token_sealed = "v1." + key + ".sealed";
  r.key_id = key;
  r.bot_id = "bot_1";
  r.workspace_name = "Acme";
  r.connected_at = 1;
  return r;
}

WorkspacePageRecord page(const std::string& agent, const std::string& account,
                         const std::string& id, int64_t at) {
  WorkspacePageRecord p;
  p.agent_id = agent;
  p.page_id = id;
  p.account_id = account;
  p.requested_at = at;
  return p;
}

TEST_P(StoreContract, AWorkspaceConnectionIsReplacedInPlaceAndItsKeyIdIsListed) {
  write([&](Connection& c) {
    return WorkspaceRepo::save_connection(c, connection(agent_, account_, "key_a"));
  });
  auto replaced = connection(agent_, account_, "key_b");
  replaced.workspace_name.reset();
  write([&](Connection& c) { return WorkspaceRepo::save_connection(c, replaced); });
  auto stored = *WorkspaceRepo::connection(reader(), agent_);
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->key_id, "key_b");
  EXPECT_FALSE(stored->workspace_name.has_value());
  EXPECT_TRUE(WorkspaceRepo::other_key_ids(reader(), "key_b")->empty());
  auto others = *WorkspaceRepo::other_key_ids(reader(), "key_c");
  ASSERT_EQ(others.size(), 1u);
  EXPECT_EQ(others[0], (std::pair<std::string, int64_t>{"key_b", 1}));
  write([&](Connection& c) -> Result<void> {
    EXPECT_TRUE(*WorkspaceRepo::remove_connection(c, agent_));
    EXPECT_FALSE(*WorkspaceRepo::remove_connection(c, agent_));
    return {};
  });
  EXPECT_FALSE(WorkspaceRepo::connection(reader(), agent_)->has_value());
}

TEST_P(StoreContract, WorkspacePagesAreRequeuedOnlyOnceFinishedAndClaimedOnce) {
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(WorkspaceRepo::insert_page(c, page(agent_, account_, "p1", now_)));
    return WorkspaceRepo::insert_page(c, page(agent_, account_, "p2", now_ + 1));
  });
  write([&](Connection& c) -> Result<void> {
    EXPECT_FALSE(*WorkspaceRepo::requeue_page(c, agent_, "p1", now_ + 5));  // still queued
    return {};
  });
  std::atomic<int> claimed{0};
  concurrently([&](int, Database& db) {
    auto r = db.write([&](Connection& c) -> Result<void> {
      PARLEY_ASSIGN_OR_RETURN(bool won,
                              WorkspaceRepo::claim(c, agent_, "p1", now_ + 10, now_ + 1000));
      if (won) ++claimed;
      return {};
    });
    EXPECT_TRUE(r.ok());
  });
  EXPECT_EQ(claimed.load(), 1);
  // The oldest queued page comes next; a running one only once its lease ended.
  auto next = *WorkspaceRepo::next_claimable(reader(), now_ + 20);
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(next->page_id, "p2");
  write([&](Connection& c) -> Result<void> {
    EXPECT_TRUE(*WorkspaceRepo::claim(c, agent_, "p2", now_ + 20, now_ + 1000));
    return {};
  });
  EXPECT_FALSE(WorkspaceRepo::next_claimable(reader(), now_ + 999)->has_value());
  next = *WorkspaceRepo::next_claimable(reader(), now_ + 1001);
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(next->page_id, "p1");
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(WorkspaceRepo::renew_lease(c, agent_, "p1", now_ + 5000));
    EXPECT_FALSE(*WorkspaceRepo::claim(c, agent_, "p1", now_ + 1001, now_ + 2000));
    // Finished pages are queued again; a disconnect fails what is still unfinished.
    auto done = *WorkspaceRepo::page(c, agent_, "p1");
    done->state = "done";
    done->outcome = "created";
    done->lease_until.reset();
    done->last_edited_time = "2024-03-01T10:00:00.000Z";
    done->content_read_at = now_ + 30;
    PARLEY_TRY(WorkspaceRepo::update_page(c, *done));
    EXPECT_TRUE(*WorkspaceRepo::requeue_page(c, agent_, "p1", now_ + 40));
    EXPECT_EQ(
        *WorkspaceRepo::fail_unfinished(c, agent_, "workspace_disconnected", "Gone.", now_ + 50),
        2);
    return {};
  });
  auto rows = *WorkspaceRepo::pages(reader(), agent_);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].page_id, "p1");  // requeued last, so listed first
  EXPECT_EQ(rows[0].state, "failed");
  EXPECT_EQ(rows[0].error_code, "workspace_disconnected");
  EXPECT_EQ(rows[0].last_edited_time, "2024-03-01T10:00:00.000Z");
  EXPECT_EQ(rows[0].content_read_at, now_ + 30);
  EXPECT_EQ(rows[1].state, "failed");
}

TEST_P(StoreContract, AWorkspacePageLeavesWithItsSource) {
  write([&](Connection& c) -> Result<void> {
    SourceRecord s;
    s.id = "src_ws";
    s.agent_id = agent_;
    s.account_id = account_;
    s.type = "workspace";
    s.title = "Old title";
    s.content = "Text";
    s.characters = 4;
    s.created_at = s.updated_at = now_;
    PARLEY_TRY(SourceRepo::insert(c, s));
    PARLEY_TRY(SourceRepo::set_title(c, s.id, std::string("New title")));
    PARLEY_TRY(SourceRepo::set_url(c, s.id, std::string("https://www.notion.so/x")));
    auto p = page(agent_, account_, "p1", now_);
    p.source_id = "src_ws";
    return WorkspaceRepo::insert_page(c, p);
  });
  auto src = *SourceRepo::find(reader(), agent_, "src_ws");
  EXPECT_EQ(src->title, "New title");
  EXPECT_EQ(src->url, "https://www.notion.so/x");
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(SourceRepo::remove(c, "src_ws"));
    return {};
  });
  EXPECT_TRUE(WorkspaceRepo::pages(reader(), agent_)->empty());
}

}  // namespace
}  // namespace parley
