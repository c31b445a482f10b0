// Tokenisation: Unicode case folding and NFKC, ICU word breaking, and the ASCII fast path giving
// exactly what ICU gives.
#include "text/tokenizer.h"

#include <gtest/gtest.h>

#include <cctype>


namespace parley {
namespace {

using Words = std::vector<std::string>;

TEST(Tokenizer, SplitsWordsAndFoldsCase) {
  EXPECT_EQ(tokenize_unstemmed("What is X?"), (Words{"what", "is", "x"}));
  EXPECT_EQ(tokenize_unstemmed("  Hello,   WORLD!  "), (Words{"hello", "world"}));
}

TEST(Tokenizer, KeepsNumbersAndContractionsWhole) {
  EXPECT_EQ(tokenize_unstemmed("It costs 4.90 euro, 1,000 times; don't e.g. a1.2"),
            (Words{"it", "costs", "4.90", "euro", "1,000", "times", "don't", "e.g", "a1.2"}));
}

TEST(Tokenizer, FoldsUnicodeCaseAndCompatibilityForms) {
  EXPECT_EQ(tokenize_unstemmed("STRASSE Straße"), (Words{"strasse", "strasse"}));
  EXPECT_EQ(tokenize_unstemmed("ΣΟΦΊΑ σοφία"), tokenize_unstemmed("σοφία σοφία"));
  EXPECT_EQ(tokenize_unstemmed("ＡＢＣ ｆｉ"), (Words{"abc", "fi"}));  // full-width and the fi ligature
  EXPECT_EQ(tokenize_unstemmed("Café"), tokenize_unstemmed("cafe\u0301"));      // composed and decomposed
}

TEST(Tokenizer, BreaksIdeographicText) {
  auto words = tokenize_unstemmed("抹茶ラテは有機抹茶");
  EXPECT_GE(words.size(), 2u);
  for (const auto& w : words) EXPECT_FALSE(w.empty());
}

TEST(Tokenizer, AsciiFastPathMatchesIcu) {
  const char* samples[] = {
      "Orders placed before 2 pm on a weekday are roasted and shipped the same day.",
      "Version 3.14.15 costs $4.90 (or 1,000.50) -- see www.example.com/a:b?c=d&e",
      "don't can't O'Neil rock'n'roll e.g. i.e. U.S.A. a.b.c 12:30 10:am x:y",
      "a-b a/b a+b a@b.com #tag 50% 3rd 2nd... ''quoted'' 'single' 1'000 1;2 a;b 1:2",
      "MixedCASE words, TABS\tand\nnewlines\r\n  trailing   ",
      "mail me@example.com or @handle; a @ b @@ _ __ a_b",
      "me@.example.com a.@b @.b @'b b'@ @.@ _.b 1.@ @.1",
  };
  for (const char* s : samples) EXPECT_EQ(tokenize_unstemmed(s), tokenize_with_icu(s)) << s;
  // Every ASCII punctuation between letters, between digits, and mixed.
  for (int c = 33; c < 127; ++c) {
    if (std::isalnum(c) || c == '_') continue;
    std::string p(1, static_cast<char>(c));
    for (std::string s : {"ab" + p + "cd", "12" + p + "34", "a1" + p + "2b", "x" + p + p + "y", p + "ab" + p}) {
      EXPECT_EQ(tokenize_unstemmed(s), tokenize_with_icu(s)) << s;
    }
  }
}

TEST(Tokenizer, HasToken) {
  EXPECT_TRUE(has_token("... a"));
  EXPECT_TRUE(has_token("¡¿ 抹茶"));
  EXPECT_FALSE(has_token(" !!! ??? — … 🙂 "));
  EXPECT_FALSE(has_token(""));
  // Whatever tokenize finds a word in, has_token does too: a run of '@' is a word for both.
  for (std::string_view s : {std::string_view("@"), std::string_view("!@@!"), std::string_view("_ _"),
                             std::string_view("\x07\0@\0", 4)}) {
    EXPECT_EQ(has_token(s), !tokenize_unstemmed(s).empty()) << s;
  }
  EXPECT_TRUE(has_token("@"));
}

TEST(Tokenizer, FoldCaseKeepsPunctuation) {
  EXPECT_EQ(fold_case("  What  IS X? "), "what is x?");
  EXPECT_EQ(fold_case("Straße"), fold_case("STRASSE"));
  EXPECT_NE(fold_case("What is X?"), fold_case("What is X"));
}

TEST(Tokenizer, ACallerMayTokeniseInsideTheCallback) {
  // The knowledge vocabulary analyses each word the tokenizer gives it; text without spaces
  // (Chinese, Japanese) must still give all its words, not only the first.
  for (std::string_view text : {std::string_view("退货政策是什么"), std::string_view("返品は購入後30日以内に受け付けます。"),
                                std::string_view("Доставка/самовывоз/курьер")}) {
    Words nested;
    for_each_word(text, [&](std::string_view w) {
      nested.emplace_back(w);
      Words inner = tokenize_unstemmed(std::string(w) + " 其他 другое");
      EXPECT_EQ(inner.size(), 3u) << w;
    });
    EXPECT_EQ(nested, tokenize_unstemmed(text)) << text;
    EXPECT_GE(nested.size(), 3u) << text;
  }
}

}  // namespace
}  // namespace parley
