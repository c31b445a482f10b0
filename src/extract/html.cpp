#include "extract/html.h"

#include <gumbo.h>

#include <string>
#include <unordered_set>
#include <vector>

#include "extract/html_blocks.h"
#include "extract/html_nodes.h"
#include "extract/html_parse.h"

namespace parley {

namespace {

using namespace html;

// Everything a page says about itself, read from the whole tree without recursion.
void read_page_facts(const GumboNode* root, ExtractedDocument& doc, std::string& title) {
  std::unordered_set<std::string> seen;
  std::vector<const GumboNode*> stack{root};
  bool have_title = false;
  while (!stack.empty()) {
    const GumboNode* node = stack.back();
    stack.pop_back();
    if (!is_element(node)) continue;  // a template's content is a GUMBO_NODE_TEMPLATE: skipped
    GumboTag tag = node->v.element.tag;
    if (tag == GUMBO_TAG_SVG || tag == GUMBO_TAG_MATH) continue;
    if (tag == GUMBO_TAG_A || tag == GUMBO_TAG_AREA) {
      if (const char* href = attribute(node, "href")) {
        std::string link(trim_space(href));
        if (!link.empty() && seen.insert(link).second) doc.links.push_back(std::move(link));
      }
    } else if (tag == GUMBO_TAG_TITLE && !have_title) {
      have_title = true;
      bool at_space = true;
      const GumboVector& kids = children(node);
      for (unsigned i = 0; i < kids.length; ++i)
        if (is_text(child(kids, i))) append_collapsed(title, child(kids, i)->v.text.text, at_space);
    } else if (tag == GUMBO_TAG_LINK && !doc.canonical) {
      const char* rel = attribute(node, "rel");
      const char* href = attribute(node, "href");
      if (rel != nullptr && href != nullptr && has_token(rel, "canonical") &&
          !trim_space(href).empty())
        doc.canonical = std::string(trim_space(href));
    } else if (tag == GUMBO_TAG_BASE && !doc.base_href) {
      if (const char* href = attribute(node, "href")) doc.base_href = std::string(trim_space(href));
    } else if (tag == GUMBO_TAG_META) {
      const char* name = attribute(node, "name");
      const char* content = attribute(node, "content");
      if (name != nullptr && content != nullptr && to_lower_ascii(trim_space(name)) == "robots") {
        bool none = has_token(content, "none");
        doc.noindex = doc.noindex || none || has_token(content, "noindex");
        doc.nofollow = doc.nofollow || none || has_token(content, "nofollow");
      }
    }
    const GumboVector& kids = children(node);
    for (unsigned i = kids.length; i-- > 0;) stack.push_back(child(kids, i));
  }
}

// The element the main content is in: <main> or role="main", else the only <article>; nullptr
// when the page has neither.
const GumboNode* find_main(const GumboNode* body) {
  std::vector<const GumboNode*> stack{body};
  const GumboNode* article = nullptr;
  int articles = 0;
  while (!stack.empty()) {
    const GumboNode* node = stack.back();
    stack.pop_back();
    if (!is_element(node) || is_dropped_tag(node->v.element.tag) || is_hidden(node)) continue;
    GumboTag tag = node->v.element.tag;
    const char* role = attribute(node, "role");
    if (tag == GUMBO_TAG_MAIN || (role != nullptr && to_lower_ascii(role) == "main")) return node;
    if (tag == GUMBO_TAG_ARTICLE && articles++ == 0) article = node;
    const GumboVector& kids = children(node);
    for (unsigned i = kids.length; i-- > 0;) stack.push_back(child(kids, i));
  }
  return articles == 1 ? article : nullptr;
}

const GumboNode* find_body(const GumboNode* root) {
  if (!is_element(root)) return root;
  const GumboVector& kids = children(root);
  for (unsigned i = 0; i < kids.length; ++i) {
    const GumboNode* node = child(kids, i);
    if (is_element(node) && node->v.element.tag == GUMBO_TAG_BODY) return node;
  }
  return root;
}

// A page whose parse ran out of budget: its text without markup, a paragraph per line.
ExtractedDocument text_only(std::string_view page) {
  ExtractedDocument doc;
  std::string text = text_without_markup(page);
  size_t at = 0;
  while (at < text.size()) {
    size_t end = std::min(text.find('\n', at), text.size());
    std::string line;
    bool at_space = true;
    append_collapsed(line, std::string_view(text).substr(at, end - at), at_space);
    std::string_view trimmed = trim_space(line);
    if (!trimmed.empty()) doc.blocks.push_back({BlockKind::kParagraph, 0, std::string(trimmed)});
    at = end + 1;
  }
  return doc;
}

}  // namespace

ExtractedDocument extract_html(std::string_view utf8, const html::ParseBudget& budget) {
  ExtractedDocument doc;
  auto parsed = html::parse_within(utf8, budget);
  if (parsed->root() == nullptr) return text_only(utf8);
  std::string title;
  read_page_facts(parsed->root(), doc, title);
  const GumboNode* body = find_body(parsed->root());
  const GumboNode* main = find_main(body);
  html::write_blocks(main != nullptr ? main : body, main != nullptr, doc.blocks);
  if (doc.blocks.empty() && main != nullptr) html::write_blocks(body, false, doc.blocks);
  parsed.reset();
  doc.title = std::string(trim_space(title));
  if (doc.title.empty()) {
    for (const TextBlock& block : doc.blocks) {
      if (block.kind == BlockKind::kHeading) {
        doc.title = block.text;
        break;
      }
    }
  }
  return doc;
}

}  // namespace parley
