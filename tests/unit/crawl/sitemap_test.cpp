// Sitemaps: <urlset> and <sitemapindex> with and without namespaces, gzip (one member, several,
// damaged, truncated, too large), the text format, the entry cap, and documents that are not
// sitemaps.
#include "crawl/sitemap.h"

#include <gtest/gtest.h>
#include <zlib.h>

namespace parley {
namespace {

std::string gzip(std::string_view data) {
  z_stream zs{};
  EXPECT_EQ(
      deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY),
      Z_OK);
  std::string out(deflateBound(&zs, data.size()) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

constexpr std::string_view kUrlset = R"(<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url>
    <loc>
      https://example.com/
    </loc>
    <lastmod>2024-05-01</lastmod>
    <changefreq>weekly</changefreq>
  </url>
  <url><loc>https://example.com/prices?lang=en&amp;x=1</loc></url>
  <url><lastmod>2024-01-01</lastmod></url>
  <url><loc>   </loc></url>
  <!-- a comment -->
  <image>ignored</image>
</urlset>)";

TEST(SitemapTest, ReadsAUrlset) {
  auto sitemap = parse_sitemap(kUrlset);
  ASSERT_TRUE(sitemap.ok()) << sitemap.error().message;
  ASSERT_EQ(sitemap->pages.size(), 2u);
  EXPECT_EQ(sitemap->pages[0].loc, "https://example.com/");
  EXPECT_EQ(sitemap->pages[0].lastmod, "2024-05-01");
  EXPECT_EQ(sitemap->pages[1].loc, "https://example.com/prices?lang=en&x=1");
  EXPECT_FALSE(sitemap->pages[1].lastmod);
  EXPECT_TRUE(sitemap->sitemaps.empty());
}

TEST(SitemapTest, ReadsASitemapIndexWithAPrefixedNamespace) {
  constexpr std::string_view body =
      "\xEF\xBB\xBF<sm:sitemapindex xmlns:sm=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
      "<sm:sitemap><sm:loc>https://example.com/a.xml</sm:loc>"
      "<sm:lastmod>2024-05-01T10:00:00+00:00</sm:lastmod></sm:sitemap>"
      "<sm:sitemap><sm:loc>https://example.com/b.xml.gz</sm:loc></sm:sitemap>"
      "</sm:sitemapindex>";
  auto sitemap = parse_sitemap(body);
  ASSERT_TRUE(sitemap.ok()) << sitemap.error().message;
  EXPECT_TRUE(sitemap->pages.empty());
  EXPECT_EQ(sitemap->sitemaps, (std::vector<std::string>{"https://example.com/a.xml",
                                                         "https://example.com/b.xml.gz"}));
}

TEST(SitemapTest, ReadsWithoutANamespace) {
  auto sitemap = parse_sitemap("<urlset><url><loc>https://x.com/a</loc></url></urlset>");
  ASSERT_TRUE(sitemap.ok());
  ASSERT_EQ(sitemap->pages.size(), 1u);
  EXPECT_EQ(sitemap->pages[0].loc, "https://x.com/a");
}

TEST(SitemapTest, InflatesAGzippedSitemap) {
  std::string body = gzip(kUrlset);
  ASSERT_TRUE(looks_gzipped(body));
  EXPECT_FALSE(looks_gzipped(kUrlset));
  auto sitemap = parse_sitemap(body);
  ASSERT_TRUE(sitemap.ok()) << sitemap.error().message;
  ASSERT_EQ(sitemap->pages.size(), 2u);
  EXPECT_EQ(sitemap->pages[1].loc, "https://example.com/prices?lang=en&x=1");

  auto index = parse_sitemap(
      gzip("<sitemapindex><sitemap><loc>https://x.com/s1.xml.gz</loc></sitemap></sitemapindex>"));
  ASSERT_TRUE(index.ok());
  EXPECT_EQ(index->sitemaps, std::vector<std::string>{"https://x.com/s1.xml.gz"});
}

TEST(SitemapTest, GunzipReadsMembersInARowAndRefusesBadData) {
  auto two = gunzip(gzip("hello, ") + gzip("world"), 100);
  ASSERT_TRUE(two.ok()) << two.error().message;
  EXPECT_EQ(*two, "hello, world");

  auto trailing = gunzip(gzip("abc") + std::string(8, '\0'), 100);
  ASSERT_TRUE(trailing.ok());
  EXPECT_EQ(*trailing, "abc");

  std::string whole = gzip(std::string(1000, 'x'));
  auto truncated = gunzip(std::string_view(whole).substr(0, whole.size() / 2), 1 << 20);
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(truncated.error().code, ErrorCode::kInvalidRequest);
  EXPECT_NE(truncated.error().message.find("truncated"), std::string::npos);

  std::string damaged = whole;
  damaged[12] ^= 0x55;
  damaged[13] ^= 0x55;
  auto bad = gunzip(damaged, 1 << 20);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("gzip data"), std::string::npos);

