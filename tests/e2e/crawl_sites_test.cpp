// Crawls of other kinds of sites and from other places: a start that is a sitemap index with a
// gzipped sitemap, a site whose robots.txt answers 503 (nothing fetched, each page skipped with
// the reason), automatic refresh (`knowledgeRefresh`) queued once a day has passed, the crawler's
// metric, and on PostgreSQL a crawl shared by three nodes fetching each page once.
#include "crawl_support.h"

namespace parley::e2e {
namespace {

struct Team {
  std::string account, agent, editor;
};

Team team_of(const Server& s, const std::string& settings = "") {
  Team t;
  t.account = s.create_account();
  t.agent = s.create_agent(t.account, settings);
  t.editor = create_member(s, t.account, "editor")["token"];
  return t;
}

Json start(const Server& s, const Team& t, const std::string& url) {
  auto r = send(s, "POST", "/console/v1/agents/" + t.agent + "/crawls", t.editor,
                Json{{"url", url}}.dump());
  EXPECT_EQ(r.status, 201) << r.body;
  return r.json()["data"];
}

std::string urlset(const TestSite& site, const std::vector<std::string>& paths) {
  std::string out =
      "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">";
  for (const auto& p : paths) out += "<url><loc>" + site.url(p) + "</loc></url>";
  return out + "</urlset>";
}

TEST(CrawlSites, ACrawlStartsFromASitemapIndexAndItsGzippedSitemap) {
  TestSite site;
  build_chain_site(site, 6);
  site.set("/sitemap_index.xml",
           SitePage{200, "application/xml",
                    "<?xml version=\"1.0\"?><sitemapindex xmlns=\"http://www.sitemaps.org/schemas/"
                    "sitemap/0.9\"><sitemap><loc>" +
                        site.url("/pages.xml.gz") + "</loc></sitemap></sitemapindex>"});
  site.set(
      "/pages.xml.gz",
      SitePage{200, "application/gzip",
               gzip_stored(urlset(site, {chain_page(2), chain_page(4), "/elsewhere/x.html"}))});
  Server server(unlimited(), {"--webhook-allow-private-targets", "--crawl-max-depth", "0"});
  Team t = team_of(server);
  Json crawl = wait_crawl(server, t.editor, start(server, t, site.url("/sitemap_index.xml"))["id"]);
  EXPECT_EQ(crawl["status"], "done") << crawl.dump();
  EXPECT_EQ(crawl["progress"]["fetched"], 2) << "the two pages of the three the sitemap lists";
  EXPECT_EQ(crawl["progress"]["failed"], 1) << "/elsewhere/x.html answers 404";
  EXPECT_EQ(site.hits(chain_page(3)), 0u) << "depth 0: the listed pages' links are not followed";
  Json listing = wait_trained(server, t.editor, t.agent);
  EXPECT_FALSE(source_at(listing, site.url(chain_page(4))).is_null());
  EXPECT_TRUE(source_at(listing, site.url("/sitemap_index.xml")).is_null());

  auto metrics = server.request({"GET", "/metrics", "", {}});
  EXPECT_NE(metrics.body.find("parley_crawl_pages_fetched_total 3"), std::string::npos)
      << "the two pages and the 404 (robots.txt and sitemaps are not pages)";
}

TEST(CrawlSites, ASiteWhoseRobotsTxtFailsIsNotFetched) {
  TestSite site;
  build_chain_site(site, 3);
  site.set("/robots.txt", SitePage{503, "text/plain", "down"});
  Server server(unlimited(), {"--webhook-allow-private-targets"});
  Team t = team_of(server);
  Json crawl = wait_crawl(server, t.editor, start(server, t, site.url(chain_page(0)))["id"]);
  EXPECT_EQ(crawl["status"], "done");
  EXPECT_EQ(crawl["progress"]["skipped"], 1) << crawl.dump();
  EXPECT_EQ(crawl["progress"]["fetched"], 0);
  EXPECT_EQ(site.hits(chain_page(0)), 0u) << "RFC 9309: an unreachable robots.txt disallows all";
  auto rows = server.sql("SELECT reason FROM crawl_pages WHERE crawl_id = '" +
                         crawl["id"].get<std::string>() + "'");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][0],
            "The site's robots.txt answered 503, so nothing is fetched from the site for now.");
}

