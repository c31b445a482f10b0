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

TEST(HtmlParse, AnOrdinaryPageParsesWithinItsBudget) {
  auto parsed = html::parse_within("<title>T</title><p>One<p>Two", kTight);
  ASSERT_NE(parsed->root(), nullptr);
  EXPECT_EQ(parsed->root()->v.element.tag, GUMBO_TAG_HTML);
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
