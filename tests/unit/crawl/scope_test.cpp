// A crawl's scope: the start's site, the start path's folder, include and exclude patterns.
#include "crawl/scope.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

Url url(std::string_view text) {
  auto u = parse_url(text);
  EXPECT_TRUE(u) << text;
  return u.value_or(Url{});
}

bool allows(const CrawlScope& scope, std::string_view text) { return scope.allows(url(text)); }

TEST(CrawlScopeTest, SameSchemeHostAndPortOnly) {
  CrawlScope scope(url("https://example.com/"), {}, {});
  EXPECT_EQ(scope.path_prefix(), "/");
  EXPECT_TRUE(allows(scope, "https://example.com/"));
  EXPECT_TRUE(allows(scope, "https://EXAMPLE.com:443/a/b?c"));
  EXPECT_FALSE(allows(scope, "http://example.com/a"));
  EXPECT_FALSE(allows(scope, "https://www.example.com/a"));
  EXPECT_FALSE(allows(scope, "https://example.com:8443/a"));
  EXPECT_FALSE(allows(scope, "https://other.example/"));
}

TEST(CrawlScopeTest, UnderTheStartPathsFolder) {
  CrawlScope folder(url("https://x.com/docs/"), {}, {});
  EXPECT_EQ(folder.path_prefix(), "/docs/");
  EXPECT_TRUE(allows(folder, "https://x.com/docs/"));
  EXPECT_TRUE(allows(folder, "https://x.com/docs/a/b.html"));
  EXPECT_FALSE(allows(folder, "https://x.com/docs"));
  EXPECT_FALSE(allows(folder, "https://x.com/docsearch"));
  EXPECT_FALSE(allows(folder, "https://x.com/"));
  EXPECT_FALSE(allows(folder, "https://x.com/blog/"));

  CrawlScope file(url("https://x.com/docs/intro.html"), {}, {});
  EXPECT_EQ(file.path_prefix(), "/docs/");
  EXPECT_TRUE(allows(file, "https://x.com/docs/setup.html"));
  EXPECT_FALSE(allows(file, "https://x.com/index.html"));

  CrawlScope bare(url("https://x.com/docs"), {}, {});
  EXPECT_EQ(bare.path_prefix(), "/docs/");
  EXPECT_TRUE(allows(bare, "https://x.com/docs"));
  EXPECT_TRUE(allows(bare, "https://x.com/docs?page=2"));
  EXPECT_TRUE(allows(bare, "https://x.com/docs/setup"));
  EXPECT_FALSE(allows(bare, "https://x.com/docsearch"));
}

TEST(CrawlScopeTest, IncludeAndExcludePatterns) {
  CrawlScope scope(url("https://x.com/"), {"/docs/", "/blog/*.html$", "faq"},
                   {"/docs/old/", "*?print=", "/*.pdf$"});
  EXPECT_TRUE(allows(scope, "https://x.com/docs/a"));
  EXPECT_TRUE(allows(scope, "https://x.com/blog/2024/post.html"));
  EXPECT_FALSE(allows(scope, "https://x.com/blog/2024/post.html?x=1"));  // '$' ends it
  EXPECT_TRUE(allows(scope, "https://x.com/faq"));                       // "faq" read as "/faq"
  EXPECT_TRUE(allows(scope, "https://x.com/faq/shipping"));
  EXPECT_FALSE(allows(scope, "https://x.com/about"));           // not included
  EXPECT_FALSE(allows(scope, "https://x.com/docs/old/v1"));     // exclude wins
  EXPECT_FALSE(allows(scope, "https://x.com/docs/a?print=1"));  // the query counts
  EXPECT_FALSE(allows(scope, "https://x.com/docs/manual.pdf"));
  EXPECT_TRUE(allows(scope, "https://x.com/docs/manual.pdf.html"));
}

TEST(CrawlScopeTest, NoIncludeMeansEverythingAndPatternsCompareNormalised) {
  CrawlScope scope(url("https://x.com/"), {}, {"/%7Eadmin/", ""});
  EXPECT_TRUE(allows(scope, "https://x.com/anything?at=all"));
  EXPECT_FALSE(allows(scope, "https://x.com/~admin/users"));
  EXPECT_FALSE(allows(scope, "https://x.com/%7eadmin/users"));
}

}  // namespace
}  // namespace parley
