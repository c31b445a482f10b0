#include "workspace/notion_client.h"

#include <gtest/gtest.h>

#include <deque>

namespace parley {
namespace {

// Answers each request with the next scripted outcome and records what was sent.
class ScriptedSender final : public HttpSender {
 public:
  SendOutcome send(const SendRequest& request) override {
    sent.push_back(request);
    if (answers.empty())
      return answer(500, R"({"object":"error","status":500,"code":"internal_server_error"})");
    SendOutcome out = answers.front();
    answers.pop_front();
    return out;
  }
  static SendOutcome answer(int64_t status, std::string body,
                            std::vector<std::pair<std::string, std::string>> headers = {}) {
    SendOutcome out;
    out.status = status;
    out.body = std::move(body);
    out.headers = std::move(headers);
    return out;
  }
  std::deque<SendOutcome> answers;
  std::vector<SendRequest> sent;
};

const std::string kPage = "59833787-2cf9-4fdf-8782-e53db20768a5";
const std::string kToggle = "11111111-2222-3333-4444-555555555555";

std::string page_json(const std::string& id, const std::string& title, bool in_trash = false) {
  return R"({"object":"page","id":")" + id + R"(","url":"https://www.notion.so/p-)" + id +
         R"(","last_edited_time":"2024-03-01T10:00:00.000Z","archived":false,"in_trash":)" +
         (in_trash ? "true" : "false") +
         R"(,"properties":{"title":{"id":"title","type":"title","title":[{"plain_text":")" + title +
         R"("}]}}})";
}

std::string paragraph(const std::string& id, const std::string& text, bool children = false) {
  return R"({"object":"block","id":")" + id + R"(","type":"paragraph","has_children":)" +
         (children ? "true" : "false") + R"(,"paragraph":{"rich_text":[{"plain_text":")" + text +
         R"("}]}})";
}

std::string list(const std::vector<std::string>& results, const std::string& next = "") {
  std::string out = R"({"object":"list","results":[)";
  for (size_t i = 0; i < results.size(); ++i) out += (i ? "," : "") + results[i];
  out += "],\"next_cursor\":" + (next.empty() ? std::string("null") : "\"" + next + "\"") +
         ",\"has_more\":" + (next.empty() ? "false" : "true") + "}";
  return out;
}

struct Fixture {
  ScriptedSender sender;
  std::vector<int64_t> waits;
  NotionOptions options;
  NotionClient client() {
    options.api_url = "http://127.0.0.1:9";
    options.operator_url = true;
    return NotionClient(sender, options, "secret_token", [this](int64_t ms) {
      waits.push_back(ms);
      return true;
    });
  }
  std::string header(size_t i, const std::string& name) {
    for (const auto& [n, v] : sender.sent.at(i).headers)
      if (n == name) return v;
    return "";
  }
};

TEST(NotionClient, SendsTheTokenAndVersionAndReadsTheBot) {
  Fixture f;
  f.sender.answers.push_back(ScriptedSender::answer(
      200,
      R"({"object":"user","id":"b1","name":"Parley","type":"bot","bot":{"owner":{"type":"workspace","workspace":true},"workspace_name":"Acme HQ"}})"));
  auto bot = f.client().me();
  ASSERT_TRUE(bot.ok()) << bot.error().message;
  EXPECT_EQ(bot->id, "b1");
  EXPECT_EQ(bot->workspace_name, "Acme HQ");
  ASSERT_EQ(f.sender.sent.size(), 1u);
  EXPECT_EQ(f.sender.sent[0].url, "http://127.0.0.1:9/v1/users/me");
  EXPECT_EQ(f.sender.sent[0].method, "GET");
  EXPECT_EQ(f.header(0, "Authorization"), "Bearer secret_token");
  EXPECT_EQ(f.header(0, "Notion-Version"), "2022-06-28");
  EXPECT_TRUE(f.sender.sent[0].allow_http);
}

TEST(NotionClient, TurnsNotionErrorsIntoKindsWithReadableMessages) {
  Fixture f;
  f.sender.answers.push_back(ScriptedSender::answer(
      401,
      R"({"object":"error","status":401,"code":"unauthorized","message":"API token is invalid."})"));
  auto refused = f.client().me();
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kUnauthorized);
  EXPECT_NE(refused.error().message.find("401 unauthorized: API token is invalid."),
            std::string::npos)
      << refused.error().message;

  f.sender.answers.push_back(
      ScriptedSender::answer(404, R"({"object":"error","status":404,"code":"object_not_found"})"));
  auto missing = f.client().page(kPage);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  EXPECT_NE(missing.error().message.find("not shared with the integration"), std::string::npos);

  SendOutcome down;
  down.failure = SendFailure::kTimeout;
  down.error = "Timeout was reached";
  f.options.max_attempts = 1;
  f.sender.answers.push_back(down);
  auto late = f.client().page(kPage);
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.error().code, ErrorCode::kUnavailable);
  EXPECT_NE(late.error().message.find("did not answer within 30 s"), std::string::npos);
}

