// Website crawls end to end: the harbour site (tests/e2e/crawl_support.h) crawled through the
// console API into website sources — robots.txt obeyed and its skips counted, the sitemap read,
// the off-site link left, the redirect chain followed to one source, the 404, the slow page and
// the image failed with their reasons, the Latin-1 page and the PDF read, the gzip page inflated,
// the duplicate page and the cookie banner kept once — then a chat answers a fact only the deep
// page states, with that page in its sources; Refresh now after the page changes answers the new
// fact; the page removed (404 twice) is refreshed away. Also validation and roles, the URL
// guard without the private-targets switch, and the admin command.
#include "crawl_support.h"

namespace parley::e2e {
namespace {

class Crawl : public ::testing::Test {
 protected:
  static std::vector<std::string> args() {
    return {"--webhook-allow-private-targets", "--crawl-timeout-ms", "1000"};
  }
  void SetUp() override {
    server_ = std::make_unique<Server>(unlimited(), args());
    account_ = server_->create_account();
    agent_ = server_->create_agent(account_, R"({"showSources": true})");
    key_ = server_->create_key(account_);
    editor_ = create_member(*server_, account_, "editor")["token"];
    viewer_ = create_member(*server_, account_, "viewer")["token"];
    build_harbour_site(site_);
  }
  HttpResponse start(const Json& body, const std::string& token = "") {
    return send(*server_, "POST", "/console/v1/agents/" + agent_ + "/crawls",
                token.empty() ? editor_ : token, body.dump());
  }
  HttpResponse refresh(const Json& body) {
    return send(*server_, "POST", "/console/v1/agents/" + agent_ + "/refresh", editor_,
                body.dump());
  }
  Json ask(const std::string& question) {
    auto r = server_->post("/api/v1/agents/" + agent_ + "/chat", key_,
                           Json{{"message", question}}.dump());
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json();
  }
  static bool lists_source(const Json& reply, const std::string& url) {
    for (const auto& s : reply["sources"])
      if (s["url"] == url) return true;
    return false;
  }
  static void expect_invalid(const HttpResponse& r, const std::string& field) {
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(r.error_code(), "invalid_request");
    EXPECT_NE(r.error_message().find("'" + field + "'"), std::string::npos) << r.error_message();
  }

