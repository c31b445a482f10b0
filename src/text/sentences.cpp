#include "text/sentences.h"

#include <cctype>

namespace parley {

namespace {
bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
}  // namespace

std::vector<std::pair<size_t, size_t>> sentence_spans(std::string_view text) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t start = 0;
  auto flush = [&](size_t end) {
    size_t b = start, e = end;
    while (b < e && is_space(text[b])) ++b;
    while (e > b && is_space(text[e - 1])) --e;
    if (b < e) out.emplace_back(b, e);
    start = end;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      flush(i + 1);
    } else if ((c == '.' || c == '!' || c == '?') && (i + 1 == text.size() || is_space(text[i + 1]))) {
      flush(i + 1);
    } else if (c == '\xE3' && text.substr(i, 3) == "\xE3\x80\x82") {  // 。 (no space follows it)
      flush(i + 3);
      i += 2;
    } else if (c == '\xEF' && (text.substr(i, 3) == "\xEF\xBC\x81" || text.substr(i, 3) == "\xEF\xBC\x9F")) {  // ！？
      flush(i + 3);
      i += 2;
    }
  }
  flush(text.size());
  return out;
}

std::vector<std::string> split_sentences(std::string_view text) {
  std::vector<std::string> out;
  for (auto [b, e] : sentence_spans(text)) out.emplace_back(text.substr(b, e - b));
  return out;
}

}  // namespace parley
