#include "text/tokenizer.h"

#include <unicode/brkiter.h>
#include <unicode/normalizer2.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <memory>
#include <utility>

namespace parley {

namespace {

// The ICU pieces one thread uses: the NFKC_Casefold normaliser (a shared singleton) and a word
// break iterator of its own (iterators hold state).
struct IcuState {
  const icu::Normalizer2* nfkc_cf = nullptr;
  std::unique_ptr<icu::BreakIterator> words;

  IcuState() {
    UErrorCode status = U_ZERO_ERROR;
    nfkc_cf = icu::Normalizer2::getNFKCCasefoldInstance(status);
    if (U_FAILURE(status)) nfkc_cf = nullptr;
    status = U_ZERO_ERROR;
    words.reset(icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), status));
    if (U_FAILURE(status)) words.reset();
  }
};

IcuState& icu_state() {
  thread_local IcuState state;
  return state;
}

icu::UnicodeString normalized(std::string_view text) {
  auto& icu = icu_state();
  auto u = icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  if (!icu.nfkc_cf) return u.foldCase();
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString out = icu.nfkc_cf->normalize(u, status);
  return U_FAILURE(status) ? u.foldCase() : out;
}

// Words of a segment by ICU: normalise, then keep break-iterator segments whose rule status says
// word (number, letter, kana, ideograph). The words are gathered before any is emitted: `emit` may
// tokenise too (the knowledge vocabulary analyses each word it is given), and that would move
// this thread's one iterator to another text in the middle of this one.
void icu_tokens(std::string_view text, const std::function<void(std::string_view)>& emit) {
  auto& icu = icu_state();
  icu::UnicodeString u = normalized(text);
  if (!icu.words) return;
  icu.words->setText(u);
  std::vector<std::pair<int32_t, int32_t>> words;
  int32_t start = icu.words->first();
  for (int32_t end = icu.words->next(); end != icu::BreakIterator::DONE; start = end, end = icu.words->next()) {
    if (icu.words->getRuleStatus() < UBRK_WORD_NONE_LIMIT) continue;
    words.emplace_back(start, end);
  }
  std::string utf8;
  for (auto [from, to] : words) {
    utf8.clear();
    u.tempSubStringBetween(from, to).toUTF8String(utf8);
    emit(utf8);
  }
}

bool is_ascii_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool is_letter(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
// ICU 72 (CLDR 42) keeps '@' inside words, so addresses and handles stay whole.
bool is_word_char(unsigned char c) { return is_letter(c) || is_digit(c) || c == '_' || c == '@'; }

// UAX #29 for ASCII as ICU 72 applies it: letters, digits and '_' join (WB5, WB8-WB10,
// WB13a/b), and '@' with them; '.' '\'' (MidNumLet) join two letters (WB6/7; ICU's root rules
// leave ':' out); ',' ';' (MidNum) and '.' '\'' join two digits
// (WB11/12). Case folding of ASCII is lower-casing, and NFKC leaves ASCII alone.
void ascii_tokens(std::string_view s, const std::function<void(std::string_view)>& emit) {
  std::string word;
  size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    auto c = static_cast<unsigned char>(s[i]);
    if (!is_word_char(c)) {
      ++i;
      continue;
    }
    word.clear();
    bool has_alnum = false;
    while (i < n) {
      c = static_cast<unsigned char>(s[i]);
      if (is_word_char(c)) {
        has_alnum |= c != '_' && c != '@';
        word.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c));
        ++i;
        continue;
      }
      if (i + 1 < n) {
        auto prev = static_cast<unsigned char>(s[i - 1]);
        auto next = static_cast<unsigned char>(s[i + 1]);
        bool mid_letter = c == '.' || c == '\'';
        bool mid_num = c == ',' || c == ';' || c == '.' || c == '\'';
        // ICU's rules count '@' as a letter here too ("me@.example" is one word).
        auto letter = [](unsigned char x) { return is_letter(x) || x == '@'; };
        if ((mid_letter && letter(prev) && letter(next)) || (mid_num && is_digit(prev) && is_digit(next))) {
          word.push_back(static_cast<char>(c));
          ++i;
          continue;
        }
      }
      break;
    }
    // ICU counts a run of '@' or '_' as a word too, except a lone '_'.
    if (has_alnum || word != "_") emit(word);
  }
}

// Calls `words` with each run of non-space bytes and whether it is plain ASCII (the fast path),
// until it returns true.
template <typename Words>
void for_each_run(std::string_view text, Words&& words) {
  size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    while (i < n && is_ascii_space(static_cast<unsigned char>(text[i]))) ++i;
    size_t start = i;
    bool ascii = true;
    while (i < n && !is_ascii_space(static_cast<unsigned char>(text[i]))) {
      ascii &= static_cast<unsigned char>(text[i]) < 0x80;
      ++i;
    }
    if (start == i) break;
    if (words(text.substr(start, i - start), ascii)) return;
  }
}

void run_tokens(std::string_view run, bool ascii,
                const std::function<void(std::string_view)>& emit) {
  if (ascii) ascii_tokens(run, emit);
  else icu_tokens(run, emit);
}

}  // namespace

void for_each_word(std::string_view text, const std::function<void(std::string_view)>& emit) {
  for_each_run(text, [&](std::string_view run, bool ascii) {
    run_tokens(run, ascii, emit);
    return false;
  });
}

std::vector<std::string> tokenize_unstemmed(std::string_view text) {
  std::vector<std::string> out;
  for_each_word(text, [&](std::string_view t) { out.emplace_back(t); });
  return out;
}

bool has_token(std::string_view text) {
  // The tokeniser itself decides: a run without a letter can hold a word ("@@"), and one with a
  // letter can hold none (ICU joins "__O__" with a following mark into a token it drops).
  bool found = false;
  for_each_run(text, [&](std::string_view run, bool ascii) {
    run_tokens(run, ascii, [&](std::string_view) { found = true; });
    return found;
  });
  return found;
}

std::vector<std::string> tokenize_with_icu(std::string_view text) {
  std::vector<std::string> out;
  icu_tokens(text, [&](std::string_view t) { out.emplace_back(t); });
  return out;
}

std::string strip_diacritics(std::string_view word) {
  if (std::all_of(word.begin(), word.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
    return std::string(word);
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfd = icu::Normalizer2::getNFDInstance(status);
  if (U_FAILURE(status)) return std::string(word);
  auto u = icu::UnicodeString::fromUTF8(icu::StringPiece(word.data(), static_cast<int32_t>(word.size())));
  icu::UnicodeString decomposed = nfd->normalize(u, status);
  if (U_FAILURE(status)) return std::string(word);
  icu::UnicodeString kept;
  for (int32_t i = 0; i < decomposed.length();) {
    UChar32 c = decomposed.char32At(i);
    if (u_charType(c) != U_NON_SPACING_MARK) kept.append(c);
    i += U16_LENGTH(c);
  }
  std::string out;
  kept.toUTF8String(out);
  return out;
}

std::string fold_case(std::string_view text) {
  std::string folded;
  normalized(text).toUTF8String(folded);
  std::string out;
  out.reserve(folded.size());
  bool space = false;
  for (char c : folded) {
    if (is_ascii_space(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

}  // namespace parley
