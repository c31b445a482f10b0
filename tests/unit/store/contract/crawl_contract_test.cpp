// Website crawls (migration 0038): jobs claimed once and taken over only after their lease,
// writes of a claim that lost its job refused, cancelling, the frontier's order and dedupe, and
// the per-page records a refresh reads (prefix listing, 404s in a row, template blocks).
#include <atomic>

#include "store/crawl_repo.h"
#include "store/source_repo.h"
#include "store/website_page_repo.h"
#include "store_contract.h"

namespace parley {
namespace {

CrawlRecord job(std::string id, std::string agent, std::string account, int64_t at) {
  CrawlRecord x;
  x.id = std::move(id);
  x.agent_id = std::move(agent);
  x.account_id = std::move(account);
  x.url = "https://example.com/docs/";
  x.max_pages = 50;
  x.max_depth = 3;
  x.include = {"/docs/", "*.html$"};
  x.created_at = x.updated_at = at;
  return x;
}

FrontierPage address(const std::string& crawl, const std::string& url, int64_t seq, int64_t depth) {
  FrontierPage p;
  p.crawl_id = crawl;
  p.url = url;
  p.seq = seq;
  p.depth = depth;
  return p;
}

TEST_P(StoreContract, CrawlsAreListedNewestFirstWithTheirPatterns) {
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(CrawlRepo::insert(c, job("crl_a", agent_, account_, now_)));
    return CrawlRepo::insert(c, job("crl_b", agent_, account_, now_ + 1));
  });
  auto listed = *CrawlRepo::list_for_agent(reader(), agent_, 10);
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].id, "crl_b");
  EXPECT_EQ(listed[1].include, (std::vector<std::string>{"/docs/", "*.html$"}));
  EXPECT_TRUE(listed[1].exclude.empty());
  EXPECT_EQ(*CrawlRepo::count_active(reader(), agent_), 2);
  EXPECT_EQ(*CrawlRepo::last_created(reader(), agent_, "crawl"), now_ + 1);
  EXPECT_FALSE(CrawlRepo::last_created(reader(), agent_, "refresh")->has_value());
}

TEST_P(StoreContract, ACrawlIsClaimedOnceAndTakenOverOnlyAfterItsLease) {
  write([&](Connection& c) { return CrawlRepo::insert(c, job("crl_a", agent_, account_, now_)); });
  bool first = false, second = true, early = true, late = false, old_renews = true;
  bool old_counts = true, new_counts = false;
  write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(first, CrawlRepo::claim(c, "crl_a", "one", now_, now_ + 1000));
    PARLEY_ASSIGN_OR_RETURN(second, CrawlRepo::claim(c, "crl_a", "two", now_, now_ + 1000));
    PARLEY_ASSIGN_OR_RETURN(early, CrawlRepo::claim(c, "crl_a", "two", now_ + 999, now_ + 2000));
    PARLEY_ASSIGN_OR_RETURN(late, CrawlRepo::claim(c, "crl_a", "two", now_ + 1001, now_ + 3000));
    PARLEY_ASSIGN_OR_RETURN(old_renews, CrawlRepo::renew(c, "crl_a", "one", now_ + 5000));
    CrawlProgress one_page;
    one_page.fetched = 1;
    PARLEY_ASSIGN_OR_RETURN(old_counts, CrawlRepo::add_progress(c, "crl_a", "one", one_page, now_));
    PARLEY_ASSIGN_OR_RETURN(new_counts, CrawlRepo::add_progress(c, "crl_a", "two", one_page, now_));
    return {};
  });
  EXPECT_TRUE(first);
  EXPECT_FALSE(second) << "its lease has not ended";
  EXPECT_FALSE(early);
  EXPECT_TRUE(late) << "a lease that ended is taken over";
  EXPECT_FALSE(old_renews) << "the first claim lost the crawl";
  EXPECT_FALSE(old_counts);
  EXPECT_TRUE(new_counts);
  auto x = **CrawlRepo::find(reader(), "crl_a");
  EXPECT_EQ(x.status, "running");
  EXPECT_EQ(x.lease_owner, "two");
  EXPECT_EQ(x.progress.fetched, 1);
  EXPECT_EQ(x.started_at, now_) << "the first start is kept";
}

