#include "knowledge/chunker.h"

#include <algorithm>

namespace parley {

namespace {
constexpr size_t kHeadingMaxBytes = 80;
constexpr long kHeadingMaxWords = 8;

bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// Where to cut `s` (longer than `target`): after the last sentence end or line break within the
// target, else at the last space, else at the last character boundary.
size_t cut_point(std::string_view s, size_t target) {
  size_t sentence = 0;
  size_t space = 0;
  for (size_t i = target / 2; i < target; ++i) {
    char c = s[i];
    if (c == '\n' || ((c == '.' || c == '!' || c == '?') && i + 1 < s.size() && is_space(s[i + 1])))
      sentence = i + 1;
    else if (is_space(c))
      space = i;
  }
  if (sentence) return sentence;
  if (space) return space;
  auto inside_character = [&](size_t i) { return (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80; };
  size_t cut = target;
  while (cut > 0 && inside_character(cut)) --cut;
  // A first character longer than the target is kept whole rather than split.
  if (cut == 0)
    for (cut = 1; cut < s.size() && inside_character(cut); ++cut) {
    }
  return cut;
}

// The heading a paragraph opens with: the whole paragraph when it is one heading line, or its
// first line when that reads as a heading and more lines follow; else empty.
std::string_view leading_heading(std::string_view para) {
  size_t eol = para.find('\n');
  std::string_view first = trim(para.substr(0, eol));
  return is_heading_line(first) ? first : std::string_view();
}

const char* end_of(std::string_view s) { return s.data() + s.size(); }
}  // namespace

bool is_heading_line(std::string_view line) {
  line = trim(line);
  if (line.empty() || line.size() > kHeadingMaxBytes || line.find('\n') != std::string_view::npos) return false;
  char last = line.back();
  if (last == '.' || last == '!' || last == '?' || last == ',' || last == ';') return false;
  // A line of a list states facts ("Adult ticket: 45 EUR", "Saturday 10-14"): a heading names a
  // topic, so it holds no number, no "label: value" and few words.
  if (std::any_of(line.begin(), line.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  size_t colon = line.find(':');
  if (colon != std::string_view::npos && colon + 1 < line.size()) return false;
  if (std::count(line.begin(), line.end(), ' ') >= kHeadingMaxWords) return false;
  // Chinese and Japanese end sentences with ideographic and full-width marks.
  for (std::string_view end : {"\u3002", "\uFF01", "\uFF1F", "\uFF0E", "\uFF61", "\u3001", "\uFF0C", "\uFF1B"})
    if (line.ends_with(end)) return false;
  return true;
}

std::vector<Chunk> chunk_sections(std::string_view text, size_t target) {
  std::vector<Chunk> out;
  if (target < 2) target = 2;
  const char* chunk_begin = nullptr;  // start of the chunk being gathered
  const char* chunk_end = nullptr;
  std::string_view chunk_heading;     // the heading in force where the chunk began
  std::string_view heading;           // the heading in force now
  std::string_view pending_heading;   // a heading paragraph waiting for its paragraph
  auto flush = [&] {
    if (chunk_begin) {
      auto t = trim(std::string_view(chunk_begin, static_cast<size_t>(chunk_end - chunk_begin)));
      if (!t.empty()) out.push_back({t, chunk_heading});
    }
    chunk_begin = chunk_end = nullptr;
  };
  auto emit = [&](std::string_view piece, std::string_view under) {
    piece = trim(piece);
    if (!piece.empty()) out.push_back({piece, under});
  };
  // Adds a block (`lead` bytes of heading, then its paragraph) to the chunk being gathered, or
  // starts a new one, cutting a block longer than the target.
  // Every chunk stays within the target: a heading that with its paragraph does not fit starts
  // the first piece the paragraph is cut into, and only a heading longer than half the target
  // (or one the target cannot hold with a word of its paragraph) stands alone.
  auto add = [&](std::string_view block, size_t lead) {
    if (chunk_begin && static_cast<size_t>(end_of(block) - chunk_begin) <= target) {
      chunk_end = end_of(block);
      return;
    }
    flush();
    if (lead > 0 && lead * 2 > target && block.size() > target) {
      for (std::string_view rest = trim(block.substr(0, lead)); !rest.empty();) {
        size_t cut = rest.size() > target ? cut_point(rest, target) : rest.size();
        emit(rest.substr(0, cut), heading);
        rest = trim(rest.substr(cut));
      }
      block = trim(block.substr(lead));
    }
    while (block.size() > target) {
      size_t cut = cut_point(block, target);
      emit(block.substr(0, cut), heading);
      block = trim(block.substr(cut));
    }
    if (!block.empty()) {
      chunk_begin = block.data();
      chunk_end = end_of(block);
      chunk_heading = heading;
    }
  };
  size_t pos = 0;
  while (pos < text.size()) {
    size_t blank = text.find("\n\n", pos);
    size_t end = blank == std::string_view::npos ? text.size() : blank;
    std::string_view para = trim(text.substr(pos, end - pos));
    pos = blank == std::string_view::npos ? text.size() : blank + 2;
    if (para.empty()) continue;
    std::string_view opens = leading_heading(para);
    if (opens.size() == para.size()) {
      // A heading alone goes with the paragraph after it; one before it that had none is text.
      if (!pending_heading.empty()) add(pending_heading, 0);
      pending_heading = para;
      heading = para;
      continue;
    }
    if (!opens.empty()) heading = opens;
    if (pending_heading.empty()) {
      add(para, 0);
    } else {
      size_t lead = static_cast<size_t>(para.data() - pending_heading.data());
      add(std::string_view(pending_heading.data(), lead + para.size()), lead);
      pending_heading = {};
    }
  }
  if (!pending_heading.empty()) add(pending_heading, 0);
  flush();
  return out;
}

std::vector<std::string_view> chunk_text(std::string_view text, size_t target) {
  std::vector<std::string_view> out;
  for (const auto& c : chunk_sections(text, target)) out.push_back(c.text);
  return out;
}

}  // namespace parley
