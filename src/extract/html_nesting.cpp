#include "extract/html_nesting.h"

#include <algorithm>
#include <array>
#include <vector>

namespace parley::html {

namespace {

bool is_letter(char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c | 0x20) : c; }

// Elements that never stack up: void ones (no end tag) and those whose end tag may be left out,
// which the parser closes itself when the next one starts (a list of 5,000 <li> nests nothing).
// Counting an element that does not nest only ever leaves out more tags of a page already this
// deep; not counting one that does would let a page past the cap, so the list is kept to those.
constexpr std::array<std::string_view, 40> kNotCounted = {
    "area",     "base",  "basefont", "bgsound", "br",     "col",   "embed", "frame",
    "hr",       "image", "img",      "input",   "keygen", "link",  "meta",  "param",
    "source",   "track", "wbr",      "li",      "p",      "dt",    "dd",    "option",
    "optgroup", "tr",    "td",       "th",      "thead",  "tbody", "tfoot", "colgroup",
    "caption",  "rb",    "rt",       "rtc",     "rp",     "html",  "head",  "body"};
// Elements whose content is text up to their end tag, not markup (<noscript> is read as markup:
// counting its tags can only leave out more).
constexpr std::array<std::string_view, 8> kRawText = {"script", "style",  "textarea", "title",
                                                      "xmp",    "iframe", "noembed",  "noframes"};
// HTML start tags that end SVG or MathML content: the parser closes the foreign elements first.
constexpr std::array<std::string_view, 45> kBreakOut = {
    "b",      "big",  "blockquote", "body",  "br",   "center", "code",    "dd",   "div",
    "dl",     "dt",   "em",         "embed", "h1",   "h2",     "h3",      "h4",   "h5",
    "h6",     "head", "hr",         "i",     "img",  "li",     "listing", "menu", "meta",
    "nobr",   "ol",   "p",          "pre",   "ruby", "s",      "small",   "span", "strong",
    "strike", "sub",  "sup",        "table", "tt",   "u",      "ul",      "var",  "font"};

template <size_t N>
bool one_of(std::string_view name, const std::array<std::string_view, N>& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Where `</name` (any case) next starts at or after `from`, or npos.
size_t find_end_tag(std::string_view page, size_t from, std::string_view name) {
  for (size_t at = page.find("</", from); at != std::string_view::npos;
       at = page.find("</", at + 2)) {
    if (page.size() - at - 2 < name.size()) return std::string_view::npos;
    bool same = true;
    for (size_t i = 0; same && i < name.size(); ++i) same = lower(page[at + 2 + i]) == name[i];
    if (same) return at;
  }
  return std::string_view::npos;
}

// The '>' that ends a tag whose name ends at `from`, quotes honoured; npos when the page ends
// first.
size_t tag_end(std::string_view page, size_t from) {
  char quote = 0;
  for (size_t i = from; i < page.size(); ++i) {
    char c = page[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      return i;
    }
  }
  return std::string_view::npos;
}

class NestingCap {
 public:
  NestingCap(std::string_view page, int max_depth) : page_(page), max_depth_(max_depth) {}

  std::optional<std::string> run() {
    size_t at = 0;
    while (at < page_.size()) {
      size_t lt = page_.find('<', at);
      if (lt == std::string_view::npos || lt + 1 >= page_.size()) break;
      char next = page_[lt + 1];
      if (is_letter(next)) {
        at = start_tag(lt);
      } else if (next == '/' && lt + 2 < page_.size() && is_letter(page_[lt + 2])) {
        at = end_tag(lt);
      } else if (page_.compare(lt, 4, "<!--") == 0) {
        size_t close = page_.find("-->", lt + 4);
        at = close == std::string_view::npos ? page_.size() : close + 3;
      } else if (next == '!' || next == '?' || next == '/') {
        size_t close = page_.find('>', lt + 2);
        at = close == std::string_view::npos ? page_.size() : close + 1;
      } else {
        at = lt + 1;  // a '<' that starts no tag is text
      }
    }
    if (!rewritten_) return std::nullopt;
    out_.append(page_.substr(copied_));
    return std::move(out_);
  }

 private:
  // The tag's lower-case name, which starts at `from`; `end` is set past it.
  std::string name_at(size_t from, size_t& end) const {
    std::string name;
    end = from;
    while (end < page_.size() && !is_space(page_[end]) && page_[end] != '/' && page_[end] != '>') {
      if (name.size() < 64) name.push_back(lower(page_[end]));
      ++end;
    }
    return name;
  }

  // The page without [from, to).
  void leave_out(size_t from, size_t to) {
    if (!rewritten_) {
      rewritten_ = true;
      out_.reserve(page_.size());
    }
    out_.append(page_.substr(copied_, from - copied_));
    copied_ = to;
  }

  size_t start_tag(size_t lt) {
    size_t name_end = 0;
    std::string name = name_at(lt + 1, name_end);
    size_t gt = tag_end(page_, name_end);
    if (gt == std::string_view::npos) return page_.size();  // the parser drops a tag the page cuts
    size_t next = gt + 1;
    if (name == "plaintext") return page_.size();  // the rest is text
    if (one_of(name, kRawText)) {
      size_t close = find_end_tag(page_, next, name);
      return close == std::string_view::npos ? page_.size() : close;
    }
    if (foreign_ > 0 && one_of(name, kBreakOut)) {
      while (foreign_ > 0) pop();
    }
    if (one_of(name, kNotCounted)) return next;
    // In SVG and MathML, "/>" closes the element it opens; in HTML it is ignored.
    if (foreign_ > 0 && page_[gt - 1] == '/') return next;
    if (dropped_ > 0 || static_cast<int>(open_.size()) >= max_depth_) {
      ++dropped_;
      leave_out(lt, next);
      return next;
    }
    if (name == "svg" || name == "math") ++foreign_;
    open_.push_back(std::move(name));
    return next;
  }

  size_t end_tag(size_t lt) {
    size_t name_end = 0;
    std::string name = name_at(lt + 2, name_end);
    size_t gt = page_.find('>', name_end);
    if (gt == std::string_view::npos) return page_.size();
    size_t next = gt + 1;
    if (one_of(name, kNotCounted) || one_of(name, kRawText)) return next;
    if (dropped_ > 0) {  // it closes the innermost element left out
      --dropped_;
      leave_out(lt, next);
      return next;
    }
    // The element it closes, and every one opened inside it; a stray end tag closes nothing. Only
    // the innermost few are looked at, so a page of stray end tags costs no more than its length.
    constexpr size_t kLooked = 8;
    for (size_t i = 0; i < std::min(kLooked, open_.size()); ++i) {
      if (open_[open_.size() - 1 - i] != name) continue;
      for (size_t k = 0; k <= i; ++k) pop();
      break;
    }
    return next;
  }

  void pop() {
    if (open_.back() == "svg" || open_.back() == "math") --foreign_;
    open_.pop_back();
  }

  std::string_view page_;
  int max_depth_;
  std::vector<std::string> open_;  // the elements open, outermost first (at most max_depth_)
  int dropped_ = 0;                // start tags left out whose end tag has not come yet
  int foreign_ = 0;                // svg and math elements among open_
  bool rewritten_ = false;
  std::string out_;
  size_t copied_ = 0;  // page_ before this is in out_ (or left out)
};

}  // namespace

std::optional<std::string> cap_nesting(std::string_view page, int max_depth) {
  // Each element opened takes a '<': a page with no more cannot nest past the cap.
  if (std::count(page.begin(), page.end(), '<') <= max_depth) return std::nullopt;
  return NestingCap(page, max_depth).run();
}

}  // namespace parley::html
