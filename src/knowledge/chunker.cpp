#include "knowledge/chunker.h"

namespace parley {

namespace {
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
}  // namespace

std::vector<std::string_view> chunk_text(std::string_view text, size_t target) {
  std::vector<std::string_view> out;
  if (target < 2) target = 2;
  const char* chunk_begin = nullptr;  // start of the chunk being gathered
  const char* chunk_end = nullptr;
  auto flush = [&] {
    if (chunk_begin) {
      auto t = trim(std::string_view(chunk_begin, static_cast<size_t>(chunk_end - chunk_begin)));
      if (!t.empty()) out.push_back(t);
    }
    chunk_begin = chunk_end = nullptr;
  };
  size_t pos = 0;
  while (pos < text.size()) {
    size_t blank = text.find("\n\n", pos);
    size_t end = blank == std::string_view::npos ? text.size() : blank;
    std::string_view para = trim(text.substr(pos, end - pos));
    pos = blank == std::string_view::npos ? text.size() : blank + 2;
    if (para.empty()) continue;
    if (chunk_begin && static_cast<size_t>(para.data() + para.size() - chunk_begin) <= target) {
      chunk_end = para.data() + para.size();
      continue;
    }
    flush();
    while (para.size() > target) {
      size_t cut = cut_point(para, target);
      auto piece = trim(para.substr(0, cut));
      if (!piece.empty()) out.push_back(piece);
      para = trim(para.substr(cut));
    }
    if (!para.empty()) {
      chunk_begin = para.data();
      chunk_end = para.data() + para.size();
    }
  }
  flush();
  return out;
}

}  // namespace parley
