// gumbo's parse under a CPU budget: an ordinary page parses, a page whose nesting would cost the
// parser minutes is abandoned at its budget with every block freed (the sanitizer build checks
// for leaks) and read as text without markup.
#include "extract/html_parse.h"

#include <gtest/gtest.h>

#include "extract/html.h"

namespace parley {
namespace {

std::string repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

constexpr html::ParseBudget kTight{20, 0};  // 20 ms of CPU, whatever the size

// A large ordinary page (about 500 KB of sections, headings, tables and links) parses whole
// within the default budget, which leaves it room several times over (in a sanitizer build too).
TEST(HtmlParse, ALargeOrdinaryPageParsesWithinTheDefaultBudget) {
  std::string page = "<html><head><title>T</title></head><body><main>";
  for (int i = 0; i < 2'000; ++i)
    page += "<section><h2>Gallery " + std::to_string(i) +
            "</h2><p>Open <b>daily</b> from nine, "
            "<a href=/g" +
            std::to_string(i) +
            ">details</a>.</p><table><tr><th>Day<th>Hours</tr>"
            "<tr><td>Monday<td>9-17</tr></table></section>";
  page += "</main></body></html>";
  auto parsed = html::parse_within(page);
  ASSERT_NE(parsed->root(), nullptr);
  EXPECT_EQ(parsed->root()->v.element.tag, GUMBO_TAG_HTML);
}

// 500,000 nested <span>s parse well within the budget; the tree is freed block by block, not by
// gumbo's recursive destroy, which overflowed the stack at 400,000 levels.
TEST(HtmlParse, AVeryDeepTreeIsFreedWithoutRecursion) {
  std::string page = repeat("<span>", 500'000) + "deep";
  ExtractedDocument doc = extract_html(page);
  ASSERT_FALSE(doc.blocks.empty());
  EXPECT_EQ(doc.blocks.back().text, "deep");
}

// Text costs gumbo the depth of its stack per character when a formatting element is open, and
// allocates almost nothing: the budget is a timer of the thread's CPU time, not a check made when
// gumbo allocates (which this page passed by 9.4 s against 0.5).
TEST(HtmlParse, TextUnderADeepStackIsBoundedToo) {
  std::string page = repeat("<span>", 40'000) + "<b>" + std::string(700'000, 'x');
  EXPECT_EQ(html::parse_within(page, kTight)->root(), nullptr);
  ExtractedDocument doc = extract_html(page, kTight);
  ASSERT_EQ(doc.blocks.size(), 1u);
  EXPECT_EQ(doc.blocks[0].text, std::string(700'000, 'x'));
}

// Each of these nests as deep as it is long in gumbo's tree builder, whose cost grows with the
// square of the depth: 200,000 levels took minutes. Past its budget the parse is abandoned and the
// text still read.
TEST(HtmlParse, APageNestedPastTheBudgetIsReadAsText) {
  for (const std::string& unit : {std::string("<div>"), std::string("<li><dd>"),
                                  std::string("<b><div></b>"), std::string("<optgroup><hr>")}) {
    std::string page = "<svg><style>" + repeat(unit, 60'000) + "deep &amp; text" + "<p>after</p>";
    EXPECT_EQ(html::parse_within(page, kTight)->root(), nullptr) << unit;
    ExtractedDocument doc = extract_html(page, kTight);
    ASSERT_FALSE(doc.blocks.empty()) << unit;
    EXPECT_EQ(doc.blocks.front().text, "deep & text") << unit;
    EXPECT_EQ(doc.blocks.back().text, "after") << unit;
  }
}

// Unclosed scripts and a '<' with no '>' after it are read once each, not once per opener.
TEST(HtmlParse, TheTextWithoutMarkupReadsUnclosedOpenersOnce) {
  std::string page = repeat("<script>", 40'000) + repeat("</a>", 40'000) + "tail";
  EXPECT_EQ(html::text_without_markup(page), "tail");
  EXPECT_EQ(html::text_without_markup("if a<b then <c and " + repeat("<d ", 100'000)),
            "if a<b then <c and " + repeat("<d ", 100'000));
}

TEST(HtmlParse, TheTextWithoutMarkupLeavesOutTagsCommentsScriptsAndStyles) {
  EXPECT_EQ(
      html::text_without_markup(
          "<html><head><title>Shop</title><style>p{}</style><script>var a = '<p>';</script>"
          "</head><body><!-- note --><h1>Hours</h1><p>Open 9&ndash;5 &lt;daily&gt; &#233;t&#xE9;"
          "<br>Closed <b>Sundays</b></p></body></html>"),
      "Shop\nHours\n\nOpen 9&ndash;5 <daily> été\nClosed Sundays\n");
}

}  // namespace
}  // namespace parley