TEST_P(StoreContract, ConcurrentClaimsOfOneCrawlHaveOneWinner) {
  write([&](Connection& c) { return CrawlRepo::insert(c, job("crl_a", agent_, account_, now_)); });
  std::atomic<int> winners{0};
  concurrently([&](int t, Database& db) {
    bool won = false;
    auto r = db.write([&](Connection& c) -> Result<void> {
      PARLEY_ASSIGN_OR_RETURN(auto next, CrawlRepo::next_claimable(c, now_));
      won = false;
      if (!next) return {};
      PARLEY_ASSIGN_OR_RETURN(
          won, CrawlRepo::claim(c, next->id, "w" + std::to_string(t), now_, now_ + 60'000));
      return {};
    });
    EXPECT_TRUE(r.ok());
    if (won) ++winners;
  });
  EXPECT_EQ(winners.load(), 1);
}

TEST_P(StoreContract, ACancelledCrawlEndsOnceAndRefusesItsWorkersWrites) {
  write([&](Connection& c) { return CrawlRepo::insert(c, job("crl_a", agent_, account_, now_)); });
  bool cancelled = false, again = true, finished = true;
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(CrawlRepo::claim(c, "crl_a", "one", now_, now_ + 1000));
    PARLEY_ASSIGN_OR_RETURN(cancelled, CrawlRepo::cancel(c, "crl_a", now_ + 5));
    PARLEY_ASSIGN_OR_RETURN(again, CrawlRepo::cancel(c, "crl_a", now_ + 6));
    PARLEY_ASSIGN_OR_RETURN(finished, CrawlRepo::finish(c, "crl_a", "one", "done", std::nullopt,
                                                        std::nullopt, now_ + 7));
    return {};
  });
  EXPECT_TRUE(cancelled);
  EXPECT_FALSE(again);
  EXPECT_FALSE(finished);
  auto x = **CrawlRepo::find(reader(), "crl_a");
  EXPECT_EQ(x.status, "cancelled");
  EXPECT_EQ(x.finished_at, now_ + 5);
  EXPECT_FALSE(x.lease_owner.has_value());
  EXPECT_EQ(*CrawlRepo::count_active(reader(), agent_), 0);
  EXPECT_FALSE(CrawlRepo::next_claimable(reader(), now_ + 10'000)->has_value());
}

TEST_P(StoreContract, TheFrontierHoldsEachAddressOnceBreadthFirst) {
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(CrawlRepo::insert(c, job("crl_a", agent_, account_, now_)));
    bool added = false;
    PARLEY_ASSIGN_OR_RETURN(added,
                            CrawlRepo::add_page(c, address("crl_a", "https://x.com/b", 0, 1)));
    EXPECT_TRUE(added);
    PARLEY_ASSIGN_OR_RETURN(added,
                            CrawlRepo::add_page(c, address("crl_a", "https://x.com/a", 1, 0)));
    EXPECT_TRUE(added);
    PARLEY_ASSIGN_OR_RETURN(added,
                            CrawlRepo::add_page(c, address("crl_a", "https://x.com/c", 2, 1)));
    EXPECT_TRUE(added);
    PARLEY_ASSIGN_OR_RETURN(added,
                            CrawlRepo::add_page(c, address("crl_a", "https://x.com/a", 3, 2)));
    EXPECT_FALSE(added) << "already there";
    return {};
  });
  auto queued = *CrawlRepo::next_queued(reader(), "crl_a", 10);
  ASSERT_EQ(queued.size(), 3u);
  EXPECT_EQ(queued[0].url, "https://x.com/a");
  EXPECT_EQ(queued[1].url, "https://x.com/b");
  EXPECT_EQ(queued[2].url, "https://x.com/c");
  FrontierPage read = queued[0];
  read.state = "fetched";
  read.source_id = "src_a";
  read.content_hash = "h1";
  write([&](Connection& c) { return CrawlRepo::settle_page(c, read); });
  EXPECT_EQ(CrawlRepo::next_queued(reader(), "crl_a", 10)->size(), 2u);
  EXPECT_EQ(*CrawlRepo::url_with_hash(reader(), "crl_a", "h1", "https://x.com/b"),
            "https://x.com/a");
  EXPECT_FALSE(CrawlRepo::url_with_hash(reader(), "crl_a", "h1", "https://x.com/a")->has_value());
  auto found = **CrawlRepo::find_page(reader(), "crl_a", "https://x.com/a");
  EXPECT_EQ(found.state, "fetched");
  EXPECT_EQ(found.source_id, "src_a");
}

