// Workspace pages from Notion, against a local stand-in of Notion's API (tests/support/
// fake_notion.h): connecting with an integration token (checked with Notion, stored sealed with
// the server's key, never returned; only owners and admins), the shared pages listed across
// search pages, two pages imported with nested blocks and paged children, the chat answering a
// fact from a nested block with the page's url in its sources, a 429 waited out, an edited page
// retrained while an unchanged one is not, an unshared page removed, an import resumed after a
// restart, and a node with another key refusing to start.
#include <chrono>
#include <thread>

#include "fake_notion.h"
#include "harness.h"

namespace parley::e2e {
namespace {

const std::string kToken = "ntn_4815162342TestIntegrationTokenXyZ";
// 32 bytes as base64: the key every node of a PostgreSQL test shares (SQLite makes its own file).
const std::string kSecretKey = "c2VjcmV0LWtleS1mb3ItcGFybGV5LXdvcmtzcGFjZXM=";

std::vector<FakeBlock> rentals_blocks(const std::string& sunday_time) {
  return {notion_block("heading_1", "Rentals"),
          notion_block("paragraph", "We rent city bikes and electric bikes by the day."),
          notion_block("toggle", "Weekend hours",
                       {notion_block("paragraph",
                                     "On Sundays the rental desk opens at " + sunday_time + ".")}),
          notion_block("bulleted_list_item", "Helmets are included with every rental.")};
}

class Workspace : public ::testing::Test {
 protected:
  void SetUp() override {
    notion_.add_token(kToken, "Acme Bikes");
    notion_.set_max_page_size(2);  // every list comes in several pieces
    const Seed& seeded = account_seed("Workspace", "starter", R"({"showSources": true})");
    Env env = unlimited();
    if (on_postgres()) env["PARLEY_SECRET_KEY"] = kSecretKey;
    std::vector<std::string> args{"--notion-api-url", notion_.base_url()};
    for (auto& a : extra_args()) args.push_back(std::move(a));
    server_ = std::make_unique<Server>(env, std::move(args), &seeded);
    account_ = seeded.values["account"];
    agent_ = seeded.values["agent"];
    key_ = seeded.values["key"];
    owner_ = create_member(*server_, account_, "owner")["token"];
  }

  // More options of the server a fixture starts.
  virtual std::vector<std::string> extra_args() { return {}; }

  std::string base() const { return "/console/v1/agents/" + agent_ + "/workspace"; }
  HttpResponse connect(const std::string& member, const std::string& token) {
    return send(*server_, "PUT", base(), member, Json{{"token", token}}.dump());
  }
  HttpResponse import(const std::vector<std::string>& ids) {
    return server_->post(base() + "/imports", owner_, Json{{"pageIds", ids}}.dump());
  }

