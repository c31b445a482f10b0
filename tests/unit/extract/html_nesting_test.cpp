// A page's nesting capped before gumbo parses it: tags past the cap left out with their end tags,
// text kept; what is not markup (raw text, comments, quoted attributes) and elements that cannot
// nest are not counted; SVG's "/>" closes, HTML's does not.
#include "extract/html_nesting.h"

#include <gtest/gtest.h>

#include "extract/html.h"

namespace parley {
namespace {

size_t count(std::string_view text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string_view::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

TEST(HtmlNesting, APageWithinTheCapIsReadAsItIs) {
  EXPECT_FALSE(html::cap_nesting(repeat("<div>", 4) + "x" + repeat("</div>", 4), 4));
  EXPECT_FALSE(html::cap_nesting("<p>a<p>b<li>c<br><img src=x>", 1));
}

TEST(HtmlNesting, TagsPastTheCapAreLeftOutWithTheirEndTagsAndTheirTextKept) {
  auto capped =
      html::cap_nesting(repeat("<div>", 6) + "deep" + repeat("</div>", 6) + "<b>after</b>", 4);
  ASSERT_TRUE(capped);
  EXPECT_EQ(*capped, repeat("<div>", 4) + "deep" + repeat("</div>", 4) + "<b>after</b>");
}

TEST(HtmlNesting, ElementsThatCannotNestAreNotCounted) {
  // A list of 2,000 items whose end tags are left out, and paragraphs and cells likewise.
  EXPECT_FALSE(html::cap_nesting("<ul>" + repeat("<li>item", 2000) + "</ul>", 8));
  EXPECT_FALSE(
      html::cap_nesting(repeat("<p>para", 2000) + "<table>" + repeat("<tr><td>a<td>b", 2000), 8));
}

TEST(HtmlNesting, RawTextCommentsAndQuotedAttributesAreNotMarkup) {
  std::string page = "<script>var s = '" + repeat("<div>", 50) + "';</script>" + "<!-- " +
                     repeat("<div>", 50) + " -->" + "<a title='>" + repeat("<div>", 3) +
                     "'>link</a><textarea>" + repeat("<span>", 50) + "</TEXTAREA>";
  EXPECT_FALSE(html::cap_nesting(page, 2));
}

TEST(HtmlNesting, SvgSelfClosingTagsCloseButHtmlOnesDoNot) {
  EXPECT_FALSE(html::cap_nesting("<svg>" + repeat("<path d='M0 0'/>", 100) + "</svg>", 4));
  // In HTML, "<div/>" opens a div, and an HTML tag ends SVG content.
  EXPECT_TRUE(html::cap_nesting(repeat("<div/>", 10), 4));
  EXPECT_TRUE(html::cap_nesting("<svg><div/>" + repeat("<div/>", 10), 4));
}

TEST(HtmlNesting, StrayEndTagsCloseNothing) {
  auto capped = html::cap_nesting(repeat("</span>", 100) + repeat("<div>", 3) + "x", 2);
  ASSERT_TRUE(capped);
  EXPECT_EQ(count(*capped, "<div>"), 2u);
}

// Nesting costs gumbo the square of its depth: 200,000 nested elements took minutes before the
// cap. The page still gives its text.
TEST(HtmlNesting, AHostilelyDeepPageIsReadFlatPastTheCap) {
  std::string page =
      repeat("<div>", 200'000) + "deep text" + repeat("</div>", 200'000) + "<p>after</p>";
  auto capped = html::cap_nesting(page);
  ASSERT_TRUE(capped);
  EXPECT_EQ(count(*capped, "<div>"), static_cast<size_t>(html::kMaxNesting));
  EXPECT_EQ(count(*capped, "</div>"), static_cast<size_t>(html::kMaxNesting));
  ExtractedDocument doc = extract_html(page);
  ASSERT_EQ(doc.blocks.size(), 2u);
  EXPECT_EQ(doc.blocks[0].text, "deep text");
  EXPECT_EQ(doc.blocks[1].text, "after");
}

}  // namespace
}  // namespace parley
