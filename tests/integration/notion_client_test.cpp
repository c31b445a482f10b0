// The Notion client over the real outbound loop against the local stand-in of Notion's API: the
// Retry-After of a 429 is read from the response's headers and waited (through the wait given,
// so the test does not sleep), lists are read across their pieces, and Notion's own host goes
// through the URL guard, which refuses a loopback address.
#include <gtest/gtest.h>

#include "fake_notion.h"
#include "workspace/notion_client.h"

namespace parley::e2e {
namespace {

const std::string kToken = "ntn_integration_test_token";

struct Harness {
  FakeNotion notion;
  SystemResolver resolver;
  std::vector<int64_t> waits;
  NotionOptions options;
  std::unique_ptr<NotionSender> sender;

  Harness() {
    notion.add_token(kToken, "Acme");
    options.api_url = notion.base_url();
    options.operator_url = true;
    sender = std::make_unique<NotionSender>(resolver, options.operator_url);
  }
  NotionClient client() {
    return NotionClient(*sender, options, kToken, [this](int64_t ms) {
      waits.push_back(ms);
      return true;
    });
  }
};

TEST(NotionClientOverHttp, WaitsTheRetryAfterNotionSends) {
  Harness h;
  auto page = h.notion.add_page("Hours", {notion_block("paragraph", "Open daily.")});
  h.notion.rate_limit_next(2, 3);
  auto read = h.client().page(page);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(read->title, "Hours");
  EXPECT_EQ(h.waits, (std::vector<int64_t>{3000, 3000}));
  EXPECT_EQ(h.notion.rate_limited_answers(), 2u);
}

TEST(NotionClientOverHttp, ReadsListsAcrossTheirPieces) {
  Harness h;
  h.notion.set_max_page_size(1);
  auto page = h.notion.add_page(
      "Hours",
      {notion_block("heading_2", "Weekdays"),
       notion_block("toggle", "Sunday",
                    {notion_block("paragraph", "Closed."), notion_block("paragraph", "Really.")})});
  h.notion.add_page("Prices", {});
  auto client = h.client();
  auto pages = client.shared_pages();
  ASSERT_TRUE(pages.ok()) << pages.error().message;
  EXPECT_EQ(pages->pages.size(), 2u);
  auto content = client.page_content(page);
  ASSERT_TRUE(content.ok()) << content.error().message;
  EXPECT_EQ(render_page_text(content->blocks), "Weekdays\n\nSunday\n\nClosed.\n\nReally.");
  EXPECT_EQ(h.notion.count("GET", "/v1/blocks/"), 4u);  // 2 top-level pieces, 2 under the toggle
  auto me = client.me();
  ASSERT_TRUE(me.ok());
  EXPECT_EQ(me->workspace_name, "Acme");
}

TEST(NotionClientOverHttp, NotionsOwnHostIsGuarded) {
  Harness h;
  h.options.operator_url = false;
  NotionSender guarded(h.resolver, false);
  for (std::string url :
       {h.notion.base_url(), "https://127.0.0.1:" + h.notion.base_url().substr(17)}) {
    h.options.api_url = url;
    NotionClient client(guarded, h.options, kToken, [](int64_t) { return true; });
    auto me = client.me();
    ASSERT_FALSE(me.ok()) << url;
    EXPECT_EQ(me.error().code, ErrorCode::kUnavailable);
    EXPECT_NE(me.error().message.find("refused"), std::string::npos) << me.error().message;
  }
  EXPECT_TRUE(h.notion.requests().empty());
}

}  // namespace
}  // namespace parley::e2e