TEST(CrawlSites, AnAgentWithDailyRefreshIsRefreshedOnceADayHasPassed) {
  TestSite site;
  build_chain_site(site, 3);
  TestClock clock;
  std::vector<std::string> args = clock.args();
  for (std::string a : {"--webhook-allow-private-targets", "--knowledge-refresh-check-ms", "100"})
    args.push_back(a);
  Server server(unlimited(), args);
  Team t = team_of(server);
  auto bad = send(server, "PATCH", "/console/v1/agents/" + t.agent, t.editor,
                  Json{{"settings", {{"knowledgeRefresh", "hourly"}}}}.dump());
  EXPECT_EQ(bad.status, 400) << bad.body;
  EXPECT_NE(bad.error_message().find("'knowledgeRefresh'"), std::string::npos);
  auto set = send(server, "PATCH", "/console/v1/agents/" + t.agent, t.editor,
                  Json{{"settings", {{"knowledgeRefresh", "daily"}}}}.dump());
  ASSERT_EQ(set.status, 200) << set.body;
  EXPECT_EQ(set.json()["data"]["settings"]["knowledgeRefresh"], "daily");
  Json crawl = wait_crawl(server, t.editor, start(server, t, site.url(chain_page(0)))["id"]);
  ASSERT_EQ(crawl["status"], "done");
  auto crawls = [&] {
    return send(server, "GET", "/console/v1/agents/" + t.agent + "/crawls", t.editor, "")
        .json()["data"];
  };
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(crawls().size(), 1u) << "not due yet";
  clock.advance_ms(24LL * 60 * 60 * 1000 + 1000);
  Json list;
  for (int i = 0; i < 400 && (list = crawls()).size() < 2; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  ASSERT_EQ(list.size(), 2u) << list.dump();
  EXPECT_EQ(list[0]["kind"], "refresh");
  EXPECT_EQ(list[0]["url"], nullptr);
  Json refreshed = wait_crawl(server, t.editor, list[0]["id"]);
  EXPECT_EQ(refreshed["status"], "done");
  EXPECT_EQ(refreshed["progress"]["unchanged"], 3) << refreshed.dump();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(crawls().size(), 2u) << "one refresh a day";
}

TEST(CrawlSites, NodesSharingPostgresqlRunACrawlOnOneNodeAtATime) {
  if (!on_postgres()) GTEST_SKIP() << "several nodes share a PostgreSQL database";
  TestSite site;
  build_chain_site(site, 8);
  std::vector<std::string> args = {"--webhook-allow-private-targets", "--crawl-threads", "2"};
  Server first(unlimited(), args);
  auto second = Server::node_of(first, unlimited(), args);
  auto third = Server::node_of(first, unlimited(), args);
  Team t = team_of(first);
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) ids.push_back(start(*second, t, site.url(chain_page(i)))["id"]);
  for (const auto& id : ids) {
    Json ended = wait_crawl(*third, t.editor, id);
    EXPECT_EQ(ended["status"], "done") << ended.dump();
  }
  // Three crawls of one site (the second and third start deeper): every page of each was
  // fetched by one node only, so no page is fetched more often than the crawls that reach it.
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(site.hits(chain_page(i)), static_cast<size_t>(std::min(i + 1, 3))) << i;
  Json listing = wait_trained(first, t.editor, t.agent);
  EXPECT_EQ(listing["data"].size(), 8u) << "one source per page";
}

}  // namespace
}  // namespace parley::e2e
