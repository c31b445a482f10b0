#include "extract/markdown.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

namespace parley {

namespace {

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         static_cast<unsigned char>(c) >= 0x80;
}

bool is_punct(char c) {
  return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') ||
         (c >= '{' && c <= '~');
}

// `line` without up to three leading spaces and block-quote markers.
std::string_view block_content(std::string_view line) {
  while (true) {
    size_t i = 0;
    while (i < line.size() && i < 3 && line[i] == ' ') ++i;
    if (i < line.size() && line[i] == '>') {
      line.remove_prefix(i + 1);
      if (!line.empty() && line[0] == ' ') line.remove_prefix(1);
      continue;
    }
    return line.substr(i);
  }
}

// The ATX heading level of a line (1..6), or 0; `text` gets the heading's text.
int atx_heading(std::string_view s, std::string_view& text) {
  size_t n = 0;
  while (n < s.size() && s[n] == '#') ++n;
  if (n == 0 || n > 6 || (n < s.size() && s[n] != ' ' && s[n] != '\t')) return 0;
  std::string_view rest = trim_space(s.substr(n));
  size_t end = rest.size();
  while (end > 0 && rest[end - 1] == '#') --end;
  if (end == 0 || rest[end - 1] == ' ' || rest[end - 1] == '\t')
    rest = trim_space(rest.substr(0, end));
  text = rest;
  return static_cast<int>(n);
}

// A line of one repeated mark ('=', '-', '*', '_'), spaces allowed: setext underline or a break.
bool only_marks(std::string_view s, char mark, size_t at_least) {
  size_t count = 0;
  for (char c : trim_space(s)) {
    if (c == mark)
      ++count;
    else if (c != ' ' && c != '\t')
      return false;
  }
  return count >= at_least;
}

bool is_break(std::string_view s) {
  return only_marks(s, '-', 3) || only_marks(s, '*', 3) || only_marks(s, '_', 3);
}

// A list item's marker ("- ", "* ", "+ ", "1. ", "2) "); `text` gets what follows.
bool list_item(std::string_view s, std::string_view& text) {
  std::string_view t = s;
  while (!t.empty() && t[0] == ' ') t.remove_prefix(1);
  size_t n = 0;
  if (!t.empty() && (t[0] == '-' || t[0] == '*' || t[0] == '+')) {
    n = 1;
  } else {
    while (n < t.size() && n < 9 && t[n] >= '0' && t[n] <= '9') ++n;
    if (n == 0 || n >= t.size() || (t[n] != '.' && t[n] != ')')) return false;
    ++n;
  }
  if (n < t.size() && t[n] != ' ' && t[n] != '\t') return false;
  text = trim_space(t.substr(n));
  if (text.starts_with("[ ] ") || text.starts_with("[x] ") || text.starts_with("[X] "))
    text.remove_prefix(4);
  return true;
}

std::vector<std::string> table_cells(std::string_view row) {
  row = trim_space(row);
  if (row.starts_with('|')) row.remove_prefix(1);
  if (row.ends_with('|') && !row.ends_with("\\|")) row.remove_suffix(1);
  std::vector<std::string> cells;
  std::string cell;
  for (size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '\\' && i + 1 < row.size() && row[i + 1] == '|') {
      cell.push_back('|');
      ++i;
    } else if (row[i] == '|') {
      cells.push_back(strip_inline_markdown(trim_space(cell)));
      cell.clear();
    } else {
      cell.push_back(row[i]);
    }
  }
  cells.push_back(strip_inline_markdown(trim_space(cell)));
  return cells;
}

bool is_table_delimiter(std::string_view s) {
  s = trim_space(s);
  if (s.find('-') == std::string_view::npos || s.find('|') == std::string_view::npos) return false;
  for (char c : s)
    if (c != '|' && c != '-' && c != ':' && c != ' ' && c != '\t') return false;
  return true;
}

// "[id]: https://…" lines define link targets and hold no text.
bool is_reference_definition(std::string_view s) {
  if (!s.starts_with('[')) return false;
  size_t close = s.find("]:");
  return close != std::string_view::npos && close > 1;
}

class MarkdownReader {
 public:
  explicit MarkdownReader(ExtractedDocument& doc) : doc_(doc) {}

  void read(std::string_view text) {
    std::vector<std::string_view> lines;
    size_t pos = 0;
    while (pos <= text.size()) {
      size_t eol = text.find('\n', pos);
      if (eol == std::string_view::npos) eol = text.size();
      std::string_view line = text.substr(pos, eol - pos);
      if (line.ends_with('\r')) line.remove_suffix(1);
      lines.push_back(line);
      pos = eol + 1;
    }
    size_t i = front_matter(lines);
    for (; i < lines.size(); ++i) i = line(lines, i);
    flush();
    if (fence_open_) add(BlockKind::kPreformatted, 0, code_);
  }