  TestSite site_;
  std::unique_ptr<Server> server_;
  std::string account_, agent_, key_, editor_, viewer_;
};

TEST_F(Crawl, ASiteBecomesWebsiteSourcesAndTheChatAnswersFromItsDeepestPage) {
  auto started = start({{"url", site_.url("/")}});
  ASSERT_EQ(started.status, 201) << started.body;
  Json crawl = started.json()["data"];
  EXPECT_EQ(crawl["kind"], "crawl");
  EXPECT_EQ(crawl["url"], site_.url("/"));
  EXPECT_EQ(crawl["maxPages"], 500) << "the starter plan's page cap";
  EXPECT_EQ(crawl["maxDepth"], 10);
  crawl = wait_crawl(*server_, viewer_, crawl["id"]);
  EXPECT_EQ(crawl["status"], "done") << crawl.dump();
  EXPECT_EQ(crawl["error"], nullptr);
  const Json& p = crawl["progress"];
  // Read: /, /about, /tickets, /docs/, /docs/routes, the islands, /new-page, /latin1, the PDF.
  EXPECT_EQ(p["fetched"], 9) << crawl.dump();
  EXPECT_EQ(p["failed"], 3) << "the 404, the slow page and the image";
  // Skipped: robots-blocked /private/staff, /images/map.png, /old-page (a redirect) and
  // /index.html (the same text as /).
  EXPECT_EQ(p["skipped"], 4) << crawl.dump();
  EXPECT_EQ(p["found"], 16) << crawl.dump();
  EXPECT_GT(p["characters"].get<int>(), 300);

  EXPECT_EQ(site_.hits("/private/staff"), 0u) << "robots.txt disallows it";
  EXPECT_EQ(site_.hits("/images/map.png"), 0u);
  EXPECT_EQ(site_.hits("/robots.txt"), 1u);
  EXPECT_EQ(site_.hits("/"), 1u) << "found as the start and in the sitemap: fetched once";
  EXPECT_EQ(site_.hits("/about"), 1u) << "/about#team is /about";
  for (const auto& r : site_.requests())
    EXPECT_EQ(r.headers.at("user-agent").rfind("ParleyBot/", 0), 0u) << r.headers.at("user-agent");

  Json listing = wait_trained(*server_, viewer_, agent_);
  EXPECT_EQ(listing["data"].size(), 12u) << listing.dump();
  Json islands = source_at(listing, site_.url(kIslandsPath));
  ASSERT_FALSE(islands.is_null()) << listing.dump();
  EXPECT_EQ(islands["type"], "website");
  EXPECT_EQ(islands["title"], "Island routes");
  EXPECT_EQ(islands["status"], "trained");
  EXPECT_TRUE(source_at(listing, site_.url("/old-page")).is_null());
  EXPECT_EQ(source_at(listing, site_.url("/new-page"))["status"], "trained");
  EXPECT_EQ(source_at(listing, site_.url("/missing"))["error"], "The server answered 404.");
  EXPECT_EQ(source_at(listing, site_.url("/missing"))["status"], "failed");
  EXPECT_EQ(source_at(listing, site_.url("/slow"))["error"], "The page took longer than 1 s.");
  EXPECT_EQ(source_at(listing, site_.url("/photo"))["error"], "Not text: image/png.");
  EXPECT_EQ(source_at(listing, site_.url("/guide.pdf"))["title"], "Travel guide");
  EXPECT_EQ(source_at(listing, site_.url("/guide.pdf"))["status"], "trained");

  // Whether the stored text of the page at `path` holds `text` (no quote in either).
  auto holds = [&](const std::string& path, const std::string& text) {
    auto rows = server_->sql("SELECT COUNT(*) FROM sources WHERE url = '" + site_.url(path) +
                             "' AND content LIKE '%" + text + "%'");
    return !rows.empty() && rows[0][0] == "1";
  };
  EXPECT_TRUE(holds("/latin1", "Le café à bord sert une crème brûlée"));
  EXPECT_TRUE(holds("/tickets", "Adult ticket: 45 EUR")) << "a gzip body, a table's row";
  EXPECT_TRUE(holds("/guide.pdf", "Bicycles travel free"));
  EXPECT_TRUE(holds("/new-page", "90 days"));
  auto banner = server_->sql("SELECT COUNT(*) FROM sources WHERE content LIKE '%We use cookies%'");
  EXPECT_EQ(banner[0][0], "1") << "the cookie banner is kept once for the site";
  EXPECT_TRUE(holds("/", "We use cookies"));
  EXPECT_FALSE(holds("/about", "Quay Street")) << "the footer is dropped";
  EXPECT_FALSE(holds("/about", "Guides")) << "the menu is dropped";

  Json reply = ask(kIslandsQuestion);
  EXPECT_NE(reply["reply"].get<std::string>().find("09:40"), std::string::npos) << reply.dump();
  EXPECT_TRUE(lists_source(reply, site_.url(kIslandsPath))) << reply.dump();

  auto listed = send(*server_, "GET", "/console/v1/agents/" + agent_ + "/crawls", viewer_, "");
  ASSERT_EQ(listed.status, 200);
  ASSERT_EQ(listed.json()["data"].size(), 1u);
  EXPECT_EQ(listed.json()["data"][0]["id"], crawl["id"]);
}

TEST_F(Crawl, RefreshNowRetrainsAChangedPageAndRemovesAPageGoneTwice) {
  Json crawl = wait_crawl(*server_, viewer_, start({{"url", site_.url("/")}}).json()["data"]["id"]);
  ASSERT_EQ(crawl["status"], "done");
  Json before = wait_trained(*server_, viewer_, agent_);
  const Json about = source_at(before, site_.url("/about"));

  site_.set_html(kIslandsPath, islands_page("The ferry to Skerry Island leaves from pier 9 at "
                                            "11:15 every morning."));
  auto r = refresh(Json::object());
  ASSERT_EQ(r.status, 202) << r.body;
  EXPECT_EQ(r.json()["data"]["kind"], "refresh");
  EXPECT_EQ(r.json()["data"]["url"], nullptr);
  Json refreshed = wait_crawl(*server_, viewer_, r.json()["data"]["id"]);
  EXPECT_EQ(refreshed["status"], "done") << refreshed.dump();
  EXPECT_EQ(refreshed["progress"]["fetched"], 1) << refreshed.dump();
  EXPECT_GE(refreshed["progress"]["unchanged"].get<int>(), 7) << refreshed.dump();
  Json after = wait_trained(*server_, viewer_, agent_);
  EXPECT_EQ(source_at(after, site_.url("/about"))["trainedAt"], about["trainedAt"])
      << "an unchanged page is not trained again";
  EXPECT_EQ(source_at(after, site_.url("/about"))["updatedAt"], about["updatedAt"]);
  Json islands = source_at(after, site_.url(kIslandsPath));
  EXPECT_NE(islands["updatedAt"], source_at(before, site_.url(kIslandsPath))["updatedAt"]);
  Json reply = ask(kIslandsQuestion);
  EXPECT_NE(reply["reply"].get<std::string>().find("11:15"), std::string::npos) << reply.dump();

  site_.remove(kIslandsPath);
  const Json one_page = {{"url", site_.url(kIslandsPath)}};
  Json once = wait_crawl(*server_, viewer_, refresh(one_page).json()["data"]["id"]);
  EXPECT_EQ(once["progress"]["failed"], 1) << once.dump();
  EXPECT_EQ(once["progress"]["removed"], 0);
  EXPECT_FALSE(
      source_at(wait_trained(*server_, viewer_, agent_), site_.url(kIslandsPath)).is_null())
      << "one 404 may be a slip: the page stays";
  Json twice = wait_crawl(*server_, viewer_, refresh(one_page).json()["data"]["id"]);
  EXPECT_EQ(twice["progress"]["removed"], 1) << twice.dump();
  EXPECT_TRUE(
      source_at(wait_trained(*server_, viewer_, agent_), site_.url(kIslandsPath)).is_null());
  reply = ask(kIslandsQuestion);
  EXPECT_EQ(reply["reply"].get<std::string>().find("11:15"), std::string::npos) << reply.dump();
  EXPECT_FALSE(lists_source(reply, site_.url(kIslandsPath)));
}

TEST_F(Crawl, TheCrawlStopsAddingAtThePlansTrainingCharacters) {
  server_->admin({"account", "set-limits", account_, R"({"trainingCharacters": 150})"});
  Json crawl = wait_crawl(*server_, viewer_, start({{"url", site_.url("/")}}).json()["data"]["id"]);
  EXPECT_EQ(crawl["status"], "failed") << crawl.dump();
  ASSERT_TRUE(crawl["error"].is_object()) << crawl.dump();
  EXPECT_EQ(crawl["error"]["code"], "character_limit_exceeded");
  Json listing = wait_trained(*server_, viewer_, agent_);
  EXPECT_LE(listing["characters"]["used"].get<int>(), 150);
  EXPECT_LE(crawl["progress"]["characters"].get<int>(), 150);
  EXPECT_LT(crawl["progress"]["fetched"].get<int>(), 9);
}

TEST_F(Crawl, RequestsAreValidatedAndOnlyEditorsStartOrCancel) {
  expect_invalid(start(Json::object()), "url");
  expect_invalid(start({{"url", "ftp://example.com/"}}), "url");
  expect_invalid(start({{"url", "https://user:pw@example.com/"}}), "url");
  expect_invalid(start({{"url", site_.url("/")}, {"maxPages", 0}}), "maxPages");
  auto over = start({{"url", site_.url("/")}, {"maxPages", 501}});
  expect_invalid(over, "maxPages");
  EXPECT_NE(over.error_message().find("500"), std::string::npos) << over.error_message();
  expect_invalid(start({{"url", site_.url("/")}, {"maxPages", "ten"}}), "maxPages");
  expect_invalid(start({{"url", site_.url("/")}, {"maxDepth", 11}}), "maxDepth");
  expect_invalid(start({{"url", site_.url("/")}, {"include", "/docs/"}}), "include");
  expect_invalid(start({{"url", site_.url("/")}, {"exclude", {"docs"}}}), "exclude[0]");
  EXPECT_EQ(start({{"url", site_.url("/")}}, viewer_).status, 403);
  auto nothing = refresh(Json::object());
  EXPECT_EQ(nothing.status, 400) << "the agent has no website pages yet";
  EXPECT_NE(nothing.error_message().find("no website pages"), std::string::npos);
  expect_invalid(refresh({{"url", site_.url("/nowhere")}}), "url");

  auto other_account = server_->create_account();
  auto other_agent = server_->create_agent(other_account);
  EXPECT_EQ(send(*server_, "POST", "/console/v1/agents/" + other_agent + "/crawls", editor_,
                 Json{{"url", site_.url("/")}}.dump())
                .status,
            404);
  auto other_editor = create_member(*server_, other_account, "editor")["token"];
  auto mine = start({{"url", site_.url("/")}, {"maxPages", 2}, {"include", {"/docs/"}}});
  ASSERT_EQ(mine.status, 201) << mine.body;
  EXPECT_EQ(mine.json()["data"]["include"], Json::array({"/docs/"}));
  const std::string id = mine.json()["data"]["id"];
  EXPECT_EQ(send(*server_, "GET", "/console/v1/crawls/" + id, other_editor, "").status, 404);
  EXPECT_EQ(send(*server_, "POST", "/console/v1/crawls/" + id + "/cancel", viewer_, "").status,
            403);
  Json ended = wait_crawl(*server_, viewer_, id);
  EXPECT_EQ(ended["progress"]["fetched"].get<int>() + ended["progress"]["failed"].get<int>(), 2)
      << ended.dump();
  auto late = send(*server_, "POST", "/console/v1/crawls/" + id + "/cancel", editor_, "");
  EXPECT_EQ(late.status, 409) << late.body;
}

TEST(CrawlGuard, WithoutThePrivateTargetsSwitchALoopbackSiteIsRefused) {
  TestSite site;
  build_harbour_site(site);
  Server server(unlimited());
  auto account = server.create_account();
  auto agent = server.create_agent(account);
  auto editor = create_member(server, account, "editor")["token"];
  auto r = send(server, "POST", "/console/v1/agents/" + agent + "/crawls", editor,
                Json{{"url", site.url("/")}}.dump());
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_EQ(r.error_code(), "invalid_request");
  EXPECT_NE(r.error_message().find("'url'"), std::string::npos) << r.error_message();
  auto admin = server.admin({"source", "crawl", "--agent", agent, "--url", site.url("/")}, true);
  EXPECT_NE(admin["stderr"].get<std::string>().find("'url'"), std::string::npos) << admin.dump();
  EXPECT_EQ(site.request_count(), 0u);
}

TEST(CrawlAdmin, TheAdminCommandRunsACrawlToItsEndWithWait) {
  TestSite site;
  build_chain_site(site, 5);
  Server server(unlimited(), {"--webhook-allow-private-targets"});
  auto account = server.create_account();
  auto agent = server.create_agent(account);
  Json crawl = server.admin({"source", "crawl", "--agent", agent, "--url", site.url(chain_page(0)),
                             "--max-pages", "4", "--wait", "--allow-private-targets"});
  EXPECT_EQ(crawl["data"]["status"], "done") << crawl.dump();
  EXPECT_EQ(crawl["data"]["progress"]["fetched"], 4) << crawl.dump();
  EXPECT_EQ(crawl["data"]["maxPages"], 4);
  Json queued =
      server.admin({"source", "refresh", "--agent", agent, "--url", site.url(chain_page(1))});
  EXPECT_EQ(queued["data"]["kind"], "refresh");
  EXPECT_EQ(queued["data"]["url"], site.url(chain_page(1)));
}

}  // namespace
}  // namespace parley::e2e
