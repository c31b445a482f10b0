// What the crawler makes of a page's answer: statuses as the crawl records them, a document read
// by the extraction library, its links resolved (base href, fragments, duplicates, scope) and
// robots meta directives obeyed, its canonical address, and addresses that are no pages.
#include "workers/page_reader.h"

#include <gtest/gtest.h>

#include "../extract/test_documents.h"
#include "core/child_process.h"
#include "core/crypto.h"
#include "extract/document.h"

namespace parley {
namespace {

Url at(const std::string& text) { return *parse_url(text); }

PageResponse html(const std::string& body) {
  PageResponse r;
  r.status = 200;
  r.content_type = "text/html; charset=utf-8";
  r.body = body;
  r.etag = "\"v1\"";
  return r;
}

// Every link on example.com may be followed.
bool same_site(const Url& u) { return u.host == "example.com"; }

std::vector<std::string> urls_of(const PageResult& r) {
  std::vector<std::string> out;
  for (const auto& l : r.links) out.push_back(l.url);
  return out;
}

TEST(PageReader, StatusesBecomeWhatTheCrawlRecords) {
  PageResponse r;
  r.status = 304;
  EXPECT_EQ(read_page_answer(at("https://example.com/a"), r, 1, same_site).result.kind,
            PageResult::Kind::kUnchanged);
  r.status = 404;
  auto gone = read_page_answer(at("https://example.com/a"), r, 1, same_site).result;
  EXPECT_EQ(gone.kind, PageResult::Kind::kGone);
  EXPECT_EQ(gone.reason, "The server answered 404.");
  r.status = 410;
  EXPECT_EQ(read_page_answer(at("https://example.com/a"), r, 1, same_site).result.kind,
            PageResult::Kind::kGone);
  r.status = 503;
  auto failed = read_page_answer(at("https://example.com/a"), r, 1, same_site).result;
  EXPECT_EQ(failed.kind, PageResult::Kind::kFailed);
  EXPECT_EQ(failed.reason, "The server answered 503.");
  PageResponse slow;
  slow.problem = FetchProblem::kTimeout;
  slow.error = "The page took longer than 15 s.";
  auto timed_out = read_page_answer(at("https://example.com/a"), slow, 1, same_site).result;
  EXPECT_EQ(timed_out.kind, PageResult::Kind::kFailed);
  EXPECT_EQ(timed_out.reason, "The page took longer than 15 s.");
}

TEST(PageReader, AnHtmlPageGivesItsTitleBlocksTextHashAndLinks) {
  auto read = read_page_answer(
      at("https://example.com/docs/guide"),
      html("<html><head><title>Guide</title><base href=\"/docs/v2/\"></head><body>"
           "<h1>Ferries</h1><p>Boats leave hourly.</p><p>Tickets cost 45 EUR.</p>"
           "<a href=\"routes#top\">Routes</a> <a href=\"routes\">Routes again</a> "
           "<a href=\"/docs/guide\">Self</a> <a href=\"https://other.example/x\">Off</a> "
           "<a href=\"mailto:a@example.com\">Mail</a></body></html>"),
      3, same_site);
  const PageResult& r = read.result;
  ASSERT_EQ(r.kind, PageResult::Kind::kRead) << r.reason;
  EXPECT_EQ(r.title, "Guide");
  EXPECT_EQ(r.site, "https://example.com");
  EXPECT_EQ(r.etag, "\"v1\"");
  EXPECT_EQ(urls_of(r), std::vector<std::string>{"https://example.com/docs/v2/routes"})
      << "resolved against <base>, the fragment dropped, once, in scope, not itself";
  EXPECT_EQ(r.links[0].depth, 3);
  EXPECT_EQ(r.blocks.size(), 3u) << "the paragraphs and the line of links, not the heading";
  const std::string whole = r.render({});
  EXPECT_EQ(r.content_hash, sha256_hex(whole));
  EXPECT_NE(whole.find("Ferries"), std::string::npos);
  std::string without = r.render({r.blocks[0]});
  EXPECT_EQ(without.find("Boats leave hourly."), std::string::npos);
  EXPECT_NE(without.find("Tickets cost 45 EUR."), std::string::npos);
  EXPECT_FALSE(read.canonical.has_value());
}

TEST(PageReader, NoLinksPastTheDepthCap) {
  auto r = read_page_answer(at("https://example.com/"), html("<p>Text.</p><a href=\"/a\">A</a>"),
                            -1, same_site);
  EXPECT_TRUE(r.result.links.empty());
}

TEST(PageReader, RobotsMetaAndCanonicalAreObeyed) {
  auto noindex = read_page_answer(
      at("https://example.com/a"),
      html("<meta name=\"robots\" content=\"noindex\"><p>Text.</p><a href=\"/b\">B</a>"), 1,
      same_site);
  EXPECT_EQ(noindex.result.kind, PageResult::Kind::kSkipped);
  EXPECT_EQ(noindex.result.reason, "The page asks not to be indexed (robots noindex).");
  EXPECT_EQ(urls_of(noindex.result), std::vector<std::string>{"https://example.com/b"});
  auto nofollow = read_page_answer(
      at("https://example.com/a"),
      html("<meta name=\"robots\" content=\"nofollow\"><p>Text.</p><a href=\"/b\">B</a>"), 1,
      same_site);
  EXPECT_EQ(nofollow.result.kind, PageResult::Kind::kRead);
  EXPECT_TRUE(nofollow.result.links.empty());
  auto canonical =
      read_page_answer(at("https://example.com/a?utm=1"),
                       html("<link rel=\"canonical\" href=\"/a\"><p>Text.</p>"), 1, same_site);
  ASSERT_TRUE(canonical.canonical.has_value());
  EXPECT_EQ(canonical.canonical->text(), "https://example.com/a");
  auto elsewhere = read_page_answer(at("https://example.com/a"),
                                    html("<link rel=\"canonical\" href=\"https://other.example/a\">"
                                         "<p>Text.</p>"),
                                    1, same_site);
  EXPECT_FALSE(elsewhere.canonical.has_value()) << "a canonical address out of scope is ignored";
}

TEST(PageReader, OtherTypesFailWithTheirNameAndAnEmptyPageWithAReason) {
  PageResponse png;
  png.status = 200;
  png.content_type = "image/png";
  png.body = std::string("\x89PNG\r\n\x1a\n", 8) + std::string(32, '\0');
  auto image = read_page_answer(at("https://example.com/photo"), png, 1, same_site).result;
  EXPECT_EQ(image.kind, PageResult::Kind::kFailed);
  EXPECT_EQ(image.reason, "Not text: image/png.");
  PageResponse empty = html("<html><body><script>var x = 1;</script></body></html>");
  auto nothing = read_page_answer(at("https://example.com/e"), empty, 1, same_site).result;
  EXPECT_EQ(nothing.kind, PageResult::Kind::kFailed);
  EXPECT_FALSE(nothing.reason.empty());
}

TEST(PageReader, AddressesThatAreNoPagesAreSkippedByTheirName) {
  EXPECT_EQ(not_a_page(at("https://example.com/img/logo.PNG")),
            "Not a page: .png files are not read.");
  EXPECT_EQ(not_a_page(at("https://example.com/app.js?v=3")),
            "Not a page: .js files are not read.");
  EXPECT_FALSE(not_a_page(at("https://example.com/guide.pdf")).has_value());
  EXPECT_FALSE(not_a_page(at("https://example.com/docs/")).has_value());
  EXPECT_FALSE(not_a_page(at("https://example.com/v1.2/intro")).has_value());
  EXPECT_FALSE(not_a_page(at("https://example.com/index.html")).has_value());
}

TEST(PageReaderDeathTest, APdfThatCannotBeReadNowIsLeftForLater) {
  // In a process of its own: its PDF readers are stopped for good, as at a node's shutdown.
  EXPECT_EXIT(
      {
        stop_child_processes();
        PageResponse r;
        r.status = 200;
        r.content_type = "application/pdf";
        r.body = testing::make_pdf({testing::PdfPage{{"Opening hours"}}});
        ReadPage read = read_page_answer(at("https://example.com/hours.pdf"), r, 1, same_site);
        std::_Exit(read.stopped ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace parley
