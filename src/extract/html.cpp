#include "extract/html.h"

#include <gumbo.h>

#include <string>
#include <unordered_set>
#include <vector>

namespace parley {

namespace {

// Deeper than this, an element's text is read without structure: no recursion grows with a
// page's nesting, however deep a hostile page nests.
constexpr int kMaxDepth = 200;

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lower(c);
  return out;
}

const char* attribute(const GumboNode* node, const char* name) {
  const GumboAttribute* a = gumbo_get_attribute(&node->v.element.attributes, name);
  return a == nullptr ? nullptr : a->value;
}

// Whether the white-space separated `list` holds `token`, case-insensitively.
bool has_token(std::string_view list, std::string_view token) {
  std::string l = to_lower(list);
  for (char& c : l)
    if (c == ',' || c == '\t' || c == '\n' || c == '\r' || c == '\f') c = ' ';
  size_t pos = 0;
  while (pos < l.size()) {
    size_t end = l.find(' ', pos);
    if (end == std::string::npos) end = l.size();
    if (std::string_view(l).substr(pos, end - pos) == token) return true;
    pos = end + 1;
  }
  return false;
}

bool is_hidden(const GumboNode* node) {
  if (attribute(node, "hidden") != nullptr) return true;
  if (const char* aria = attribute(node, "aria-hidden");
      aria != nullptr && to_lower(aria) == "true")
    return true;
  if (const char* style = attribute(node, "style"); style != nullptr) {
    std::string s;
    for (char c : std::string_view(style))
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') s.push_back(lower(c));
    if (s.find("display:none") != std::string::npos ||
        s.find("visibility:hidden") != std::string::npos)
      return true;
  }
  return false;
}

bool is_dropped_tag(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_SCRIPT:
    case GUMBO_TAG_STYLE:
    case GUMBO_TAG_NOSCRIPT:
    case GUMBO_TAG_TEMPLATE:
    case GUMBO_TAG_SVG:
    case GUMBO_TAG_MATH:
    case GUMBO_TAG_IFRAME:
    case GUMBO_TAG_FORM:
    case GUMBO_TAG_NAV:
    case GUMBO_TAG_ASIDE:
    case GUMBO_TAG_HEAD:
    case GUMBO_TAG_TITLE:
    case GUMBO_TAG_OBJECT:
    case GUMBO_TAG_EMBED:
    case GUMBO_TAG_CANVAS:
    case GUMBO_TAG_SELECT:
    case GUMBO_TAG_BUTTON:
    case GUMBO_TAG_TEXTAREA:
    case GUMBO_TAG_INPUT:
    case GUMBO_TAG_AUDIO:
    case GUMBO_TAG_VIDEO:
    case GUMBO_TAG_MAP:
      return true;
    default:
      return false;
  }
}

bool is_block_tag(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_HTML:
    case GUMBO_TAG_BODY:
    case GUMBO_TAG_P:
    case GUMBO_TAG_DIV:
    case GUMBO_TAG_SECTION:
    case GUMBO_TAG_ARTICLE:
    case GUMBO_TAG_MAIN:
    case GUMBO_TAG_HEADER:
    case GUMBO_TAG_FOOTER:
    case GUMBO_TAG_BLOCKQUOTE:
    case GUMBO_TAG_ADDRESS:
    case GUMBO_TAG_FIGURE:
    case GUMBO_TAG_FIGCAPTION:
    case GUMBO_TAG_DL:
    case GUMBO_TAG_DT:
    case GUMBO_TAG_DD:
    case GUMBO_TAG_UL:
    case GUMBO_TAG_OL:
    case GUMBO_TAG_MENU:
    case GUMBO_TAG_HR:
    case GUMBO_TAG_CENTER:
    case GUMBO_TAG_DETAILS:
    case GUMBO_TAG_SUMMARY:
    case GUMBO_TAG_FIELDSET:
    case GUMBO_TAG_LEGEND:
    case GUMBO_TAG_HGROUP:
    case GUMBO_TAG_CAPTION:
    case GUMBO_TAG_TD:
    case GUMBO_TAG_TH:
    case GUMBO_TAG_TR:
    case GUMBO_TAG_OPTION:
      return true;
    default:
      return false;
  }
}

int heading_level(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_H1:
      return 1;
    case GUMBO_TAG_H2:
      return 2;
    case GUMBO_TAG_H3:
      return 3;
    case GUMBO_TAG_H4:
      return 4;
    case GUMBO_TAG_H5:
      return 5;
    case GUMBO_TAG_H6:
      return 6;
    default:
      return 0;
  }
}

bool is_element(const GumboNode* node) { return node->type == GUMBO_NODE_ELEMENT; }

bool is_text(const GumboNode* node) {
  return node->type == GUMBO_NODE_TEXT || node->type == GUMBO_NODE_WHITESPACE ||
         node->type == GUMBO_NODE_CDATA;
}

