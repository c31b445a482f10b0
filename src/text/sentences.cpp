#include "text/sentences.h"

#include <cctype>

namespace parley {

namespace {
std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}
}  // namespace

std::vector<std::string> split_sentences(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  auto flush = [&](size_t end) {
    std::string s = trim(text.substr(start, end - start));
    if (!s.empty()) out.push_back(std::move(s));
    start = end;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      flush(i + 1);
    } else if ((c == '.' || c == '!' || c == '?') &&
               (i + 1 == text.size() || std::isspace(static_cast<unsigned char>(text[i + 1])))) {
      flush(i + 1);
    }
  }
  flush(text.size());
  return out;
}

}  // namespace parley
