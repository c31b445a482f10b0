// The import worker's step on a real (SQLite) store with an in-memory Notion: Notion's
// last_edited_time is a whole minute, so a page read within the minute it was edited is read
// again and compared (new text retrained, the same text unchanged), and skipped without a read
// only once its text was read after that minute; a page emptied of text fails its source, which
// leaves the index.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <map>

#include "core/time_format.h"
#include "domain/sources.h"
#include "domain/workspace_import.h"

namespace parley {
namespace {

const std::string kPage = "59833787-2cf9-4fdf-8782-e53db20768a5";
const int64_t kEdited = *parse_timestamp("2024-03-01T10:00:00.000Z");

// Notion as far as the step asks: the bot, one page and its top-level paragraphs.
class MiniNotion final : public HttpSender {
 public:
  SendOutcome send(const SendRequest& r) override {
    SendOutcome out;
    out.status = 200;
    std::string path = r.url.substr(r.url.find("/v1/"));
    if (path == "/v1/users/me") {
      out.body = R"({"object":"user","id":"bot","type":"bot","bot":{"workspace_name":"Acme"}})";
    } else if (path == "/v1/pages/" + kPage) {
      out.body = R"({"object":"page","id":")" + kPage +
                 R"(","url":"https://www.notion.so/p","last_edited_time":")" +
                 format_timestamp(edited) +
                 R"(","properties":{"title":{"type":"title","title":[{"plain_text":"Hours"}]}}})";
    } else {
      ++block_reads;
      std::string results;
      for (const auto& p : paragraphs) {
        if (!results.empty()) results += ",";
        results +=
            R"({"object":"block","id":"b","type":"paragraph","has_children":false,"paragraph":{"rich_text":[{"plain_text":")" +
            p + R"("}]}})";
      }
      out.body =
          R"({"object":"list","results":[)" + results + R"(],"next_cursor":null,"has_more":false})";
    }
    return out;
  }
  int64_t edited = kEdited;
  std::vector<std::string> paragraphs{"Open nine to five."};
  int block_reads = 0;
};

class Listener final : public SourceListener {
 public:
  void sources_queued() override { ++queued; }
  void source_removed(std::string_view, std::string_view, int64_t) override { ++removed; }
  int queued = 0, removed = 0;
};