TEST_P(StoreContract, WebsitePagesAreListedByPrefixAndGoWithTheirSource) {
  std::vector<std::string> urls = {"https://x.com/", "https://x.com/docs/a", "https://x.com/docs/b",
                                   "https://y.com/docs/a"};
  write([&](Connection& c) -> Result<void> {
    for (size_t i = 0; i < urls.size(); ++i) {
      SourceRecord s;
      s.id = "src_" + std::to_string(i);
      s.agent_id = agent_;
      s.account_id = account_;
      s.type = "website";
      s.url = urls[i];
      s.content = "Text " + std::to_string(i);
      s.characters = 6;
      s.created_at = s.updated_at = now_;
      PARLEY_TRY(SourceRepo::insert(c, s));
      WebsitePage w;
      w.source_id = s.id;
      w.agent_id = agent_;
      w.url = urls[i];
      w.crawl_id = "crl_a";
      w.content_hash = "h" + std::to_string(i);
      w.fetched_at = now_;
      PARLEY_TRY(WebsitePageRepo::upsert(c, w));
    }
    return {};
  });
  auto docs = *WebsitePageRepo::list_after(reader(), agent_, "https://x.com/docs/", "", 10);
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[0].url, "https://x.com/docs/a");
  auto next = *WebsitePageRepo::list_after(reader(), agent_, "https://x.com/", docs[0].url, 1);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].url, "https://x.com/docs/b");
  EXPECT_EQ(WebsitePageRepo::list_after(reader(), agent_, "", "", 10)->size(), 4u);
  EXPECT_EQ(*WebsitePageRepo::url_with_hash(reader(), agent_, "h2", "https://x.com/"),
            "https://x.com/docs/b");
  int64_t misses = 0;
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(WebsitePageRepo::add_miss(c, "src_1"));
    PARLEY_ASSIGN_OR_RETURN(misses, WebsitePageRepo::add_miss(c, "src_1"));
    return {};
  });
  EXPECT_EQ(misses, 2);
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(SourceRepo::remove(c, "src_1"));
    return {};
  });
  EXPECT_FALSE(WebsitePageRepo::find_by_url(reader(), agent_, "https://x.com/docs/a")->has_value())
      << "the page's record goes with its source";
}

TEST_P(StoreContract, ATemplateBlockIsKeptByOnePageOfTheSite) {
  write([&](Connection& c) -> Result<void> {
    for (int i = 0; i < 2; ++i) {
      SourceRecord s;
      s.id = "src_" + std::to_string(i);
      s.agent_id = agent_;
      s.account_id = account_;
      s.type = "website";
      s.content = "x";
      s.characters = 1;
      s.created_at = s.updated_at = now_;
      PARLEY_TRY(SourceRepo::insert(c, s));
    }
    return {};
  });
  const uint64_t high = 0xFEDCBA9876543210ull;  // the sign bit set: stored as a negative integer
  write([&](Connection& c) {
    return WebsitePageRepo::keep_blocks(c, agent_, "https://x.com", "src_0", {high, 7});
  });
  auto other =
      *WebsitePageRepo::kept_elsewhere(reader(), agent_, "https://x.com", "src_1", {high, 7, 8});
  EXPECT_EQ(other, (std::unordered_set<uint64_t>{high, 7}));
  EXPECT_TRUE(
      WebsitePageRepo::kept_elsewhere(reader(), agent_, "https://x.com", "src_0", {high})->empty())
      << "a page's own blocks are not someone else's";
  EXPECT_TRUE(
      WebsitePageRepo::kept_elsewhere(reader(), agent_, "https://y.com", "src_1", {high})->empty())
      << "another site's pages keep their own";
  write([&](Connection& c) {
    return WebsitePageRepo::keep_blocks(c, agent_, "https://x.com", "src_1", {high, 8});
  });
  EXPECT_EQ(*WebsitePageRepo::kept_elsewhere(reader(), agent_, "https://x.com", "src_0", {high, 8}),
            (std::unordered_set<uint64_t>{8}))
      << "the first keeper keeps it";
  write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(SourceRepo::remove(c, "src_0"));
    return {};
  });
  EXPECT_TRUE(
      WebsitePageRepo::kept_elsewhere(reader(), agent_, "https://x.com", "src_1", {high})->empty())
      << "a deleted page's blocks are free again";
}

}  // namespace
}  // namespace parley