TEST(NotionClient, WaitsRetryAfterOn429AndGivesUpPastTheBound) {
  Fixture f;
  f.sender.answers.push_back(ScriptedSender::answer(
      429, R"({"object":"error","status":429,"code":"rate_limited"})", {{"Retry-After", "2"}}));
  f.sender.answers.push_back(ScriptedSender::answer(200, page_json(kPage, "Hours")));
  auto page = f.client().page(kPage);
  ASSERT_TRUE(page.ok()) << page.error().message;
  EXPECT_EQ(page->title, "Hours");
  EXPECT_EQ(f.waits, std::vector<int64_t>{2000});
  EXPECT_EQ(f.sender.sent.size(), 2u);
  EXPECT_EQ(f.sender.sent[0].response_headers, std::vector<std::string>{"Retry-After"});

  // A wait longer than the bound is not taken: the error says when to try again.
  f.waits.clear();
  f.options.max_retry_wait_ms = 5000;
  f.sender.answers.push_back(ScriptedSender::answer(429, "{}", {{"Retry-After", "30"}}));
  auto limited = f.client().page(kPage);
  ASSERT_FALSE(limited.ok());
  EXPECT_EQ(limited.error().code, ErrorCode::kRateLimited);
  EXPECT_EQ(limited.error().retry_after_s, 30);
  EXPECT_TRUE(f.waits.empty());

  // A 503 is retried after a back-off; the attempts are bounded.
  f.options.max_attempts = 2;
  f.sender.answers.push_back(ScriptedSender::answer(503, "{}"));
  f.sender.answers.push_back(ScriptedSender::answer(503, R"({"code":"service_unavailable"})"));
  auto down = f.client().page(kPage);
  ASSERT_FALSE(down.ok());
  EXPECT_EQ(down.error().code, ErrorCode::kUnavailable);
  EXPECT_EQ(f.waits, std::vector<int64_t>{1000});
}

TEST(NotionClient, ListsSharedPagesAcrossSearchPagesSkippingTrash) {
  Fixture f;
  const std::string a = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa",
                    b = "bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb";
  f.sender.answers.push_back(ScriptedSender::answer(
      200, list({page_json(a, "A"), page_json(kPage, "Old", true)}, "cur 2")));
  f.sender.answers.push_back(ScriptedSender::answer(200, list({page_json(b, "B")})));
  auto pages = f.client().shared_pages();
  ASSERT_TRUE(pages.ok()) << pages.error().message;
  ASSERT_EQ(pages->pages.size(), 2u);
  EXPECT_EQ(pages->pages[0].title, "A");
  EXPECT_EQ(pages->pages[1].title, "B");
  EXPECT_FALSE(pages->truncated);
  ASSERT_EQ(f.sender.sent.size(), 2u);
  EXPECT_EQ(f.sender.sent[0].method, "POST");
  EXPECT_EQ(f.sender.sent[0].body,
            R"({"filter":{"property":"object","value":"page"},"page_size":100})");
  EXPECT_NE(f.sender.sent[1].body.find(R"("start_cursor":"cur 2")"), std::string::npos);

  f.options.max_listed_pages = 1;
  f.sender.answers.push_back(
      ScriptedSender::answer(200, list({page_json(a, "A"), page_json(b, "B")})));
  auto capped = f.client().shared_pages();
  ASSERT_TRUE(capped.ok());
  EXPECT_EQ(capped->pages.size(), 1u);
  EXPECT_TRUE(capped->truncated);
}

TEST(NotionClient, ReadsAPagesBlocksPagedAndNested) {
  Fixture f;
  f.sender.answers.push_back(ScriptedSender::answer(200, list({paragraph("p1", "First")}, "c2")));
  f.sender.answers.push_back(
      ScriptedSender::answer(200, list({paragraph(kToggle, "Hidden", true)})));
  f.sender.answers.push_back(ScriptedSender::answer(200, list({paragraph("p3", "Inside")})));
  int ticks = 0;
  auto content = f.client().page_content(kPage, [&] { ++ticks; });
  ASSERT_TRUE(content.ok()) << content.error().message;
  ASSERT_EQ(content->blocks.size(), 2u);
  ASSERT_EQ(content->blocks[1].children.size(), 1u);
  EXPECT_EQ(content->blocks[1].children[0].text, "Inside");
  EXPECT_FALSE(content->truncated);
  EXPECT_EQ(ticks, 3);
  ASSERT_EQ(f.sender.sent.size(), 3u);
  EXPECT_EQ(f.sender.sent[0].url,
            "http://127.0.0.1:9/v1/blocks/" + kPage + "/children?page_size=100");
  EXPECT_EQ(f.sender.sent[1].url,
            "http://127.0.0.1:9/v1/blocks/" + kPage + "/children?page_size=100&start_cursor=c2");
  EXPECT_EQ(f.sender.sent[2].url,
            "http://127.0.0.1:9/v1/blocks/" + kToggle + "/children?page_size=100");
  EXPECT_EQ(render_page_text(content->blocks), "First\n\nHidden\n\nInside");

  // Depth and block caps end reading, and say so.
  f.options.max_depth = 1;
  f.sender.answers.push_back(
      ScriptedSender::answer(200, list({paragraph(kToggle, "Hidden", true)})));
  auto shallow = f.client().page_content(kPage);
  ASSERT_TRUE(shallow.ok());
  EXPECT_TRUE(shallow->truncated);
  EXPECT_TRUE(shallow->blocks[0].children.empty());
}

TEST(NotionClient, CanonicalIds) {
  EXPECT_EQ(canonical_notion_id("598337872CF94FDF8782E53DB20768A5"), kPage);
  EXPECT_EQ(canonical_notion_id(kPage), kPage);
  EXPECT_FALSE(canonical_notion_id("59833787-2cf9-4fdf-8782-e53db20768a"));
  EXPECT_FALSE(canonical_notion_id("../../v1/users"));
  EXPECT_FALSE(canonical_notion_id(""));
}

}  // namespace
}  // namespace parley
