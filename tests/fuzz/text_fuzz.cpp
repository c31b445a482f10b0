// Fuzzes the text analyser: tokenisation (ASCII fast path and ICU), matching keys, case folding
// and chunking. The fast path must give exactly ICU's words, so the two are compared on every
// input; chunks must be ordered, trimmed, non-empty views into the text within the target size.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "knowledge/chunker.h"
#include "text/normalizer.h"
#include "text/tokenizer.h"
#include "fuzz_check.h"

namespace {

using namespace parley;


bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// One character: no byte after the first starts a character.
bool one_character(std::string_view s) {
  for (size_t i = 1; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) return false;
  return true;
}

void check_chunks(std::string_view text, size_t target) {
  const char* last_end = text.data();
  for (std::string_view chunk : chunk_text(text, target)) {
    FUZZ_CHECK(!chunk.empty());
    FUZZ_CHECK(chunk.data() >= last_end && chunk.data() + chunk.size() <= text.data() + text.size());
    FUZZ_CHECK(!is_space(chunk.front()) && !is_space(chunk.back()));
    if (chunk.size() > std::max<size_t>(target, 2)) FUZZ_CHECK(one_character(chunk));
    last_end = chunk.data() + chunk.size();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 3) {
    case 0: {
      auto unstemmed = tokenize_unstemmed(text);
      FUZZ_CHECK(unstemmed == tokenize_with_icu(text));
      auto words = tokenize(text);
      FUZZ_CHECK(words.size() == unstemmed.size());
      FUZZ_CHECK(has_token(text) == !words.empty());
      break;
    }
    case 1: {
      std::string key = normalize_for_match(text);
      FUZZ_CHECK(key.find("  ") == std::string::npos);
      // A key of plain ASCII is its own key. Beyond ASCII ICU's word breaks depend on the
      // neighbours a word had (a radical next to an invalid byte), so no such promise is made.
      bool ascii = true;
      for (char c : text) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
      if (ascii) FUZZ_CHECK(normalize_for_match(key) == key);
      std::string folded = fold_case(text);
      FUZZ_CHECK(folded.empty() || (!is_space(folded.front()) && !is_space(folded.back())));
      break;
    }
    default:
      check_chunks(text, 1 + data[0] / 3 % 64 * 4);
      break;
  }
  return 0;
}
