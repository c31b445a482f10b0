// Crawl jobs: starting one (the page cap from the plan under the operator's ceiling, the URL
// guard's refusals naming 'url', the agent's jobs under way capped), cancelling, and a worker's
// claim, renewal and end.
#include "domain/crawls.h"

#include "crawl_test_db.h"

namespace parley {
namespace {

class Crawls : public CrawlDb {
 protected:
  Result<CrawlRecord> start(const NewCrawl& n) {
    Services s = services();
    return start_crawl(s, settings_, resolver_, kAccount, kAgent, n);
  }
  static NewCrawl at(std::string url) {
    NewCrawl n;
    n.url = std::move(url);
    return n;
  }
  static void expect_invalid(const Result<CrawlRecord>& r, const std::string& field) {
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidRequest);
    EXPECT_NE(r.error().message.find("'" + field + "'"), std::string::npos) << r.error().message;
  }
  CrawlSettings settings_;
};

TEST_F(Crawls, ACrawlTakesThePlansPageCapAndTheDepthCapByDefault) {
  auto x = start(at("https://EXAMPLE.com:443/docs/./guide#top"));
  ASSERT_TRUE(x.ok()) << x.error().message;
  EXPECT_EQ(x->kind, "crawl");
  EXPECT_EQ(x->status, "queued");
  EXPECT_EQ(x->url, "https://example.com/docs/guide");
  EXPECT_EQ(x->max_pages, 500) << "the starter plan's crawlPages";
  EXPECT_EQ(x->max_depth, 10);
  EXPECT_EQ(x->id.rfind("crl_", 0), 0u);
  auto stored = **CrawlRepo::find(reader(), x->id);
  EXPECT_EQ(stored.url, x->url);
}

TEST_F(Crawls, ThePageCapIsThePlansUnderTheOperatorsCeiling) {
  auto over = start([] {
    NewCrawl n = at("https://example.com/");
    n.max_pages = 501;
    return n;
  }());
  expect_invalid(over, "maxPages");
  EXPECT_NE(over.error().message.find("1 to 500"), std::string::npos) << over.error().message;
  ASSERT_TRUE(db_->write([&](Connection& c) -> Result<void> {
                   PARLEY_TRY(
                       AccountRepo::set_limits(c, kAccount, R"({"crawlPages": 2000})", kNow));
                   return {};
                 })
                  .ok());
  settings_.max_pages = 1500;
  NewCrawl n = at("https://example.com/");
  n.max_pages = 1500;
  EXPECT_TRUE(start(n).ok());
  n.max_pages = 1501;
  expect_invalid(start(n), "maxPages");
  EXPECT_EQ(start(at("https://example.com/")).value().max_pages, 1500);
}

TEST_F(Crawls, AddressesTheGuardRefusesAreRefusedNamingUrl) {
  expect_invalid(start(at("ftp://example.com/")), "url");
  expect_invalid(start(at("example.com")), "url");
  expect_invalid(start(at("https://user:secret@example.com/")), "url");
  expect_invalid(start(at("https://intranet.example.com/")), "url");
  expect_invalid(start(at("http://127.0.0.1:8080/")), "url");
  expect_invalid(start(at("https://localhost/")), "url");
  expect_invalid(start(at("https://nowhere.example.com/")), "url");
  settings_.allow_private_targets = true;
  EXPECT_TRUE(start(at("https://intranet.example.com/")).ok());
  EXPECT_TRUE(start(at("http://127.0.0.1:8080/")).ok());
}

TEST_F(Crawls, PatternsAndDepthAreChecked) {
  NewCrawl n = at("https://example.com/");
  n.max_depth = 11;
  expect_invalid(start(n), "maxDepth");
  n = at("https://example.com/");
  n.include = {"/docs/", "docs"};
  expect_invalid(start(n), "include[1]");
  n = at("https://example.com/");
  n.exclude = {"/a b"};
  expect_invalid(start(n), "exclude[0]");
}

TEST_F(Crawls, AnAgentHasAtMostThreeJobsUnderWay) {
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(start(at("https://example.com/")).ok());
  auto fourth = start(at("https://example.com/"));
  ASSERT_FALSE(fourth.ok());
  EXPECT_EQ(fourth.error().code, ErrorCode::kConflict);
}

TEST_F(Crawls, AnotherAccountsAgentOrCrawlIsNotFound) {
  Services s = services();
  auto r = start_crawl(s, settings_, resolver_, "acc_other", kAgent, at("https://example.com/"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kNotFound);
  auto x = start(at("https://example.com/"));
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(get_crawl(reader(), "acc_other", x->id).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(cancel_crawl(s, "acc_other", x->id).error().code, ErrorCode::kNotFound);
}

TEST_F(Crawls, AWorkerClaimsRenewsAndEndsACrawlButNotACancelledOne) {
  Services s = services();
  auto x = start(at("https://example.com/"));
  ASSERT_TRUE(x.ok());
  auto claim = claim_next_crawl(s, 30'000);
  ASSERT_TRUE(claim.ok() && claim->has_value());
  EXPECT_EQ((*claim)->crawl.status, "running");
  EXPECT_FALSE(claim_next_crawl(s, 30'000)->has_value()) << "claimed once";
  EXPECT_TRUE(*renew_crawl(s, **claim, 30'000));
  clock_.advance_ms(31'000);
  EXPECT_TRUE(*renew_crawl(s, **claim, 30'000)) << "nobody took it over";
  auto cancelled = cancel_crawl(s, kAccount, x->id);
  ASSERT_TRUE(cancelled.ok());
  EXPECT_EQ(cancelled->status, "cancelled");
  EXPECT_FALSE(*renew_crawl(s, **claim, 30'000)) << "the worker stops";
  EXPECT_FALSE(*finish_crawl(s, **claim, "done"));
  auto again = cancel_crawl(s, kAccount, x->id);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().code, ErrorCode::kConflict);
}

TEST_F(Crawls, ACrawlWhoseWorkerStoppedIsTakenOverAfterItsLease) {
  Services s = services();
  ASSERT_TRUE(start(at("https://example.com/")).ok());
  auto first = *claim_next_crawl(s, 30'000);
  ASSERT_TRUE(first.has_value());
  clock_.advance_ms(29'000);
  EXPECT_FALSE(claim_next_crawl(s, 30'000)->has_value());
  clock_.advance_ms(2'000);
  auto second = *claim_next_crawl(s, 30'000);
  ASSERT_TRUE(second.has_value());
  EXPECT_NE(second->owner, first->owner);
  EXPECT_FALSE(*renew_crawl(s, *first, 30'000));
  EXPECT_TRUE(*finish_crawl(s, *second, "failed",
                            ApiError{ErrorCode::kCharacterLimitExceeded, "Too much text."}));
  auto ended = **CrawlRepo::find(reader(), second->crawl.id);
  EXPECT_EQ(ended.status, "failed");
  EXPECT_EQ(ended.error_code, "character_limit_exceeded");
  EXPECT_EQ(ended.error_message, "Too much text.");
  EXPECT_EQ(ended.finished_at, clock_.now_ms());
}

}  // namespace
}  // namespace parley