 private:
  size_t front_matter(const std::vector<std::string_view>& lines) {
    if (lines.empty() || trim_space(lines[0]) != "---") return 0;
    for (size_t i = 1; i < lines.size() && i < 200; ++i) {
      std::string_view l = trim_space(lines[i]);
      if (l == "---" || l == "...") return i + 1;
      if (l.starts_with("title:")) {
        std::string_view t = trim_space(l.substr(6));
        if (t.size() >= 2 && (t[0] == '"' || t[0] == '\'') && t.back() == t[0])
          t = t.substr(1, t.size() - 2);
        doc_.title = std::string(t);
      }
    }
    doc_.title.clear();  // no closing line: not front matter
    return 0;
  }

  // Reads the line at `i` (and any it owns); returns the index of the last line used.
  size_t line(const std::vector<std::string_view>& lines, size_t i) {
    std::string_view raw = lines[i];
    if (fence_open_) {
      std::string_view s = block_content(raw);
      if (s.starts_with(fence_) && trim_space(s.substr(fence_.size())).empty()) {
        add(BlockKind::kPreformatted, 0, code_);
        code_.clear();
        fence_open_ = false;
      } else {
        if (!code_.empty()) code_.push_back('\n');
        code_.append(raw);
      }
      return i;
    }
    std::string_view s = block_content(raw);
    std::string_view text;
    if (s.starts_with("```") || s.starts_with("~~~")) {
      flush();
      size_t n = 0;
      while (n < s.size() && s[n] == s[0]) ++n;
      fence_ = std::string(s.substr(0, n));
      fence_open_ = true;
      return i;
    }
    if (trim_space(s).empty()) {
      flush();
      return i;
    }
    if (int level = atx_heading(s, text)) {
      flush();
      add(BlockKind::kHeading, level, strip_inline_markdown(text));
      return i;
    }
    if (!para_.empty() && kind_ == BlockKind::kParagraph &&
        (only_marks(s, '=', 1) || only_marks(s, '-', 1))) {
      std::string heading = std::move(para_);
      para_.clear();
      add(BlockKind::kHeading, only_marks(s, '=', 1) ? 1 : 2, strip_inline_markdown(heading));
      return i;
    }
    if (is_break(s)) {
      flush();
      return i;
    }
    if (s.find('|') != std::string_view::npos && i + 1 < lines.size() &&
        is_table_delimiter(block_content(lines[i + 1]))) {
      flush();
      return table(lines, i);
    }
    if (list_item(s, text)) {
      flush();
      kind_ = BlockKind::kListItem;
      para_ = std::string(text);
      return i;
    }
    if (para_.empty() && is_reference_definition(s)) return i;
    if (!para_.empty()) para_.push_back(' ');
    para_.append(trim_space(s));
    return i;
  }

  size_t table(const std::vector<std::string_view>& lines, size_t i) {
    std::vector<std::string> headers = table_cells(block_content(lines[i]));
    size_t last = i + 1;
    for (size_t r = i + 2; r < lines.size(); ++r) {
      std::string_view row = block_content(lines[r]);
      if (trim_space(row).empty() || row.find('|') == std::string_view::npos) break;
      last = r;
      std::vector<std::string> cells = table_cells(row);
      std::string line;
      for (size_t c = 0; c < cells.size(); ++c) {
        if (cells[c].empty()) continue;
        if (!line.empty()) line += "; ";
        if (c < headers.size() && !headers[c].empty())
          labels_.append(line, headers[c], cells[c].size());
        line += cells[c];
      }
      add(BlockKind::kTableRow, 0, std::move(line));
    }
    return last;
  }

  void flush() {
    if (!para_.empty()) add(kind_, 0, strip_inline_markdown(para_));
    para_.clear();
    kind_ = BlockKind::kParagraph;
  }

  void add(BlockKind kind, int level, std::string text) {
    std::string_view t =
        kind == BlockKind::kPreformatted ? std::string_view(text) : trim_space(text);
    if (t.empty()) return;
    if (kind == BlockKind::kHeading && doc_.title.empty()) doc_.title = std::string(t);
    doc_.blocks.push_back({kind, level, std::string(t)});
  }

  ExtractedDocument& doc_;
  RowLabels labels_;
  std::string para_;
  BlockKind kind_ = BlockKind::kParagraph;
  bool fence_open_ = false;
  std::string fence_;
  std::string code_;
};

}  // namespace

