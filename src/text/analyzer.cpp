#include "text/analyzer.h"

#include <libstemmer.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "text/stop_words.h"
#include "text/thesaurus.h"
#include "text/tokenizer.h"

namespace parley {

namespace {
struct Language {
  std::string_view code;
  std::string_view algorithm;  // Snowball's; empty: words kept whole
};

// Every language with a Snowball stemmer, then languages analysed without one (their words are
// split by ICU's dictionaries and rules, and matched whole).
constexpr std::array kLanguages = {
    Language{"ar", "arabic"},     Language{"ca", "catalan"},    Language{"da", "danish"},
    Language{"de", "german"},     Language{"el", "greek"},      Language{"en", "english"},
    Language{"es", "spanish"},    Language{"eu", "basque"},     Language{"fi", "finnish"},
    Language{"fr", "french"},     Language{"ga", "irish"},      Language{"hi", "hindi"},
    Language{"hu", "hungarian"},  Language{"hy", "armenian"},   Language{"id", "indonesian"},
    Language{"it", "italian"},    Language{"lt", "lithuanian"}, Language{"ne", "nepali"},
    Language{"nl", "dutch"},      Language{"no", "norwegian"},  Language{"pt", "portuguese"},
    Language{"ro", "romanian"},   Language{"ru", "russian"},    Language{"sr", "serbian"},
    Language{"sv", "swedish"},    Language{"ta", "tamil"},      Language{"tr", "turkish"},
    Language{"yi", "yiddish"},    Language{"bg", ""},           Language{"bn", ""},
    Language{"cs", ""},           Language{"fa", ""},           Language{"he", ""},
    Language{"hr", ""},           Language{"ja", ""},           Language{"ko", ""},
    Language{"ms", ""},           Language{"pl", ""},           Language{"sk", ""},
    Language{"sl", ""},           Language{"th", ""},           Language{"uk", ""},
    Language{"ur", ""},           Language{"vi", ""},           Language{"zh", ""},
};

const Language* find_language(std::string_view code) {
  for (const auto& l : kLanguages)
    if (l.code == code) return &l;
  return nullptr;
}

struct StemmerDeleter {
  void operator()(sb_stemmer* s) const { sb_stemmer_delete(s); }
};

// Snowball stemmers keep state between calls, so each thread has its own per algorithm.
sb_stemmer* thread_stemmer(const std::string& algorithm) {
  thread_local std::unordered_map<std::string, std::unique_ptr<sb_stemmer, StemmerDeleter>> stemmers;
  auto it = stemmers.find(algorithm);
  if (it == stemmers.end()) {
    it = stemmers.emplace(algorithm, std::unique_ptr<sb_stemmer, StemmerDeleter>(
                                         sb_stemmer_new(algorithm.c_str(), "UTF_8")))
             .first;
  }
  return it->second.get();
}

// The typographic apostrophe (U+2019) as ASCII, so "don’t" and "don't" are one word.
std::string_view plain_apostrophes(std::string_view word, std::string& buffer) {
  constexpr std::string_view kCurly = "\xE2\x80\x99";
  if (word.find(kCurly) == std::string_view::npos) return word;
  buffer.clear();
  for (size_t i = 0; i < word.size();) {
    if (word.substr(i, 3) == kCurly) {
      buffer.push_back('\'');
      i += 3;
    } else {
      buffer.push_back(word[i++]);
    }
  }
  return buffer;
}
}  // namespace

namespace {
// Per thread: training analyses every sentence on several threads at once, and one shared counter
// would bounce its cache line between them on every word list.
thread_local uint64_t t_passes = 0;
}  // namespace

uint64_t Analyzer::passes() { return t_passes; }
void Analyzer::count_pass() { ++t_passes; }

WordForms Analyzer::forms(std::string_view token) const {
  WordForms out;
  std::string plain, buffer;
  std::string_view surface = surface_of(token, plain);
  out.surface.assign(surface);
  out.stop = is_stop_word(surface);
  out.stem.assign(stem(surface, buffer));
  out.lemma.assign(lemma(surface, buffer));
  return out;
}

std::string_view Analyzer::surface_of(std::string_view word, std::string& buffer) const {
  std::string_view plain = plain_apostrophes(word, buffer);
  // French, Italian and Catalan elide articles and prepositions into the word ("l'hôtel",
  // "dell'albergo"): the word is what follows the last apostrophe.
  if (language_ == "fr" || language_ == "it" || language_ == "ca") {
    size_t apostrophe = plain.rfind('\'');
    if (apostrophe != std::string_view::npos && apostrophe + 1 < plain.size()) plain.remove_prefix(apostrophe + 1);
  }
  // English writers drop accents from borrowed words ("cafe", "naive"), so English matches
  // without them; other languages keep theirs ("año" is not "ano").
  if (language_ == "en" && std::any_of(plain.begin(), plain.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) {
    buffer = strip_diacritics(plain);
    return buffer;
  }
  return plain;
}

Analyzer::Analyzer(std::string language, std::string algorithm, const std::vector<std::string_view>& stops)
    : language_(std::move(language)), algorithm_(std::move(algorithm)), stop_words_(stops) {}

const Analyzer* Analyzer::for_language(std::string_view code) {
  const Language* l = find_language(code);
  if (l == nullptr) return nullptr;
  static std::mutex mu;
  static auto* const analyzers = new std::map<std::string, std::unique_ptr<Analyzer>, std::less<>>();
  std::lock_guard lock(mu);
  auto it = analyzers->find(code);
  if (it == analyzers->end()) {
    std::string algorithm(l->algorithm);
    // A stemmer the installed Snowball lacks leaves words whole rather than failing.
    if (!algorithm.empty() && thread_stemmer(algorithm) == nullptr) algorithm.clear();
    auto analyzer = std::unique_ptr<Analyzer>(new Analyzer(std::string(code), algorithm, stop_words(code)));
    it = analyzers->emplace(std::string(code), std::move(analyzer)).first;
  }
  return it->second.get();
}

const Analyzer& Analyzer::for_language_or_english(std::string_view code) {
  const Analyzer* analyzer = for_language(code);
  return analyzer != nullptr ? *analyzer : english();
}

const Analyzer& Analyzer::english() {
  static const Analyzer* const kEnglish = for_language(kDefaultLanguage);
  return *kEnglish;
}

bool Analyzer::supported_language(std::string_view code) { return find_language(code) != nullptr; }

std::string Analyzer::supported_languages() {
  std::vector<std::string_view> codes;
  for (const auto& l : kLanguages) codes.push_back(l.code);
  std::sort(codes.begin(), codes.end());
  std::string out;
  for (auto c : codes) {
    if (!out.empty()) out += ", ";
    out += c;
  }
  return out;
}

bool Analyzer::is_stop_word(std::string_view folded_word) const {
  return std::binary_search(stop_words_.begin(), stop_words_.end(), folded_word);
}

std::string_view Analyzer::stem(std::string_view word, std::string& buffer) const {
  if (algorithm_.empty() || word.empty()) return word;
  // Numbers, codes and addresses are matched as written.
  if (std::any_of(word.begin(), word.end(), [](char c) { return (c >= '0' && c <= '9') || c == '@'; }))
    return word;
  sb_stemmer* stemmer = thread_stemmer(algorithm_);
  if (stemmer == nullptr) return word;
  // English irregular forms and comparatives meet their lemma first ("kept" -> "keep",
  // "children" -> "child", "cheaper" -> "cheap"): Snowball's rules leave them apart.
  std::string lemma;
  if (language_ == "en") {
    // Only what Snowball cannot undo: regular inflections it stems itself, faster.
    std::string_view base = english_irregular_base(word);
    if (!base.empty() && base != word) {
      lemma.assign(base);
      word = lemma;
    }
  }
  const sb_symbol* out =
      sb_stemmer_stem(stemmer, reinterpret_cast<const sb_symbol*>(word.data()), static_cast<int>(word.size()));
  if (out == nullptr) {  // out of memory: the word as written (it may live in `lemma`)
    buffer.assign(word);
    return buffer;
  }
  buffer.assign(reinterpret_cast<const char*>(out), static_cast<size_t>(sb_stemmer_length(stemmer)));
  return buffer;
}

std::string_view Analyzer::lemma(std::string_view word, std::string& buffer) const {
  if (language_ != "en") return stem(word, buffer);
  // Until it stands still, so every form of a word ends on one lemma: "bookings" -> "booking"
  // -> "book", as "booking" -> "book".
  std::string_view current = word;
  for (int step = 0; step < 3; ++step) {
    std::string_view base = english_base_form(current);
    if (base.empty() || base == current) break;
    buffer.assign(base);
    current = buffer;
  }
  return current;
}

std::vector<std::string> Analyzer::lemmas(std::string_view text, bool content_only) const {
  count_pass();
  std::vector<std::string> out;
  std::string plain, buffer;
  parley::for_each_word(text, [&](std::string_view w) {
    std::string_view surface = surface_of(w, plain);
    if (content_only && is_stop_word(surface)) return;
    out.emplace_back(lemma(surface, buffer));
  });
  return out;
}

void Analyzer::for_each_word(std::string_view text,
                             const std::function<void(const AnalyzedWord&)>& emit) const {
  count_pass();
  std::string plain, stemmed;
  parley::for_each_word(text, [&](std::string_view w) {
    std::string_view surface = surface_of(w, plain);
    AnalyzedWord word{surface, stem(surface, stemmed), is_stop_word(surface)};
    emit(word);
  });
}

std::vector<std::string> Analyzer::terms(std::string_view text) const {
  std::vector<std::string> out;
  for_each_word(text, [&](const AnalyzedWord& w) { out.emplace_back(w.stem); });
  return out;
}

std::vector<std::string> Analyzer::content_terms(std::string_view text) const {
  std::vector<std::string> out;
  for_each_word(text, [&](const AnalyzedWord& w) {
    if (!w.stop) out.emplace_back(w.stem);
  });
  return out;
}

}  // namespace parley
