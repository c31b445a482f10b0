// robots.txt: RFC 9309's examples (§5 and §2.2.2), Google's documented matching and precedence
// examples, grouping, Crawl-delay, Sitemap lines, and files that are not robots.txt at all.
#include "crawl/robots.h"

#include <gtest/gtest.h>

#include "crawl/path_pattern.h"

namespace parley {
namespace {

// RFC 9309 §5.1.
constexpr std::string_view kSimpleExample =
    "User-Agent: *\n"
    "Disallow: *.gif$\n"
    "Disallow: /example/\n"
    "Allow: /publications/\n"
    "\n"
    "User-Agent: foobot\n"
    "Disallow:/\n"
    "Allow:/example/page.html\n"
    "Allow:/example/allowed.gif\n"
    "\n"
    "User-Agent: barbot\n"
    "User-Agent: bazbot\n"
    "Disallow: /example/page.html\n"
    "\n"
    "User-Agent: quxbot\n"
    "\n"
    "EOF\n";

TEST(RobotsTest, Rfc9309SimpleExample) {
  auto foobot = RobotsRules::parse(kSimpleExample, "foobot");
  EXPECT_TRUE(foobot.allowed("/example/page.html"));
  EXPECT_TRUE(foobot.allowed("/example/allowed.gif"));
  EXPECT_FALSE(foobot.allowed("/"));
  EXPECT_FALSE(foobot.allowed("/publications/"));
  EXPECT_FALSE(foobot.allowed("/example/other.html"));

  for (const char* token : {"barbot", "bazbot"}) {
    auto bot = RobotsRules::parse(kSimpleExample, token);
    EXPECT_FALSE(bot.allowed("/example/page.html")) << token;
    EXPECT_TRUE(bot.allowed("/example/other.html")) << token;
    EXPECT_TRUE(bot.allowed("/image.gif")) << token;  // its own group, not '*'
  }

  // An empty group: quxbot may fetch everything; it does not fall back to '*'.
  auto quxbot = RobotsRules::parse(kSimpleExample, "quxbot");
  EXPECT_TRUE(quxbot.allowed("/example/"));
  EXPECT_TRUE(quxbot.allowed("/image.gif"));

  auto other = RobotsRules::parse(kSimpleExample, "ParleyBot");
  EXPECT_FALSE(other.allowed("/image.gif"));
  EXPECT_FALSE(other.allowed("/a/b/image.gif"));
  EXPECT_TRUE(other.allowed("/image.gif?size=2"));  // '$': the .gif must end the path
  EXPECT_FALSE(other.allowed("/example/"));
  EXPECT_FALSE(other.allowed("/example/page.html"));
  EXPECT_TRUE(other.allowed("/publications/"));
  EXPECT_TRUE(other.allowed("/anything-else"));
}

TEST(RobotsTest, Rfc9309LongestMatchExample) {
  constexpr std::string_view body =
      "User-Agent: foobot\n"
      "Allow: /example/page/\n"
      "Disallow: /example/page/disallowed.gif\n";
  auto rules = RobotsRules::parse(body, "foobot");
  EXPECT_TRUE(rules.allowed("/example/page/"));
  EXPECT_TRUE(rules.allowed("/example/page/allowed.gif"));
  EXPECT_FALSE(rules.allowed("/example/page/disallowed.gif"));
}

// RFC 9309 §2.2.2: paths compared with their percent-encoding normalised.
TEST(RobotsTest, Rfc9309PercentEncoding) {
  auto rules = RobotsRules::parse(
      "User-agent: *\n"
      "Disallow: /foo/bar?baz=quz\n"
      "Disallow: /foo/bar/\xE3\x83\x84\n"
      "Disallow: /a/%E3%83%84\n"
      "Disallow: /foo/bar/%62%61%7A\n",
      "ParleyBot");
  EXPECT_FALSE(rules.allowed("/foo/bar?baz=quz"));
  EXPECT_FALSE(rules.allowed("/foo/bar/%E3%83%84"));
  EXPECT_FALSE(rules.allowed("/foo/bar/\xE3\x83\x84"));
  EXPECT_FALSE(rules.allowed("/a/%e3%83%84"));
  EXPECT_FALSE(rules.allowed("/foo/bar/baz"));
  EXPECT_TRUE(rules.allowed("/foo/bar/qux"));
}

// Google's "Order of precedence for rules" table.
TEST(RobotsTest, GooglePrecedenceExamples) {
  auto check = [](std::string_view rules, std::string_view path, bool expected) {
    std::string body = "user-agent: *\n" + std::string(rules);
    EXPECT_EQ(RobotsRules::parse(body, "ParleyBot").allowed(path), expected) << rules << path;
  };
  check("allow: /p\ndisallow: /\n", "/page", true);
  check("allow: /folder\ndisallow: /folder\n", "/folder/page", true);  // a tie: Allow
  check("allow: /page\ndisallow: /*.htm\n", "/page.htm", false);       // longer wins
  check("allow: /$\ndisallow: /\n", "/", true);
  check("allow: /$\ndisallow: /\n", "/page.htm", false);
}

// Google's path matching examples.
TEST(RobotsTest, GooglePatternExamples) {
  auto matches = [](std::string_view pattern, std::string_view path) {
    return path_pattern_matches(normalize_path_pattern(pattern), path);
  };
  for (const char* p : {"/fish", "/fish.html", "/fish/salmon.html", "/fishheads",
                        "/fishheads/yummy.html", "/fish.php?id=anything"}) {
    EXPECT_TRUE(matches("/fish", p)) << p;
    EXPECT_TRUE(matches("/fish*", p)) << p;
  }
  for (const char* p : {"/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"}) {
    EXPECT_FALSE(matches("/fish", p)) << p;
  }
  EXPECT_TRUE(matches("/fish/", "/fish/?id=anything"));
  EXPECT_FALSE(matches("/fish/", "/fish"));
  EXPECT_FALSE(matches("/fish/", "/fish.html"));
  for (const char* p :
       {"/index.php", "/filename.php", "/folder/filename.php", "/folder/filename.php?parameters",
        "/folder/any.php.file.html", "/filename.php/"}) {
    EXPECT_TRUE(matches("/*.php", p)) << p;
  }
  EXPECT_FALSE(matches("/*.php", "/"));
  EXPECT_FALSE(matches("/*.php", "/windows.PHP"));
  for (const char* p : {"/filename.php", "/folder/filename.php"}) {
    EXPECT_TRUE(matches("/*.php$", p)) << p;
  }
  for (const char* p :
       {"/filename.php?parameters", "/filename.php/", "/filename.php5", "/windows.PHP"}) {
    EXPECT_FALSE(matches("/*.php$", p)) << p;
  }
  EXPECT_TRUE(matches("/fish*.php", "/fish.php"));
  EXPECT_TRUE(matches("/fish*.php", "/fishheads/catfish.php?parameters"));
  EXPECT_FALSE(matches("/fish*.php", "/Fish.PHP"));
  EXPECT_TRUE(matches("/", "/anything"));
  EXPECT_TRUE(matches("*", "/anything"));
  EXPECT_TRUE(matches("/a$b", "/a$b/c"));  // '$' inside a pattern is a plain character
  EXPECT_TRUE(matches("/a*b$", "/ab"));
  EXPECT_TRUE(matches("/a*b$", "/abab"));  // the last piece is found at the end, not first
  EXPECT_FALSE(matches("/a*b$", "/aba"));
  EXPECT_TRUE(matches("/a*b*c", "/a-c-b-c"));
  EXPECT_FALSE(matches("/a*b*c", "/a-c-b"));
  EXPECT_TRUE(matches("/a**$", "/a/x"));
  EXPECT_TRUE(matches("$", "/"));  // read as "/$"
  EXPECT_FALSE(matches("$", "/x"));
  EXPECT_TRUE(matches("/ab*ba$", "/abba"));
  EXPECT_FALSE(matches("/ab*ba$", "/aba"));  // pieces may not overlap
}

TEST(RobotsTest, ManyStarsAgainstALongPathNeedNoBacktracking) {
  std::string pattern = "/";
  for (int i = 0; i < 2000; ++i) pattern += "*a";
  EXPECT_TRUE(path_pattern_matches(pattern + "$", "/" + std::string(2000, 'a')));
  EXPECT_FALSE(path_pattern_matches(pattern + "$", "/" + std::string(1999, 'a') + "b"));
  EXPECT_FALSE(path_pattern_matches(pattern + "b", "/" + std::string(5000, 'a')));
}

TEST(RobotsTest, OurGroupByProductTokenCaseInsensitively) {
  constexpr std::string_view body =
      "User-agent: *\n"
      "Disallow: /\n"
      "\n"
      "User-agent: parleybot/2.0 (whatever follows)\n"
      "Disallow: /private/\n"
      "Crawl-delay: 2.5\n"
      "\n"
      "User-agent: ParleyBotExtra\n"  // another token, not ours
      "Disallow: /public/\n"
      "\n"
      "User-agent: PARLEYBOT\n"  // a second group for us: combined with the first
      "Disallow: /drafts/\n";
  auto rules = RobotsRules::parse(body, "ParleyBot");
  EXPECT_TRUE(rules.allowed("/"));
  EXPECT_TRUE(rules.allowed("/public/page"));
  EXPECT_FALSE(rules.allowed("/private/x"));
  EXPECT_FALSE(rules.allowed("/drafts/x"));
  ASSERT_TRUE(rules.crawl_delay_seconds());
  EXPECT_DOUBLE_EQ(*rules.crawl_delay_seconds(), 2.5);

  auto someone_else = RobotsRules::parse(body, "OtherBot");
  EXPECT_FALSE(someone_else.allowed("/public/page"));
  EXPECT_FALSE(someone_else.crawl_delay_seconds());
}

TEST(RobotsTest, StarGroupsCombinedAndOneGroupForManyAgents) {
  constexpr std::string_view body =
      "User-agent: *\n"
      "Disallow: /a/\n"
      "User-agent: *\n"  // a new group after rules; combined with the first
      "Disallow: /b/\n"
      "Crawl-delay: 7\n"
      "User-agent: googlebot\n"
      "User-agent: ParleyBot\n"
      "Disallow: /c/\n";
  auto star = RobotsRules::parse(body, "Other");
  EXPECT_FALSE(star.allowed("/a/x"));
  EXPECT_FALSE(star.allowed("/b/x"));
  EXPECT_TRUE(star.allowed("/c/x"));
  EXPECT_DOUBLE_EQ(star.crawl_delay_seconds().value_or(-1), 7);
  auto ours = RobotsRules::parse(body, "ParleyBot");
  EXPECT_TRUE(ours.allowed("/a/x"));
  EXPECT_FALSE(ours.allowed("/c/x"));
  EXPECT_FALSE(ours.crawl_delay_seconds());
}

TEST(RobotsTest, RobotsTxtItselfIsAlwaysAllowed) {
  auto rules = RobotsRules::parse("User-agent: *\nDisallow: /\n", "ParleyBot");
  EXPECT_FALSE(rules.allowed("/"));
  EXPECT_FALSE(rules.allowed("/index.html"));
  EXPECT_TRUE(rules.allowed("/robots.txt"));
  EXPECT_TRUE(RobotsRules::disallow_all().allowed("/robots.txt"));
  EXPECT_FALSE(RobotsRules::disallow_all().allowed("/"));
  EXPECT_FALSE(RobotsRules::disallow_all().allowed("/a?b"));
  EXPECT_TRUE(RobotsRules::allow_all().allowed("/anything"));
  EXPECT_FALSE(RobotsRules::allow_all().crawl_delay_seconds());
  EXPECT_TRUE(RobotsRules::allow_all().sitemaps().empty());
}

TEST(RobotsTest, EmptyDisallowAllowsAndNoMatchingGroupAllows) {
  EXPECT_TRUE(RobotsRules::parse("User-agent: *\nDisallow:\n", "ParleyBot").allowed("/x"));
  EXPECT_TRUE(RobotsRules::parse("User-agent: other\nDisallow: /\n", "ParleyBot").allowed("/x"));
  EXPECT_TRUE(RobotsRules::parse("", "ParleyBot").allowed("/x"));
  // Rules before any user-agent line belong to no group.
  EXPECT_TRUE(RobotsRules::parse("Disallow: /\nUser-agent: *\n", "ParleyBot").allowed("/x"));
}

TEST(RobotsTest, SitemapLinesWhereverTheyAre) {
  constexpr std::string_view body =
      "Sitemap: https://example.com/sitemap.xml\n"
      "User-agent: *\n"
      "sitemap:https://example.com/news.xml.gz   # a comment\n"
      "Disallow: /tmp/\n"
      "SITEMAP: https://example.com/sitemap.xml\n"  // the same one again: kept once
      "User-agent: other\n"
      "Sitemap: https://cdn.example.com/more.xml\n";
  auto rules = RobotsRules::parse(body, "ParleyBot");
  EXPECT_EQ(rules.sitemaps(), (std::vector<std::string>{"https://example.com/sitemap.xml",
                                                        "https://example.com/news.xml.gz",
                                                        "https://cdn.example.com/more.xml"}));
  EXPECT_FALSE(rules.allowed("/tmp/a"));  // a Sitemap line does not end the '*' group
}

TEST(RobotsTest, ToleratesGarbageCommentsLineEndingsAndSpelling) {
  std::string body =
      "\xEF\xBB\xBFUser-agent: * # everyone\r\n"
      "this is not a rule\r"
      "Disallow /nocolon/\r\n"
      "dissallow: /misspelt/\n"
      "Allow: /nocolon/open/\n"
      "Crawl-delay: soon\n"
      "<html><body>Not Found</body></html>\n"
      "Unknown-directive: x\n"
      "Disallow: /after-garbage/\n";
  auto rules = RobotsRules::parse(body, "ParleyBot");
  EXPECT_FALSE(rules.allowed("/nocolon/x"));
  EXPECT_TRUE(rules.allowed("/nocolon/open/x"));
  EXPECT_FALSE(rules.allowed("/misspelt/"));
  EXPECT_FALSE(rules.allowed("/after-garbage/"));
  EXPECT_FALSE(rules.crawl_delay_seconds());  // "soon" is no number
  EXPECT_TRUE(rules.allowed("/"));
}

TEST(RobotsTest, CrawlDelayMustBeANonNegativeNumber) {
  EXPECT_FALSE(RobotsRules::parse("User-agent: *\nCrawl-delay: -1\n", "P").crawl_delay_seconds());
  EXPECT_FALSE(RobotsRules::parse("User-agent: *\nCrawl-delay: nan\n", "P").crawl_delay_seconds());
  EXPECT_DOUBLE_EQ(
      RobotsRules::parse("User-agent: *\nCrawl-delay: 10\n", "P").crawl_delay_seconds().value(),
      10);
  // The first valid one of the chosen group.
  EXPECT_DOUBLE_EQ(RobotsRules::parse("User-agent: *\nCrawl-delay: x\nCrawl-delay: 1\n"
                                      "Crawl-delay: 3\n",
                                      "P")
                       .crawl_delay_seconds()
                       .value(),
                   1);
}

TEST(RobotsTest, ReadsOnly500KiB) {
  std::string body = "User-agent: *\nDisallow: /early/\n";
  body += std::string(RobotsRules::kMaxBytes, '#');
  body += "\nDisallow: /late/\n";
  auto rules = RobotsRules::parse(body, "ParleyBot");
  EXPECT_FALSE(rules.allowed("/early/"));
  EXPECT_TRUE(rules.allowed("/late/"));
}

}  // namespace
}  // namespace parley
