// What a crawl records per page: a page read becomes a pending website source counted in the
// job's progress; read again unchanged it is left alone; changed, its text is replaced and it
// trains again; a 404 twice in a row deletes it; a page that would pass the plan's characters
// records nothing; the same text under two addresses is kept once; template blocks kept by one
// page are left out of the others; and nothing is recorded once the crawl is cancelled.
#include "domain/crawl_pages.h"

#include "crawl_test_db.h"
#include "store/source_repo.h"
#include "store/website_page_repo.h"

namespace parley {
namespace {

// A trainer stand-in that counts what it hears.
struct Heard final : SourceListener {
  void sources_queued() override { ++queued; }
  void source_removed(std::string_view, std::string_view id, int64_t) override {
    removed.emplace_back(id);
  }
  int queued = 0;
  std::vector<std::string> removed;
};

class CrawlPages : public CrawlDb {
 protected:
  void SetUp() override {
    CrawlDb::SetUp();
    settings_.allow_private_targets = true;
    Services s = services();
    NewCrawl n;
    n.url = "https://example.com/";
    auto x = start_crawl(s, settings_, resolver_, kAccount, kAgent, n);
    ASSERT_TRUE(x.ok()) << x.error().message;
    auto claimed = claim_next_crawl(s, 60'000);
    ASSERT_TRUE(claimed.ok() && claimed->has_value());
    claim_ = **claimed;
  }
  // Adds the address to the frontier and returns its row.
  FrontierPage queued(const std::string& url) {
    Services s = services();
    EXPECT_EQ(*add_addresses(s, claim_, {FoundAddress{url, 0, false}}, false, std::nullopt),
              Settled::kDone);
    return **CrawlRepo::find_page(reader(), claim_.crawl.id, url);
  }
  // A page read with these paragraphs (each a block).
  PageResult read(const std::string& url, std::vector<std::string> paragraphs) {
    PageResult r;
    r.page = queued(url);
    r.kind = PageResult::Kind::kRead;
    r.site = "https://example.com";
    r.title = "Page " + url;
    std::string whole;
    for (const auto& p : paragraphs) whole += p + "\n\n";
    r.content_hash = "hash of " + whole;
    for (size_t i = 0; i < paragraphs.size(); ++i)
      r.blocks.push_back(std::hash<std::string>{}(paragraphs[i]));
    r.render = [paragraphs](const std::unordered_set<uint64_t>& skip) {
      std::string out;
      for (const auto& p : paragraphs)
        if (!skip.count(std::hash<std::string>{}(p))) out += (out.empty() ? "" : "\n\n") + p;
      return out;
    };
    return r;
  }
  Settled settle(const PageResult& r) {
    Services s = services();
    auto settled = settle_page(s, claim_, r, &heard_);
    EXPECT_TRUE(settled.ok()) << settled.error().message;
    return settled.ok() ? *settled : Settled::kStopped;
  }
  std::optional<SourceRecord> source_at(const std::string& url) {
    auto page = *WebsitePageRepo::find_by_url(reader(), kAgent, url);
    if (!page) return std::nullopt;
    return *SourceRepo::find(reader(), kAgent, page->source_id);
  }
  CrawlProgress progress() { return (**CrawlRepo::find(reader(), claim_.crawl.id)).progress; }
  // What the trainer would do: the source trained, its characters the agent's.
  void mark_trained(const std::string& id) {
    ASSERT_TRUE(db_->write([&](Connection& c) -> Result<void> {
                     auto src = **SourceRepo::find(c, kAgent, id);
                     src.status = "trained";
                     src.trained_at = kNow;
                     PARLEY_TRY(SourceRepo::update(c, src));
                     auto agent = **AgentRepo::find_any(c, kAgent);
                     agent.characters += src.characters;
                     return AgentRepo::update(c, agent);
                   })
                    .ok());
  }

  CrawlSettings settings_;
  CrawlClaim claim_;
  Heard heard_;
};

TEST_F(CrawlPages, APageReadBecomesAPendingWebsiteSource) {
  PageResult r = read("https://example.com/a", {"Opening hours are nine to five."});
  r.etag = "\"v1\"";
  r.links = {{"https://example.com/b", 1, false}, {"https://example.com/a", 1, false}};
  EXPECT_EQ(settle(r), Settled::kDone);
  auto src = source_at("https://example.com/a");
  ASSERT_TRUE(src.has_value());
  EXPECT_EQ(src->type, "website");
  EXPECT_EQ(src->status, "pending");
  EXPECT_EQ(src->title, "Page https://example.com/a");
  EXPECT_EQ(src->content, "Opening hours are nine to five.");
  EXPECT_EQ(src->characters, 31);
  EXPECT_EQ(heard_.queued, 1);
  auto p = progress();
  EXPECT_EQ(p.fetched, 1);
  EXPECT_EQ(p.characters, 31);
  EXPECT_EQ(p.found, 2) << "a, and its new link b";
  auto row = **CrawlRepo::find_page(reader(), claim_.crawl.id, "https://example.com/a");
  EXPECT_EQ(row.state, "fetched");
  EXPECT_EQ(row.source_id, src->id);
  EXPECT_EQ((**WebsitePageRepo::find_by_url(reader(), kAgent, "https://example.com/a")).etag,
            "\"v1\"");
  EXPECT_EQ((**AgentRepo::find_any(reader(), kAgent)).status, "training");
}

TEST_F(CrawlPages, ReadAgainUnchangedItIsLeftAloneAndChangedItTrainsAgain) {
  ASSERT_EQ(settle(read("https://example.com/a", {"Opening hours are nine to five."})),
            Settled::kDone);
  auto first = *source_at("https://example.com/a");
  mark_trained(first.id);
  clock_.advance_ms(1000);
  // A second job reads the page again.
  Services s = services();
  ASSERT_TRUE(*finish_crawl(s, claim_, "done"));
  NewCrawl n;
  n.url = "https://example.com/";
  ASSERT_TRUE(start_crawl(s, settings_, resolver_, kAccount, kAgent, n).ok());
  claim_ = **claim_next_crawl(s, 60'000);
  EXPECT_EQ(settle(read("https://example.com/a", {"Opening hours are nine to five."})),
            Settled::kDone);
  auto same = *source_at("https://example.com/a");
  EXPECT_EQ(same.status, "trained");
  EXPECT_EQ(same.updated_at, first.updated_at);
  EXPECT_EQ(progress().unchanged, 1);
  PageResult changed = read("https://example.com/a", {"Opening hours are ten to six."});
  changed.page = **CrawlRepo::find_page(reader(), claim_.crawl.id, "https://example.com/a");
  EXPECT_EQ(settle(changed), Settled::kDone);
  auto replaced = *source_at("https://example.com/a");
  EXPECT_EQ(replaced.id, first.id);
  EXPECT_EQ(replaced.status, "pending");
  EXPECT_EQ(replaced.content, "Opening hours are ten to six.");
  EXPECT_GT(replaced.updated_at, first.updated_at);
  EXPECT_EQ(heard_.removed, std::vector<std::string>{first.id}) << "it left the index";
}

TEST_F(CrawlPages, APageGoneTwiceInARowIsDeleted) {
  ASSERT_EQ(settle(read("https://example.com/a", {"Opening hours are nine to five."})),
            Settled::kDone);
  auto src = *source_at("https://example.com/a");
  mark_trained(src.id);
  PageResult gone;
  gone.page = **CrawlRepo::find_page(reader(), claim_.crawl.id, "https://example.com/a");
  gone.kind = PageResult::Kind::kGone;
  gone.reason = "The server answered 404.";
  EXPECT_EQ(settle(gone), Settled::kDone);
  EXPECT_EQ(source_at("https://example.com/a")->status, "trained") << "once may be a slip";
  EXPECT_EQ(progress().failed, 1);
  EXPECT_EQ(settle(gone), Settled::kDone);
  EXPECT_FALSE(source_at("https://example.com/a").has_value());
  EXPECT_FALSE(SourceRepo::find(reader(), kAgent, src.id)->has_value());
  EXPECT_EQ(progress().removed, 1);
  EXPECT_EQ((**AgentRepo::find_any(reader(), kAgent)).characters, 0)
      << "what it taught the agent is taken away";
  EXPECT_EQ(heard_.removed, std::vector<std::string>{src.id});
}

TEST_F(CrawlPages, ANewPageThatFailsIsAFailedSourceWithTheReason) {
  PageResult r;
  r.page = queued("https://example.com/missing");
  r.kind = PageResult::Kind::kGone;
  r.reason = "The server answered 404.";
  EXPECT_EQ(settle(r), Settled::kDone);
  auto src = source_at("https://example.com/missing");
  ASSERT_TRUE(src.has_value());
  EXPECT_EQ(src->status, "failed");
  EXPECT_EQ(src->error, "The server answered 404.");
  EXPECT_EQ(src->characters, 0);
  EXPECT_EQ((**AgentRepo::find_any(reader(), kAgent)).status, "untrained")
      << "a page that could not be fetched is no training outcome";
}

TEST_F(CrawlPages, APageThatWouldPassThePlansCharactersRecordsNothing) {
  ASSERT_TRUE(db_->write([&](Connection& c) -> Result<void> {
                   PARLEY_TRY(
                       AccountRepo::set_limits(c, kAccount, R"({"trainingCharacters": 40})", kNow));
                   return {};
                 })
                  .ok());
  EXPECT_EQ(settle(read("https://example.com/a", {"Opening hours are nine to five."})),
            Settled::kDone);
  PageResult big = read("https://example.com/b", {"Opening hours on Sundays are ten to four."});
  big.links = {{"https://example.com/c", 1, false}};
  EXPECT_EQ(settle(big), Settled::kLimitReached);
  EXPECT_FALSE(source_at("https://example.com/b").has_value());
  EXPECT_EQ((**CrawlRepo::find_page(reader(), claim_.crawl.id, "https://example.com/b")).state,
            "queued");
  EXPECT_FALSE(
      CrawlRepo::find_page(reader(), claim_.crawl.id, "https://example.com/c")->has_value())
      << "nothing half-added";
  EXPECT_EQ(progress().fetched, 1);
}

TEST_F(CrawlPages, TheSameTextUnderTwoAddressesIsKeptOnce) {
  EXPECT_EQ(settle(read("https://example.com/", {"Welcome aboard."})), Settled::kDone);
  EXPECT_EQ(settle(read("https://example.com/index.html", {"Welcome aboard."})), Settled::kDone);
  EXPECT_FALSE(source_at("https://example.com/index.html").has_value());
  auto row = **CrawlRepo::find_page(reader(), claim_.crawl.id, "https://example.com/index.html");
  EXPECT_EQ(row.state, "skipped");
  EXPECT_EQ(row.reason, "Same text as https://example.com/.");
  EXPECT_EQ(progress().skipped, 1);
}

TEST_F(CrawlPages, ABlockAnotherPageKeepsIsLeftOut) {
  const std::string banner = "We use cookies to remember your basket.";
  EXPECT_EQ(settle(read("https://example.com/a", {banner, "Ferries leave hourly."})),
            Settled::kDone);
  EXPECT_EQ(settle(read("https://example.com/b", {banner, "Tickets cost 45 EUR."})),
            Settled::kDone);
  EXPECT_EQ(source_at("https://example.com/a")->content, banner + "\n\nFerries leave hourly.");
  EXPECT_EQ(source_at("https://example.com/b")->content, "Tickets cost 45 EUR.");
  EXPECT_EQ(settle(read("https://example.com/c", {banner})), Settled::kDone);
  EXPECT_FALSE(source_at("https://example.com/c").has_value()) << "only text others keep";
}

TEST_F(CrawlPages, NothingIsRecordedOnceTheCrawlIsCancelled) {
  PageResult r = read("https://example.com/a", {"Opening hours are nine to five."});
  Services s = services();
  ASSERT_TRUE(cancel_crawl(s, kAccount, claim_.crawl.id).ok());
  EXPECT_EQ(settle(r), Settled::kStopped);
  EXPECT_FALSE(source_at("https://example.com/a").has_value());
  EXPECT_EQ(heard_.queued, 0);
}

}  // namespace
}  // namespace parley
