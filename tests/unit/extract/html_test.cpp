// HTML pages to blocks: what is dropped, which element is the main content, headings, lists,
// tables, pre, spacing, entities, and what the page says about itself (title, links, canonical,
// base, robots).
#include "extract/html.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

using Texts = std::vector<std::string>;

Texts texts(const ExtractedDocument& doc) {
  Texts out;
  for (const TextBlock& b : doc.blocks) out.push_back(b.text);
  return out;
}

TEST(ExtractHtml, DropsChromeScriptsAndHiddenElements) {
  ExtractedDocument doc = extract_html(R"(<!doctype html><html><head><title>T</title>
    <style>p{color:red}</style><script>var secret = 1;</script></head><body>
    <header>Site banner</header><nav><a href="/a">Menu item</a></nav>
    <p>Visible text.</p>
    <noscript>Enable JavaScript</noscript><template><p>Template</p></template>
    <svg><text>Vector</text></svg><form><label>Search</label></form>
    <iframe>frame</iframe><aside>Related</aside>
    <div hidden>Hidden attr</div><div aria-hidden="true">Aria hidden</div>
    <div style="color: red; DISPLAY : none">Display none</div>
    <footer>Copyright</footer></body></html>)");
  EXPECT_EQ(texts(doc), (Texts{"Visible text."}));
}

TEST(ExtractHtml, PrefersMainOrArticleOrRoleMain) {
  EXPECT_EQ(texts(extract_html("<body><div>Menu</div><main><p>Inside main</p></main><p>After</p>")),
            (Texts{"Inside main"}));
  EXPECT_EQ(texts(extract_html("<body><div>Menu</div><div role=\"main\"><p>Role main</p></div>")),
            (Texts{"Role main"}));
  EXPECT_EQ(texts(extract_html("<body><p>Intro</p><article><p>The article</p></article>")),
            (Texts{"The article"}));
  // Two articles: a list of them, so the whole body is read.
  EXPECT_EQ(texts(extract_html("<body><p>Intro</p><article>One</article><article>Two</article>")),
            (Texts{"Intro", "One", "Two"}));
  // An empty <main> is no reason to lose the page.
  EXPECT_EQ(texts(extract_html("<body><main></main><p>Body text</p>")), (Texts{"Body text"}));
}

TEST(ExtractHtml, KeepsHeaderAndFooterInsideAnArticle) {
  ExtractedDocument doc = extract_html(
      "<body><header>Site</header><article><header><h1>Post title</h1></header><p>Body.</p>"
      "<footer>Written by Ann</footer></article><footer>Site footer</footer></body>");
  EXPECT_EQ(texts(doc), (Texts{"Post title", "Body.", "Written by Ann"}));
  EXPECT_EQ(doc.blocks[0].kind, BlockKind::kHeading);
}

TEST(ExtractHtml, HeadingsListsAndPre) {
  ExtractedDocument doc = extract_html(
      "<h1>Museum</h1><h3>Opening <em>hours</em></h3><ul><li>Monday: closed</li>"
      "<li>Tuesday<ul><li>Nested</li></ul></li></ul><pre>  code\n    indented</pre>");
  ASSERT_EQ(doc.blocks.size(), 6u);
  EXPECT_EQ(doc.blocks[0].kind, BlockKind::kHeading);
  EXPECT_EQ(doc.blocks[0].level, 1);
  EXPECT_EQ(doc.blocks[1].text, "Opening hours");
  EXPECT_EQ(doc.blocks[1].level, 3);
  EXPECT_EQ(doc.blocks[2].kind, BlockKind::kListItem);
  EXPECT_EQ(doc.blocks[2].text, "Monday: closed");
  EXPECT_EQ(doc.blocks[3].text, "Tuesday");
  EXPECT_EQ(doc.blocks[4].text, "Nested");
  EXPECT_EQ(doc.blocks[4].kind, BlockKind::kListItem);
  EXPECT_EQ(doc.blocks[5].kind, BlockKind::kPreformatted);
  EXPECT_EQ(doc.blocks[5].text, "  code\n    indented");
  EXPECT_EQ(doc.title, "Museum");  // no <title>: the first heading
}