class WorkspaceImport : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir_template[] = "/tmp/parley_workspace_import_XXXXXX";
    dir_ = mkdtemp(dir_template);
    auto db = open_database({"sqlite:" + dir_ + "/parley.db", Durability::kNormal});
    ASSERT_TRUE(db.ok());
    db_ = std::move(*db);
    ASSERT_TRUE(db_->write([](Connection& c) {
                     return c.execute_script(
                         "INSERT INTO accounts (id, name, plan, created_at, updated_at) VALUES "
                         "('acc_t', 't', 'pro', 0, 0);"
                         "INSERT INTO agents (id, account_id, name, created_at, updated_at) "
                         "VALUES ('agt_t', 'acc_t', 't', 0, 0)");
                   })
                    .ok());
    s_ = std::make_unique<Services>(Services{*db_, clock_, random_});
    w_.secret_box = &box_;
    w_.notion_sender = &notion_;
    w_.wait = [](int64_t) { return true; };
    ASSERT_TRUE(connect_workspace(*s_, w_, "acc_t", "agt_t", "", "ntn_token").ok());
  }
  void TearDown() override {
    db_.reset();
    std::filesystem::remove_all(dir_);
  }

  // Queues the page (an import or a refresh) and runs the step until nothing waits.
  WorkspacePageRecord run() {
    EXPECT_TRUE(queue_page_imports(*s_, w_, "acc_t", "agt_t", {kPage}).ok());
    WorkspacePageRecord last;
    for (;;) {
      auto step = import_next_page(*s_, w_, &listener_, w_.wait, 60'000);
      EXPECT_TRUE(step.ok());
      if (!step.ok() || !step->claimed) return last;
      last = step->page;
    }
  }
  SourceRecord source(const WorkspacePageRecord& row) {
    auto src = SourceRepo::find(db_->read()->get(), "agt_t", row.source_id.value_or(""));
    EXPECT_TRUE(src.ok() && src->has_value());
    return src.ok() && *src ? **src : SourceRecord{};
  }
  void train() {
    auto claimed = claim_next_source(*s_, 60'000);
    ASSERT_TRUE(claimed.ok() && claimed->has_value());
    ASSERT_TRUE(finish_training(*s_, **claimed, std::nullopt)->applied);
  }

  std::string dir_;
  std::unique_ptr<Database> db_;
  ManualClock clock_{kEdited + 20'000};  // 20 s into the minute the page was edited
  SecureRandom random_;
  std::unique_ptr<Services> s_;  // once the database is open
  SecretBox box_ = SecretBox::generate(random_);
  MiniNotion notion_;
  WorkspaceServices w_;
  Listener listener_;
};

TEST_F(WorkspaceImport, APageEditedInTheMinuteItWasReadIsReadAgainAndCompared) {
  auto first = run();
  EXPECT_EQ(first.outcome, "created");
  EXPECT_EQ(source(first).content, "Open nine to five.");
  EXPECT_EQ(source(first).title, "Hours");
  train();

  // Edited again within the same minute: Notion's time does not move, the text does.
  notion_.paragraphs = {"Open nine to six."};
  clock_.advance_ms(20'000);
  auto second = run();
  EXPECT_EQ(second.outcome, "updated");
  EXPECT_EQ(source(second).content, "Open nine to six.");
  EXPECT_EQ(source(second).status, "pending");
  EXPECT_EQ(listener_.removed, 1);  // the trained text left the index
  train();
  auto trained = source(second);

  // Read again after the minute: the same text is unchanged, and nothing is retrained.
  clock_.advance_ms(60'000);
  int reads = notion_.block_reads;
  auto third = run();
  EXPECT_EQ(third.outcome, "unchanged");
  EXPECT_EQ(notion_.block_reads, reads + 1);
  EXPECT_EQ(source(third).updated_at, trained.updated_at);
  EXPECT_EQ(source(third).status, "trained");
  // That read was after the minute ended: the next refresh does not read the blocks at all.
  auto fourth = run();
  EXPECT_EQ(fourth.outcome, "unchanged");
  EXPECT_EQ(notion_.block_reads, reads + 1);
}

TEST_F(WorkspaceImport, APageEmptiedOfTextFailsItsSourceWhichLeavesTheIndex) {
  auto first = run();
  train();
  auto agent = AgentRepo::find_any(db_->read()->get(), "agt_t");
  EXPECT_EQ((*agent)->characters, 18);

  notion_.paragraphs.clear();
  notion_.edited += 60'000;
  clock_.advance_ms(120'000);
  auto second = run();
  EXPECT_EQ(second.state, "failed");
  EXPECT_EQ(second.error_code, "page_empty");
  auto src = source(second);
  EXPECT_EQ(src.id, *first.source_id);
  EXPECT_EQ(src.status, "failed");
  EXPECT_EQ(src.error, "The page has no text to learn from.");
  EXPECT_EQ(listener_.removed, 1);
  agent = AgentRepo::find_any(db_->read()->get(), "agt_t");
  EXPECT_EQ((*agent)->characters, 0);

  // Text again: the same source is filled and trained again.
  notion_.paragraphs = {"Open again."};
  notion_.edited += 60'000;
  auto third = run();
  EXPECT_EQ(third.outcome, "updated");
  EXPECT_EQ(source(third).id, src.id);
  EXPECT_EQ(source(third).status, "pending");
}

TEST(WorkspaceText, CutAtTheLastWholeLineWithinTheLimit) {
  EXPECT_EQ(cut_page_text("abc\ndef\nghi", 9), "abc\ndef");
  EXPECT_EQ(cut_page_text("abc\ndef", 100), "abc\ndef");
  EXPECT_EQ(cut_page_text("abcdef", 3), "abc");
  EXPECT_EQ(cut_page_text("\xC3\xA9\xC3\xA9\xC3\xA9", 2), "\xC3\xA9\xC3\xA9");  // whole code points
}

}  // namespace
}  // namespace parley