  auto not_gzip = gunzip("plain text", 100);
  ASSERT_FALSE(not_gzip.ok());
  EXPECT_NE(not_gzip.error().message.find("damaged"), std::string::npos);
}

TEST(SitemapTest, GunzipStopsAtTheCap) {
  std::string bomb = gzip(std::string(10 << 20, 'a'));  // 10 MiB into about 10 KiB
  auto capped = gunzip(bomb, 1 << 20);
  ASSERT_FALSE(capped.ok());
  EXPECT_EQ(capped.error().code, ErrorCode::kInvalidRequest);
  EXPECT_NE(capped.error().message.find("expands beyond 1048576 bytes"), std::string::npos);
  auto exact = gunzip(gzip(std::string(1000, 'a')), 1000);
  ASSERT_TRUE(exact.ok());
  EXPECT_EQ(exact->size(), 1000u);
}

TEST(SitemapTest, CapsTheEntries) {
  std::string body = "<urlset>";
  for (int i = 0; i < 10; ++i) {
    body += "<url><loc>https://x.com/" + std::to_string(i) + "</loc></url>";
  }
  body += "</urlset>";
  auto sitemap = parse_sitemap(body, 3);
  ASSERT_TRUE(sitemap.ok());
  ASSERT_EQ(sitemap->pages.size(), 3u);
  EXPECT_EQ(sitemap->pages[2].loc, "https://x.com/2");
}

TEST(SitemapTest, ReadsTheTextFormat) {
  auto sitemap = parse_sitemap("https://x.com/a\r\n\r\n  HTTPS://x.com/b  \nhttp://x.com/c");
  ASSERT_TRUE(sitemap.ok()) << sitemap.error().message;
  ASSERT_EQ(sitemap->pages.size(), 3u);
  EXPECT_EQ(sitemap->pages[1].loc, "HTTPS://x.com/b");
  EXPECT_EQ(sitemap->pages[2].loc, "http://x.com/c");
}

TEST(SitemapTest, RefusesWhatIsNotASitemap) {
  auto expect_error = [](std::string_view body, std::string_view words) {
    auto sitemap = parse_sitemap(body);
    ASSERT_FALSE(sitemap.ok()) << body;
    EXPECT_EQ(sitemap.error().code, ErrorCode::kInvalidRequest);
    EXPECT_NE(sitemap.error().message.find(words), std::string::npos) << sitemap.error().message;
  };
  expect_error("", "Not a sitemap: the document is empty.");
  expect_error("  \n ", "Not a sitemap: the document is empty.");
  expect_error("<!doctype html><html><body>Hi</body></html>",
               "Not a sitemap: the document is an HTML page.");
  expect_error("<feed><entry/></feed>", "Not a sitemap: the document's root is <feed>");
  expect_error("<urlset><url><loc>https://x.com/</loc></url>", "The sitemap is not valid XML");
  expect_error("<urlset><url></urlset>", "The sitemap is not valid XML");
  expect_error("{\"urls\": []}", "Not a sitemap: neither XML nor a list");
  expect_error("https://x.com/a\nnot a url\n", "Not a sitemap");
  expect_error(std::string("\x1f\x8b\x08\x00garbage", 11), "The gzip data");
}

TEST(SitemapTest, IgnoresDoctypesAndEntities) {
  // No DTD is read and no entity defined in one is expanded (no billion laughs, no XXE).
  constexpr std::string_view body =
      "<!DOCTYPE urlset [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;\">"
      "<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
      "<urlset><url><loc>https://x.com/&b;&x;</loc></url></urlset>";
  auto sitemap = parse_sitemap(body);
  ASSERT_TRUE(sitemap.ok()) << sitemap.error().message;
  ASSERT_EQ(sitemap->pages.size(), 1u);
  EXPECT_EQ(sitemap->pages[0].loc.find("root:"), std::string::npos);
  EXPECT_EQ(sitemap->pages[0].loc.find("aaaa"), std::string::npos);
}

}  // namespace
}  // namespace parley