const GumboVector& children(const GumboNode* node) { return node->v.element.children; }

const GumboNode* child(const GumboVector& v, unsigned i) {
  return static_cast<const GumboNode*>(v.data[i]);
}

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
      if (name != nullptr && content != nullptr && to_lower(trim_space(name)) == "robots") {
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
    if (tag == GUMBO_TAG_MAIN || (role != nullptr && to_lower(role) == "main")) return node;
    if (tag == GUMBO_TAG_ARTICLE && articles++ == 0) article = node;
    const GumboVector& kids = children(node);
    for (unsigned i = kids.length; i-- > 0;) stack.push_back(child(kids, i));
  }
  return articles == 1 ? article : nullptr;
}

// Turns the main content's elements into blocks.
class BlockWriter {
 public:
  explicit BlockWriter(std::vector<TextBlock>& blocks) : blocks_(blocks) {}

  void walk(const GumboNode* node, bool in_section, int depth) {
    if (is_text(node)) {
      add_text(node->v.text.text);
      return;
    }
    if (!is_element(node)) return;
    GumboTag tag = node->v.element.tag;
    if (is_dropped_tag(tag) || is_hidden(node)) return;
    if ((tag == GUMBO_TAG_HEADER || tag == GUMBO_TAG_FOOTER) && !in_section) return;
    if (depth > kMaxDepth) {
      flat_text(node);
      return;
    }
    if (tag == GUMBO_TAG_ARTICLE || tag == GUMBO_TAG_MAIN) in_section = true;
    if (int level = heading_level(tag)) {
      within(BlockKind::kHeading, level, node, in_section, depth);
    } else if (tag == GUMBO_TAG_LI) {
      within(BlockKind::kListItem, 0, node, in_section, depth);
    } else if (tag == GUMBO_TAG_PRE || tag == GUMBO_TAG_LISTING || tag == GUMBO_TAG_XMP) {
      bool was_pre = pre_;
      pre_ = true;
      within(BlockKind::kPreformatted, 0, node, in_section, depth);
      pre_ = was_pre;
    } else if (tag == GUMBO_TAG_TABLE) {
      flush();
      table(node, in_section, depth);
    } else if (tag == GUMBO_TAG_BR) {
      line_break();
    } else if (is_block_tag(tag)) {
      flush();
      walk_children(node, in_section, depth);
      flush();
    } else {
      walk_children(node, in_section, depth);
    }
  }

  void flush() {
    std::string_view text = pre_ ? trim_newlines(buf_) : trim_space(buf_);
    if (!text.empty())
      blocks_.push_back({kind_, kind_ == BlockKind::kHeading ? level_ : 0, std::string(text)});
    buf_.clear();
    at_space_ = true;
  }