  // Polls the imports until none is queued or running; returns them.
  Json wait_imports() {
    Json rows;
    for (int i = 0; i < 600; ++i) {
      auto r = server_->get(base() + "/imports", owner_);
      EXPECT_EQ(r.status, 200) << r.body;
      rows = r.json()["data"];
      bool busy = false;
      for (const auto& row : rows)
        busy = busy || row["status"] == "queued" || row["status"] == "running";
      if (!busy) return rows;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ADD_FAILURE() << "imports did not finish: " << rows.dump();
    return rows;
  }
  Json wait_trained() {
    Json body;
    for (int i = 0; i < 400; ++i) {
      auto r = server_->get("/api/v1/agents/" + agent_ + "/sources", key_);
      body = r.json();
      if (r.status == 200 && body["training"]["done"] == true) return body;
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    ADD_FAILURE() << "training did not finish: " << body.dump();
    return body;
  }
  static Json row_of(const Json& rows, const std::string& page_id) {
    for (const auto& r : rows)
      if (r["pageId"] == page_id) return r;
    return Json();
  }
  static Json source_titled(const Json& list, const std::string& title) {
    for (const auto& s : list["data"])
      if (s["title"] == title) return s;
    return Json();
  }
  Json ask(const std::string& message) {
    auto r = server_->post("/api/v1/agents/" + agent_ + "/chat", key_,
                           Json{{"message", message}}.dump());
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json();
  }
  // Connects, imports the rentals and repairs pages and waits for their training.
  void import_two(std::string& rentals, std::string& repairs) {
    rentals = notion_.add_page("Bike rentals", rentals_blocks("10:30"));
    repairs = notion_.add_page(
        "Repairs", {notion_block("paragraph", "A flat tyre repair costs 12 euros."),
                    notion_block("numbered_list_item", "Bring the bike to the workshop.")});
    ASSERT_EQ(connect(owner_, kToken).status, 200);
    auto queued = import({rentals, repairs});
    ASSERT_EQ(queued.status, 202) << queued.body;
    auto rows = wait_imports();
    ASSERT_EQ(row_of(rows, rentals)["outcome"], "created") << rows.dump();
    ASSERT_EQ(row_of(rows, repairs)["outcome"], "created") << rows.dump();
    wait_trained();
  }

  FakeNotion notion_;
  std::unique_ptr<Server> server_;
  std::string account_, agent_, key_, owner_;
};

TEST_F(Workspace, ConnectingChecksTheTokenStoresItSealedAndNeverShowsIt) {
  auto editor = create_member(*server_, account_, "editor")["token"].get<std::string>();
  auto refused = connect(editor, kToken);
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(refused.error_code(), "forbidden");
  EXPECT_EQ(server_->get(base(), editor).json()["data"]["connected"], false);

  auto bad = connect(owner_, "ntn_not_a_token_notion_knows");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.error_code(), "invalid_request");
  EXPECT_NE(bad.error_message().find("'token'"), std::string::npos) << bad.body;
  EXPECT_NE(bad.error_message().find("401 unauthorized"), std::string::npos) << bad.body;
  EXPECT_EQ(send(*server_, "PUT", base(), owner_, "{}").status, 400);
  EXPECT_EQ(send(*server_, "PUT", base(), owner_, R"({"token": "x", "extra": 1})").status, 400);

  auto admin = create_member(*server_, account_, "admin")["token"].get<std::string>();
  auto ok = connect(admin, kToken);
  ASSERT_EQ(ok.status, 200) << ok.body;
  auto data = ok.json()["data"];
  EXPECT_EQ(data["connected"], true);
  EXPECT_EQ(data["workspaceName"], "Acme Bikes");
  EXPECT_TRUE(data["connectedAt"].is_string());
  EXPECT_EQ(ok.body.find(kToken), std::string::npos);
  EXPECT_EQ(ok.header("cache-control"), "no-store");
  // Notion was asked with the token and its API version.
  auto asked = notion_.requests();
  ASSERT_FALSE(asked.empty());
  EXPECT_EQ(asked.back().target, "/v1/users/me");
  EXPECT_EQ(asked.back().headers["authorization"], "Bearer " + kToken);
  EXPECT_EQ(asked.back().headers["notion-version"], "2022-06-28");

  auto shown = server_->get(base(), editor);
  ASSERT_EQ(shown.status, 200);
  EXPECT_EQ(shown.json()["data"], data);
  EXPECT_EQ(shown.body.find(kToken), std::string::npos);

  // At rest: sealed, bound to the key that sealed it; the token's bytes are nowhere in the
  // database.
  auto rows = server_->sql("SELECT token_sealed, key_id FROM workspace_connections");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][0].rfind("v1." + rows[0][1] + ".", 0), 0u) << rows[0][0];
  EXPECT_EQ(rows[0][0].find(kToken), std::string::npos);
  EXPECT_EQ(server_->dump().find(kToken), std::string::npos);
  EXPECT_EQ(server_->dump().find("4815162342"), std::string::npos);

