#include "extract/html_blocks.h"

#include <string>

#include "extract/html_nodes.h"

namespace parley::html {

namespace {

// Deeper than this, an element's text is read without structure: no recursion grows with a
// page's nesting, however deep a hostile page nests.
constexpr int kMaxDepth = 200;

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
    // Only a preformatted block keeps its leading spaces: an item or heading inside <pre> is
    // trimmed like any other.
    std::string_view text =
        kind_ == BlockKind::kPreformatted ? trim_newlines(buf_) : trim_space(buf_);
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
          if (i < headers.size() && !headers[i].empty())
            labels_.append(line, headers[i], cells[i].size());
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
  RowLabels labels_;
  std::string buf_;
  bool at_space_ = true;
  bool pre_ = false;
  BlockKind kind_ = BlockKind::kParagraph;
  int level_ = 0;
};

}  // namespace

void write_blocks(const GumboNode* root, bool in_section, std::vector<TextBlock>& blocks) {
  BlockWriter writer(blocks);
  writer.walk(root, in_section, 0);
  writer.flush();
}

}  // namespace parley::html