// A list item or heading inside <pre> is a block of its own, trimmed like any item; only the
// preformatted text keeps its leading spaces.
TEST(ExtractHtml, AnItemInsidePreIsTrimmed) {
  ExtractedDocument doc = extract_html("<pre>  code<li>  item\n</li><h2>  Title </h2></pre>");
  ASSERT_EQ(doc.blocks.size(), 3u);
  EXPECT_EQ(doc.blocks[0].kind, BlockKind::kPreformatted);
  EXPECT_EQ(doc.blocks[0].text, "  code");
  EXPECT_EQ(doc.blocks[1].kind, BlockKind::kListItem);
  EXPECT_EQ(doc.blocks[1].text, "item");
  EXPECT_EQ(doc.blocks[2].kind, BlockKind::kHeading);
  EXPECT_EQ(doc.blocks[2].text, "Title");
}

TEST(ExtractHtml, TablesWithRowHeadersColumnHeadersAndNone) {
  ExtractedDocument row_headers = extract_html(
      "<table><tr><th>Adult ticket</th><td>45 EUR</td></tr>"
      "<tr><th>Child ticket</th><td>20 EUR</td><td>free under 6</td></tr></table>");
  EXPECT_EQ(texts(row_headers),
            (Texts{"Adult ticket: 45 EUR", "Child ticket: 20 EUR | free under 6"}));
  EXPECT_EQ(row_headers.blocks[0].kind, BlockKind::kTableRow);
  ExtractedDocument column_headers = extract_html(
      "<table><thead><tr><th>Ticket</th><th>Price</th></tr></thead>"
      "<tbody><tr><td>Adult</td><td>45 "
      "EUR</td></tr><tr><td>Child</td><td></td></tr></tbody></table>");
  EXPECT_EQ(texts(column_headers), (Texts{"Ticket: Adult; Price: 45 EUR", "Ticket: Child"}));
  ExtractedDocument plain = extract_html(
      "<table><caption>Rooms</caption><tr><td>Red room</td><td>2 beds</td></tr></table>");
  EXPECT_EQ(texts(plain), (Texts{"Rooms", "Red room | 2 beds"}));
}

TEST(ExtractHtml, InlineSpacingAndEntities) {
  ExtractedDocument doc = extract_html(
      "<p>Caf&eacute;\n   <b>open</b><i>ing</i>   &amp; <a href=x>more</a>&nbsp;info&#33;</p>"
      "<p>Street 1<br>City</p><div>One<div>Two</div>Three</div>");
  EXPECT_EQ(texts(doc),
            (Texts{"Café opening & more info!", "Street 1\nCity", "One", "Two", "Three"}));
}

TEST(ExtractHtml, PageFacts) {
  ExtractedDocument doc = extract_html(R"(<html><head>
    <title>  The   Museum
    </title><link rel="Canonical" href=" https://example.com/museum ">
    <base href="https://example.com/"><meta name="ROBOTS" content="NoIndex, nofollow">
    </head><body><nav><a href="/a">A</a></nav><a href="/b">B</a><a href="/a">A again</a>
    <a href="">empty</a><map><area href="/c"></map><template><a href="/t">t</a></template>
    <p>Text</p></body></html>)");
  EXPECT_EQ(doc.title, "The Museum");
  EXPECT_EQ(doc.canonical, "https://example.com/museum");
  EXPECT_EQ(doc.base_href, "https://example.com/");
  EXPECT_TRUE(doc.noindex);
  EXPECT_TRUE(doc.nofollow);
  EXPECT_EQ(doc.links, (Texts{"/a", "/b", "/c"}));
}

TEST(ExtractHtml, RobotsNoneAndDefaults) {
  ExtractedDocument none = extract_html("<meta name=robots content=none><p>x</p>");
  EXPECT_TRUE(none.noindex);
  EXPECT_TRUE(none.nofollow);
  ExtractedDocument plain = extract_html("<p>x</p>");
  EXPECT_FALSE(plain.noindex);
  EXPECT_FALSE(plain.nofollow);
  EXPECT_FALSE(plain.canonical.has_value());
  EXPECT_FALSE(plain.base_href.has_value());
  EXPECT_EQ(plain.title, "");
}

TEST(ExtractHtml, DeepNestingNeitherCrashesNorLosesText) {
  std::string page;
  for (int i = 0; i < 5000; ++i) page += "<div><span>";
  page += "deep text";
  ExtractedDocument doc = extract_html(page);
  ASSERT_FALSE(doc.blocks.empty());
  EXPECT_EQ(doc.blocks.back().text, "deep text");
}

TEST(ExtractHtml, TagSoupStillReads) {
  ExtractedDocument doc = extract_html("<p>One<p>Two</b></i><li>Three<td>Four");
  // A <td> outside a table is ignored, as a browser ignores it.
  EXPECT_EQ(texts(doc), (Texts{"One", "Two", "ThreeFour"}));
}

}  // namespace
}  // namespace parley
