// Crawls as jobs: a cancelled crawl stops where it is and keeps the pages it added; a crawl whose
// server was killed half way resumes from its frontier after the restart (once its lease ran
// out), fetching no page twice but the one in flight and adding none twice.
#include "crawl_support.h"

namespace parley::e2e {
namespace {

struct Member {
  std::string account, agent, editor;
};

Member member_of(const Server& s) {
  Member m;
  m.account = s.create_account();
  m.agent = s.create_agent(m.account);
  m.editor = create_member(s, m.account, "editor")["token"];
  return m;
}

Json start(const Server& s, const Member& m, const std::string& url) {
  auto r = send(s, "POST", "/console/v1/agents/" + m.agent + "/crawls", m.editor,
                Json{{"url", url}}.dump());
  EXPECT_EQ(r.status, 201) << r.body;
  return r.json()["data"];
}

// Polls until the crawl has fetched at least `pages` pages; returns it.
Json wait_fetched(const Server& s, const Member& m, const std::string& id, int pages) {
  Json crawl;
  for (int i = 0; i < 1200; ++i) {
    auto r = send(s, "GET", "/console/v1/crawls/" + id, m.editor, "");
    crawl = r.json()["data"];
    if (crawl["progress"]["fetched"].get<int>() >= pages) return crawl;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  ADD_FAILURE() << "the crawl did not fetch " << pages << " pages: " << crawl.dump();
  return crawl;
}

TEST(CrawlJobs, ACancelledCrawlStopsAndKeepsWhatItAdded) {
  TestSite site;
  build_chain_site(site, 10);
  Server server(unlimited(), {"--webhook-allow-private-targets", "--crawl-page-pause-ms", "300"});
  Member m = member_of(server);
  Json crawl = start(server, m, site.url(chain_page(0)));
  wait_fetched(server, m, crawl["id"], 2);
  auto cancelled =
      send(server, "POST", "/console/v1/crawls/" + crawl["id"].get<std::string>() + "/cancel",
           m.editor, "");
  ASSERT_EQ(cancelled.status, 200) << cancelled.body;
  Json at_cancel = cancelled.json()["data"];
  EXPECT_EQ(at_cancel["status"], "cancelled");
  EXPECT_NE(at_cancel["finishedAt"], nullptr);
  // The worker notices at its next page; what it was reading then is not recorded.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  const size_t requests = site.request_count();
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  EXPECT_EQ(site.request_count(), requests) << "no request after the worker stopped";
  Json later = wait_crawl(server, m.editor, crawl["id"]);
  EXPECT_EQ(later["status"], "cancelled");
  EXPECT_EQ(later["progress"], at_cancel["progress"]) << "nothing counted after the cancel";
  Json listing = wait_trained(server, m.editor, m.agent);
  EXPECT_EQ(static_cast<int>(listing["data"].size()), at_cancel["progress"]["fetched"].get<int>());
  EXPECT_LT(listing["data"].size(), 10u);
}

TEST(CrawlJobs, ACrawlResumesAfterItsServerIsKilled) {
  TestSite site;
  build_chain_site(site, 10);  // depth 0 to 9: within the depth cap
  Server server(unlimited(), {"--webhook-allow-private-targets", "--crawl-page-pause-ms", "200",
                              "--crawl-lease-ms", "1500"});
  Member m = member_of(server);
  Json crawl = start(server, m, site.url(chain_page(0)));
  wait_fetched(server, m, crawl["id"], 3);
  server.kill_hard();
  server.restart();
  Json ended = wait_crawl(server, m.editor, crawl["id"]);
  EXPECT_EQ(ended["status"], "done") << ended.dump();
  EXPECT_EQ(ended["progress"]["fetched"], 10) << ended.dump();
  EXPECT_EQ(ended["progress"]["found"], 10) << ended.dump();
  int refetched = 0;
  for (int i = 0; i < 10; ++i) {
    size_t hits = site.hits(chain_page(i));
    EXPECT_GE(hits, 1u) << i;
    EXPECT_LE(hits, 2u) << i;
    refetched += hits == 2 ? 1 : 0;
  }
  EXPECT_LE(refetched, 1) << "only the page in flight when the server died is fetched again";
  Json listing = wait_trained(server, m.editor, m.agent);
  EXPECT_EQ(listing["data"].size(), 10u) << "no page added twice";
  for (const auto& s : listing["data"]) EXPECT_EQ(s["status"], "trained") << s.dump();
}

}  // namespace
}  // namespace parley::e2e