namespace {
// The next `c` at or after a position, remembering the last answer (no `c` lies between where that
// search began and what it found): a paragraph of unmatched openers ("[[[[…", "<<<<…") costs one
// scan of it, not one per opener.
class NextOf {
 public:
  NextOf(std::string_view s, char c) : s_(s), c_(c) {}
  size_t find(size_t from) {
    if (from < searched_from_ || from > found_) {
      searched_from_ = from;
      found_ = s_.find(c_, from);
    }
    return found_;
  }

 private:
  std::string_view s_;
  char c_;
  size_t searched_from_ = std::string_view::npos;
  size_t found_ = 0;
};
}  // namespace

std::string strip_inline_markdown(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  NextOf bracket(s, ']'), paren(s, ')'), angle(s, '>');
  // Where each run of backticks starts, by its length, read once at the first backtick: a code
  // span closes at the next run of its opening run's length (looked up, not searched for).
  std::unordered_map<size_t, std::vector<size_t>> runs_of;
  bool runs_read = false;
  auto next_run = [&](size_t n, size_t from) {
    if (!runs_read) {
      runs_read = true;
      for (size_t at = s.find('`'); at != std::string_view::npos; at = s.find('`', at)) {
        size_t len = 0;
        while (at + len < s.size() && s[at + len] == '`') ++len;
        runs_of[len].push_back(at);
        at += len;
      }
    }
    auto runs = runs_of.find(n);
    if (runs == runs_of.end()) return std::string_view::npos;
    auto next = std::lower_bound(runs->second.begin(), runs->second.end(), from);
    return next == runs->second.end() ? std::string_view::npos : *next;
  };
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\\' && i + 1 < s.size() && is_punct(s[i + 1])) {
      out.push_back(s[++i]);
    } else if (c == '`') {
      size_t n = 0;
      while (i + n < s.size() && s[i + n] == '`') ++n;
      size_t close = next_run(n, i + n);
      if (close == std::string_view::npos) {
        out.append(s.substr(i, n));
        i += n - 1;
      } else {
        out.append(trim_space(s.substr(i + n, close - i - n)));
        i = close + n - 1;
      }
    } else if (c == '!' && i + 1 < s.size() && s[i + 1] == '[') {
      continue;  // the image's alt text follows as a link's text
    } else if (c == '[') {
      size_t close = bracket.find(i + 1);
      if (close == std::string_view::npos) {
        out.push_back(c);
        continue;
      }
      out += strip_inline_markdown(s.substr(i + 1, close - i - 1));
      i = close;
      if (i + 1 < s.size() && (s[i + 1] == '(' || s[i + 1] == '[')) {
        size_t end = (s[i + 1] == '(' ? paren : bracket).find(i + 1);
        if (end != std::string_view::npos) i = end;
      }
    } else if (c == '<') {
      size_t close = angle.find(i + 1);
      std::string_view inner =
          close == std::string_view::npos ? "" : s.substr(i + 1, close - i - 1);
      if (s.substr(i).starts_with("<!--")) {
        size_t end = s.find("-->", i + 4);
        if (end == std::string_view::npos) break;
        i = end + 2;
      } else if (inner.starts_with("http://") || inner.starts_with("https://") ||
                 inner.starts_with("mailto:")) {
        out.append(inner.starts_with("mailto:") ? inner.substr(7) : inner);
        i = close;
      } else if (!inner.empty() &&
                 (std::isalpha(static_cast<unsigned char>(inner[0])) || inner[0] == '/')) {
        i = close;  // an inline HTML tag
      } else {
        out.push_back(c);
      }
    } else if (c == '*' || c == '~' || c == '_') {
      size_t n = 0;
      while (i + n < s.size() && s[i + n] == c) ++n;
      char before = i > 0 ? s[i - 1] : ' ';
      char after = i + n < s.size() ? s[i + n] : ' ';
      bool inside_word = is_alnum(before) && is_alnum(after);
      bool alone = (before == ' ' || before == '\t') && (after == ' ' || after == '\t');
      // Emphasis marks go; a '_' inside a word (snake_case) and a lone '*' (5 * 3) stay.
      if ((c == '_' && inside_word) || alone || (c == '~' && n == 1)) out.append(s.substr(i, n));
      i += n - 1;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

ExtractedDocument extract_markdown(std::string_view utf8) {
  ExtractedDocument doc;
  MarkdownReader(doc).read(utf8);
  return doc;
}

}  // namespace parley