 private:
  static std::string_view trim_newlines(std::string_view s) {
    while (!s.empty() && (s.front() == '\n' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
      s.remove_suffix(1);
    return s;
  }

  void walk_children(const GumboNode* node, bool in_section, int depth) {
    const GumboVector& kids = children(node);
    for (unsigned i = 0; i < kids.length; ++i) walk(child(kids, i), in_section, depth + 1);
  }

  void within(BlockKind kind, int level, const GumboNode* node, bool in_section, int depth) {
    flush();
    BlockKind saved_kind = kind_;
    int saved_level = level_;
    kind_ = kind;
    level_ = level;
    walk_children(node, in_section, depth);
    flush();
    kind_ = saved_kind;
    level_ = saved_level;
  }

  void add_text(std::string_view text) {
    if (pre_) {
      buf_.append(text);
      at_space_ = false;
    } else {
      append_collapsed(buf_, text, at_space_);
    }
  }

  // <br>: a line break in a paragraph or preformatted text, a space in a heading, item or cell.
  void line_break() {
    if (pre_ || kind_ == BlockKind::kParagraph) {
      while (!buf_.empty() && buf_.back() == ' ') buf_.pop_back();
      if (!buf_.empty() && buf_.back() != '\n') buf_.push_back('\n');
      at_space_ = true;
    } else {
      add_text(" ");
    }
  }

  // The text of a subtree without structure (cells, too-deep content), read without recursion.
  void flat_text(const GumboNode* root) {
    std::vector<const GumboNode*> stack{root};
    while (!stack.empty()) {
      const GumboNode* node = stack.back();
      stack.pop_back();
      if (is_text(node)) {
        add_text(node->v.text.text);
        continue;
      }
      if (!is_element(node)) continue;
      GumboTag tag = node->v.element.tag;
      if (is_dropped_tag(tag) || is_hidden(node)) continue;
      if (tag == GUMBO_TAG_BR || is_block_tag(tag) || heading_level(tag) || tag == GUMBO_TAG_LI)
        add_text(" ");
      const GumboVector& kids = children(node);
      for (unsigned i = kids.length; i-- > 0;) stack.push_back(child(kids, i));
    }
  }

  std::string cell_text(const GumboNode* cell) {
    std::string saved = std::move(buf_);
    bool saved_space = at_space_, saved_pre = pre_;
    buf_.clear();
    at_space_ = true;
    pre_ = false;
    flat_text(cell);
    std::string text(trim_space(buf_));
    buf_ = std::move(saved);
    at_space_ = saved_space;
    pre_ = saved_pre;
    return text;
  }

  void table(const GumboNode* node, bool in_section, int depth) {
    std::vector<const GumboNode*> rows;
    const GumboVector& kids = children(node);
    for (unsigned i = 0; i < kids.length; ++i) {
      const GumboNode* part = child(kids, i);
      if (!is_element(part) || is_hidden(part)) continue;
      GumboTag tag = part->v.element.tag;
      if (tag == GUMBO_TAG_CAPTION) {
        within(BlockKind::kParagraph, 0, part, in_section, depth);
      } else if (tag == GUMBO_TAG_TR) {
        rows.push_back(part);
      } else if (tag == GUMBO_TAG_THEAD || tag == GUMBO_TAG_TBODY || tag == GUMBO_TAG_TFOOT) {
        const GumboVector& section_rows = children(part);
        for (unsigned r = 0; r < section_rows.length; ++r) {
          const GumboNode* row = child(section_rows, r);
          if (is_element(row) && row->v.element.tag == GUMBO_TAG_TR && !is_hidden(row))
            rows.push_back(row);
        }
      }
    }
    std::vector<std::string> headers;
    bool data_seen = false;
    for (const GumboNode* row : rows) {
      std::vector<std::string> cells;
      bool all_th = true, first_th = false;
      const GumboVector& row_cells = children(row);
      for (unsigned c = 0; c < row_cells.length; ++c) {
        const GumboNode* cell = child(row_cells, c);
        if (!is_element(cell) || is_hidden(cell)) continue;
        GumboTag tag = cell->v.element.tag;
        if (tag != GUMBO_TAG_TD && tag != GUMBO_TAG_TH) continue;
        if (cells.empty()) first_th = tag == GUMBO_TAG_TH;
        all_th = all_th && tag == GUMBO_TAG_TH;
        cells.push_back(cell_text(cell));
      }
      bool any = false;
      for (const std::string& c : cells) any = any || !c.empty();
      if (!any) continue;
      if (all_th && cells.size() >= 2 && !data_seen && headers.empty()) {
        headers = std::move(cells);
        continue;
      }
      data_seen = true;
      std::string line;
      if (!headers.empty() && cells.size() >= 2) {
        for (size_t i = 0; i < cells.size(); ++i) {
          if (cells[i].empty()) continue;
          if (!line.empty()) line += "; ";
          if (i < headers.size() && !headers[i].empty()) line += headers[i] + ": ";
          line += cells[i];
        }
      } else if (first_th && cells.size() >= 2) {
        line = cells[0] + ":";
        std::string values;
        for (size_t i = 1; i < cells.size(); ++i) {
          if (cells[i].empty()) continue;
          values += values.empty() ? " " : " | ";
          values += cells[i];
        }
        line += values;
      } else {
        for (const std::string& c : cells) {
          if (c.empty()) continue;
          if (!line.empty()) line += " | ";
          line += c;
        }
      }
      blocks_.push_back({BlockKind::kTableRow, 0, std::move(line)});
    }
  }

  std::vector<TextBlock>& blocks_;
  std::string buf_;
  bool at_space_ = true;
  bool pre_ = false;
  BlockKind kind_ = BlockKind::kParagraph;
  int level_ = 0;
};

const GumboNode* find_body(const GumboNode* root) {
  if (!is_element(root)) return root;
  const GumboVector& kids = children(root);
  for (unsigned i = 0; i < kids.length; ++i) {
    const GumboNode* node = child(kids, i);
    if (is_element(node) && node->v.element.tag == GUMBO_TAG_BODY) return node;
  }
  return root;
}

}  // namespace

ExtractedDocument extract_html(std::string_view utf8) {
  ExtractedDocument doc;
  GumboOptions options = kGumboDefaultOptions;
  options.max_errors = 0;  // parse errors are not read; recording them costs time and memory
  GumboOutput* output = gumbo_parse_with_options(&options, utf8.data(), utf8.size());
  if (output == nullptr) return doc;
  std::string title;
  read_page_facts(output->root, doc, title);
  const GumboNode* body = find_body(output->root);
  const GumboNode* main = find_main(body);
  {
    BlockWriter writer(doc.blocks);
    writer.walk(main != nullptr ? main : body, main != nullptr, 0);
    writer.flush();
  }
  if (doc.blocks.empty() && main != nullptr) {
    BlockWriter writer(doc.blocks);
    writer.walk(body, false, 0);
    writer.flush();
  }
  gumbo_destroy_output(&options, output);
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