  // Another account's agent is not found; disconnecting forgets the token.
  auto other =
      create_member(*server_, server_->create_account(), "owner")["token"].get<std::string>();
  EXPECT_EQ(connect(other, kToken).status, 404);
  auto gone = send(*server_, "DELETE", base(), owner_, "");
  ASSERT_EQ(gone.status, 200) << gone.body;
  EXPECT_EQ(gone.json()["data"]["connected"], false);
  EXPECT_TRUE(server_->sql("SELECT agent_id FROM workspace_connections").empty());
  EXPECT_EQ(server_->get(base() + "/pages", owner_).status, 409);
}

TEST_F(Workspace, ListsSharedPagesAcrossSearchPages) {
  auto a = notion_.add_page("Bike rentals", rentals_blocks("10:30"));
  auto b = notion_.add_page("Repairs", {notion_block("paragraph", "Repairs take a day.")});
  auto c = notion_.add_page("Careers", {notion_block("paragraph", "We are hiring.")});
  auto hidden = notion_.add_page("Salaries", {notion_block("paragraph", "Secret.")});
  notion_.unshare_page(hidden);
  ASSERT_EQ(connect(owner_, kToken).status, 200);
  auto viewer = create_member(*server_, account_, "viewer")["token"].get<std::string>();
  EXPECT_EQ(server_->get(base() + "/pages", viewer).status, 403);

  size_t searches = notion_.count("POST", "/v1/search");
  auto r = server_->get(base() + "/pages", owner_);
  ASSERT_EQ(r.status, 200) << r.body;
  auto pages = r.json()["data"];
  ASSERT_EQ(pages.size(), 3u) << r.body;
  EXPECT_EQ(notion_.count("POST", "/v1/search") - searches, 2u);  // two pieces of at most 2
  EXPECT_EQ(pages[0]["id"], a);
  EXPECT_EQ(pages[0]["title"], "Bike rentals");
  EXPECT_EQ(pages[0]["url"], notion_.page_url(a));
  EXPECT_EQ(pages[0]["lastEditedAt"], "2024-03-01T10:00:00.000Z");
  EXPECT_EQ(pages[0]["imported"], false);
  EXPECT_EQ(pages[1]["id"], b);
  EXPECT_EQ(pages[2]["id"], c);
  EXPECT_EQ(r.json()["truncated"], false);

  auto queued = import({b});
  ASSERT_EQ(queued.status, 202) << queued.body;
  wait_imports();
  EXPECT_EQ(server_->get(base() + "/pages", owner_).json()["data"][1]["imported"], true);
}

TEST_F(Workspace, ImportedPagesAnswerFromNestedBlocksWithThePageUrl) {
  std::string rentals, repairs;
  import_two(rentals, repairs);
  auto sources = server_->get("/api/v1/agents/" + agent_ + "/sources", key_).json();
  auto source = source_titled(sources, "Bike rentals");
  ASSERT_FALSE(source.is_null()) << sources.dump();
  EXPECT_EQ(source["type"], "workspace");
  EXPECT_EQ(source["url"], notion_.page_url(rentals));
  EXPECT_EQ(source["status"], "trained");
  EXPECT_EQ(source_titled(sources, "Repairs")["status"], "trained");
  // The toggle's children were read: its block's children were asked for, in pieces of 2.
  EXPECT_GE(notion_.count("GET", "/v1/blocks/"), 4u);

  auto reply = ask("When does the rental desk open on Sundays?");
  EXPECT_NE(reply["reply"].get<std::string>().find("10:30"), std::string::npos) << reply.dump();
  ASSERT_FALSE(reply["sources"].empty()) << reply.dump();
  EXPECT_EQ(reply["sources"][0]["url"], notion_.page_url(rentals));
  EXPECT_EQ(reply["sources"][0]["title"], "Bike rentals");

  // Bad requests name what is wrong.
  auto bad = import({"not-a-page"});
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(bad.error_message().find("'pageIds[0]'"), std::string::npos);
  EXPECT_EQ(server_->post(base() + "/imports", owner_, R"({"pageIds": []})").status, 400);
  EXPECT_EQ(server_->post(base() + "/imports", owner_, R"({})").status, 400);
}

TEST_F(Workspace, RateLimitedRequestsAreRetriedAfterRetryAfter) {
  auto page = notion_.add_page("Repairs",
                               {notion_block("paragraph", "A flat tyre repair costs 12 euros.")});
  ASSERT_EQ(connect(owner_, kToken).status, 200);
  notion_.rate_limit_next(2, 1);
  ASSERT_EQ(import({page}).status, 202);
  auto rows = wait_imports();
  EXPECT_EQ(row_of(rows, page)["status"], "done") << rows.dump();
  EXPECT_EQ(row_of(rows, page)["outcome"], "created");
  EXPECT_EQ(notion_.rate_limited_answers(), 2u);
}

TEST_F(Workspace, RefreshRetrainsAnEditedPageOnlyAndRemovesAnUnsharedOne) {
  std::string rentals, repairs;
  import_two(rentals, repairs);
  auto before = server_->get("/api/v1/agents/" + agent_ + "/sources", key_).json();
  auto rentals_before = source_titled(before, "Bike rentals");
  auto repairs_before = source_titled(before, "Repairs");

  notion_.edit_page(rentals, rentals_blocks("11:15"));
  auto refreshed = server_->post(base() + "/refresh", owner_, "{}");
  ASSERT_EQ(refreshed.status, 202) << refreshed.body;
  EXPECT_EQ(refreshed.json()["data"].size(), 2u);
  auto rows = wait_imports();
  EXPECT_EQ(row_of(rows, rentals)["outcome"], "updated") << rows.dump();
  EXPECT_EQ(row_of(rows, repairs)["outcome"], "unchanged") << rows.dump();
  auto after = wait_trained();
  auto rentals_after = source_titled(after, "Bike rentals");
  auto repairs_after = source_titled(after, "Repairs");
  EXPECT_EQ(rentals_after["id"], rentals_before["id"]);  // the same source, retrained
  EXPECT_NE(rentals_after["updatedAt"], rentals_before["updatedAt"]);
  EXPECT_EQ(repairs_after, repairs_before);  // untouched: same trainedAt and updatedAt
  auto reply = ask("When does the rental desk open on Sundays?");
  EXPECT_NE(reply["reply"].get<std::string>().find("11:15"), std::string::npos) << reply.dump();

  notion_.unshare_page(rentals);
  ASSERT_EQ(server_->post(base() + "/refresh", owner_, "{}").status, 202);
  rows = wait_imports();
  EXPECT_EQ(row_of(rows, rentals)["outcome"], "removed") << rows.dump();
  EXPECT_TRUE(row_of(rows, rentals)["sourceId"].is_null());
  auto last = wait_trained();
  EXPECT_TRUE(source_titled(last, "Bike rentals").is_null()) << last.dump();
  EXPECT_EQ(source_titled(last, "Repairs")["status"], "trained");
  auto unanswered = ask("When does the rental desk open on Sundays?");
  EXPECT_EQ(unanswered["reply"].get<std::string>().find("11:15"), std::string::npos)
      << unanswered.dump();
  EXPECT_TRUE(unanswered["sources"].empty()) << unanswered.dump();
}

// The agent's automatic refresh (knowledgeRefresh) covers its workspace pages as well as its
// websites: once the period has passed, imported pages are read again.
class WorkspaceDailyRefresh : public Workspace {
 protected:
  std::vector<std::string> extra_args() override {
    std::vector<std::string> args = clock_.args();
    args.push_back("--knowledge-refresh-check-ms");
    args.push_back("100");
    return args;
  }
  TestClock clock_;
};

TEST_F(WorkspaceDailyRefresh, ImportedPagesAreReadAgainOnceADayHasPassed) {
  std::string rentals, repairs;
  import_two(rentals, repairs);
  auto set = send(*server_, "PATCH", "/console/v1/agents/" + agent_, owner_,
                  Json{{"settings", {{"knowledgeRefresh", "daily"}}}}.dump());
  ASSERT_EQ(set.status, 200) << set.body;
  notion_.edit_page(rentals, rentals_blocks("11:15"));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  auto rows = wait_imports();
  EXPECT_EQ(row_of(rows, rentals)["outcome"], "created") << "not due yet: " << rows.dump();

  clock_.advance_ms(24LL * 60 * 60 * 1000 + 1000);
  for (int i = 0; i < 400 && row_of(rows, rentals)["outcome"] != "updated"; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
    rows = server_->get(base() + "/imports", owner_).json()["data"];
  }
  rows = wait_imports();
  EXPECT_EQ(row_of(rows, rentals)["outcome"], "updated") << rows.dump();
  EXPECT_EQ(row_of(rows, repairs)["outcome"], "unchanged") << rows.dump();
  wait_trained();
  auto reply = ask("When does the rental desk open on Sundays?");
  EXPECT_NE(reply["reply"].get<std::string>().find("11:15"), std::string::npos) << reply.dump();

}

TEST_F(Workspace, APageThatCannotBeReadBecomesAFailedSourceSayingWhy) {
  ASSERT_EQ(connect(owner_, kToken).status, 200);
  auto hidden = notion_.add_page("Salaries", {notion_block("paragraph", "Secret.")});
  notion_.unshare_page(hidden);
  auto empty = notion_.add_page("Blank", {notion_block("divider", "")});
  ASSERT_EQ(import({hidden, empty}).status, 202);
  auto rows = wait_imports();
  auto h = row_of(rows, hidden);
  EXPECT_EQ(h["status"], "failed") << rows.dump();
  EXPECT_EQ(h["error"]["code"], "page_not_found");
  auto sources = server_->get("/api/v1/agents/" + agent_ + "/sources", key_).json();
  bool found = false;
  for (const auto& s : sources["data"]) {
    if (s["id"] != h["sourceId"]) continue;
    found = true;
    EXPECT_EQ(s["type"], "workspace");
    EXPECT_EQ(s["status"], "failed");
    EXPECT_NE(s["error"].get<std::string>().find("not shared with the integration"),
              std::string::npos)
        << s.dump();
  }
  EXPECT_TRUE(found) << sources.dump();
  EXPECT_EQ(row_of(rows, empty)["error"]["code"], "page_empty");
  EXPECT_NE(row_of(rows, empty)["error"]["message"].get<std::string>().find("no text"),
            std::string::npos);

  // A revoked token: the page fails with Notion's reason; nothing imported before is touched.
  notion_.revoke_token(kToken);
  auto page = notion_.add_page("Repairs", {notion_block("paragraph", "Repairs take a day.")});
  ASSERT_EQ(import({page}).status, 202);
  rows = wait_imports();
  EXPECT_EQ(row_of(rows, page)["error"]["code"], "notion_unauthorized") << rows.dump();
  EXPECT_EQ(server_->get(base() + "/pages", owner_).status, 409);
}

TEST_F(Workspace, ATrashedPageIsRemovedAndAPagePastThePlansCharactersIsNotAdded) {
  std::string rentals, repairs;
  import_two(rentals, repairs);
  notion_.trash_page(repairs);
  ASSERT_EQ(server_->post(base() + "/refresh", owner_, "{}").status, 202);
  auto rows = wait_imports();
  EXPECT_EQ(row_of(rows, repairs)["outcome"], "removed") << rows.dump();
  EXPECT_EQ(row_of(rows, rentals)["outcome"], "unchanged") << rows.dump();
  auto listed = wait_trained();
  EXPECT_TRUE(source_titled(listed, "Repairs").is_null()) << listed.dump();

  // Over the plan's training characters: nothing is added, the import says why.
  int64_t used = listed["characters"]["used"];
  server_->admin(
      {"account", "set-limits", account_, Json{{"trainingCharacters", used + 20}}.dump()});
  auto big = notion_.add_page("Big", {notion_block("paragraph", std::string(200, 'x') + " words")});
  ASSERT_EQ(import({big}).status, 202);
  rows = wait_imports();
  auto r = row_of(rows, big);
  EXPECT_EQ(r["status"], "failed") << rows.dump();
  EXPECT_EQ(r["error"]["code"], "character_limit_exceeded");
  EXPECT_TRUE(r["sourceId"].is_null());
  EXPECT_TRUE(
      source_titled(server_->get("/api/v1/agents/" + agent_ + "/sources", key_).json(), "Big")
          .is_null());
}

TEST_F(Workspace, AnImportLeftRunningWhenTheServerStoppedIsFinishedAfterARestart) {
  auto page = notion_.add_page("Repairs",
                               {notion_block("paragraph", "A flat tyre repair costs 12 euros.")});
  ASSERT_EQ(connect(owner_, kToken).status, 200);
  // As a server killed while reading the page leaves it: running, its claim still current
  // (SQLite: one node, requeued at start) or run out (PostgreSQL: another node takes it over).
  std::string lease = on_postgres() ? "1" : "9999999999999";
  server_->sql(
      "INSERT INTO workspace_pages (agent_id, page_id, account_id, state, requested_at, "
      "lease_until)"
      " VALUES ('" +
      agent_ + "', '" + page + "', '" + account_ + "', 'running', 1, " + lease + ")");
  server_->restart();
  auto rows = wait_imports();
  EXPECT_EQ(row_of(rows, page)["outcome"], "created") << rows.dump();
  // The token still opens after the restart: the key outlived the process.
  EXPECT_EQ(server_->get(base() + "/pages", owner_).status, 200);
}

TEST_F(Workspace, ANodeWithAnotherKeyRefusesToStart) {
  ASSERT_EQ(connect(owner_, kToken).status, 200);
  server_->stop();
  Env env = server_->database_env();
  env["PARLEY_SECRET_KEY"] = "b3RoZXIta2V5LW90aGVyLWtleS1vdGhlci1rZXktMTI=";
  auto refused = run_process(
      {"/usr/bin/timeout", "30", PARLEY_BINARY, "serve", "--listen", "127.0.0.1:0"}, env);
  EXPECT_EQ(refused.exit_code, 1) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("sealed with another secret key"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("parley admin workspace disconnect"), std::string::npos)
      << refused.err;
  // The operator's way out: disconnect without the server.
  auto out = server_->admin({"workspace", "disconnect", "--agent", agent_});
  EXPECT_EQ(out["connected"], false);
}

}  // namespace
}  // namespace parley::e2e
