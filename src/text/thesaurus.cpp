#include "text/thesaurus.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <span>

namespace parley {

namespace {

constexpr uint8_t kNoun = 1, kVerb = 2, kAdjective = 4, kAdverb = 8;

uint8_t pos_bit(char letter) {
  switch (letter) {
    case 'n':
      return kNoun;
    case 'v':
      return kVerb;
    case 'a':
      return kAdjective;
    case 'r':
      return kAdverb;
    default:
      return 0;
  }
}

char pos_letter(uint8_t bit) {
  return bit == kNoun ? 'n' : bit == kVerb ? 'v' : bit == kAdjective ? 'a' : 'r';
}

// The text of `rest` before the first space; drops it and the space from `rest`.
std::string_view next_field(std::string_view& rest) {
  size_t space = rest.find(' ');
  std::string_view field = rest.substr(0, space);
  rest.remove_prefix(space == std::string_view::npos ? rest.size() : space + 1);
  return field;
}

template <class Visit>
void for_each_line(std::span<const std::string_view> pieces, Visit&& visit) {
  for (std::string_view piece : pieces) {
    while (!piece.empty()) {
      size_t end = std::min(piece.find('\n'), piece.size());
      if (end > 0) visit(piece.substr(0, end));
      piece.remove_prefix(std::min(end + 1, piece.size()));
    }
  }
}

size_t count_lines(std::span<const std::string_view> pieces) {
  size_t lines = 0;
  for (std::string_view piece : pieces) lines += std::count(piece.begin(), piece.end(), '\n');
  return lines;
}

// WordNet's morphy detachment rules: an ending, what replaces it, the part of speech it inflects.
// `doubles`: the ending may follow a doubled consonant ("stopped", "shipping", "bigger").
struct Detachment {
  std::string_view suffix;
  std::string_view ending;
  uint8_t pos;
  bool doubles;
};

constexpr Detachment kDetachments[] = {
    {"s", "", kNoun, false},        {"ses", "s", kNoun, false},      {"xes", "x", kNoun, false},
    {"zes", "z", kNoun, false},     {"ches", "ch", kNoun, false},    {"shes", "sh", kNoun, false},
    {"men", "man", kNoun, false},   {"ies", "y", kNoun, false},      {"s", "", kVerb, false},
    {"ies", "y", kVerb, false},     {"es", "e", kVerb, false},       {"es", "", kVerb, false},
    {"ed", "e", kVerb, false},      {"ed", "", kVerb, true},         {"ing", "e", kVerb, false},
    {"ing", "", kVerb, true},       {"er", "", kAdjective, true},    {"est", "", kAdjective, true},
    {"er", "e", kAdjective, false}, {"est", "e", kAdjective, false},
};

bool is_vowel(char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; }

// Whether `stem` is one syllable ending consonant-vowel-consonant ("ship", "stop", "big", "quit"),
// whose last consonant doubles before -ed, -ing, -er and -est: "shiped" is no inflection of
// "ship". W, x and y never double ("fixed", "played").
bool must_double(std::string_view stem) {
  size_t n = stem.size();
  if (n < 3) return false;
  char last = stem[n - 1];
  if (is_vowel(last) || last == 'w' || last == 'x' || last == 'y') return false;
  if (!is_vowel(stem[n - 2])) return false;
  size_t onset = n - 3;  // the consonant before the vowel; "qu" is one consonant
  if (stem[onset] == 'u' && onset > 0 && stem[onset - 1] == 'q') --onset;
  if (is_vowel(stem[onset])) return false;
  for (size_t i = 0; i < onset; ++i) {
    if (is_vowel(stem[i]) || (stem[i] == 'y' && i > 0)) return false;  // a second syllable
  }
  return true;
}

// Calls visit(base, pos bit) with each base form the detachment rules give for `word`, until
// visit returns true; returns whether it did.
template <class Visit>
bool for_each_base(std::string_view word, Visit&& visit) {
  std::string base;
  for (const Detachment& rule : kDetachments) {
    if (word.size() <= rule.suffix.size() || !word.ends_with(rule.suffix)) continue;
    std::string_view stem = word.substr(0, word.size() - rule.suffix.size());
    if (!rule.doubles || !must_double(stem)) {
      base.assign(stem);
      base += rule.ending;
      if (visit(std::string_view(base), rule.pos)) return true;
    }
    size_t n = stem.size();
    if (rule.doubles && n >= 3 && stem[n - 1] == stem[n - 2] && !is_vowel(stem[n - 1]) &&
        visit(stem.substr(0, n - 1), rule.pos)) {
      return true;
    }
  }
  return false;
}

// What an unordered container allocates: its buckets, and per element a node holding the value,
// the next pointer and the cached hash, plus the allocator's own 16 bytes.
template <class Map>
size_t table_bytes(const Map& map) {
  return map.bucket_count() * sizeof(void*) +
         map.size() * (sizeof(typename Map::value_type) + 2 * sizeof(void*) + 16);
}

size_t vector_bytes(const std::vector<std::string>& words) {
  size_t bytes = words.capacity() * sizeof(std::string) + 16;
  for (const std::string& w : words) {
    if (w.capacity() > 15) bytes += w.capacity() + 1 + 16;  // past the short-string buffer
  }
  return bytes;
}

}  // namespace

Thesaurus::Thesaurus(const ThesaurusData& data) {
  for (auto pieces : {data.lexicon, data.exceptions, data.thesaurus}) {
    for (std::string_view piece : pieces) data_bytes_ += piece.size();
  }

  size_t lines = count_lines(data.lexicon);
  lemmas_.reserve(lines);
  lemma_pos_.reserve(lines);
  lemma_usage_.reserve(lines);
  slots_.assign(std::bit_ceil(2 * lines + 1), 0);  // at most half full: short probe runs
  for_each_line(data.lexicon, [&](std::string_view line) {
    std::string_view lemma = next_field(line);
    uint8_t pos = 0;
    for (char letter : next_field(line)) pos |= pos_bit(letter);
    uint32_t usage = 0;
    for (char digit : line)
      if (digit >= '0' && digit <= '9') usage = usage * 10 + static_cast<uint32_t>(digit - '0');
    uint32_t& slot = slots_[find_slot(lemma)];
    if (slot != 0) {  // listed twice: the parts of speech and the usage add up
      lemma_pos_[slot - 1] |= pos;
      lemma_usage_[slot - 1] += usage;
      return;
    }
    lemmas_.push_back(lemma);
    lemma_pos_.push_back(pos);
    lemma_usage_.push_back(usage);
    slot = static_cast<uint32_t>(lemmas_.size());
  });

  exceptions_.reserve(count_lines(data.exceptions));
  for_each_line(data.exceptions, [&](std::string_view line) {
    std::string_view inflection = next_field(line);
    exceptions_.emplace(inflection, line);
  });

  size_t synonym_lines = count_lines(data.thesaurus);
  synonyms_by_pos_.reserve(synonym_lines);
  synonyms_.reserve(synonym_lines);  // a word has a line for each part of speech
  for_each_line(data.thesaurus, [&](std::string_view line) {
    std::string_view rest = line;
    std::string_view word = next_field(rest);
    std::string_view word_and_pos = line.substr(0, word.size() + 1 + next_field(rest).size());
    std::vector<std::string>& by_pos = synonyms_by_pos_[word_and_pos];
    std::vector<std::string>& all = synonyms_[word];
    while (!rest.empty()) {
      std::string_view synonym = next_field(rest);
      by_pos.emplace_back(synonym);
      if (std::find(all.begin(), all.end(), synonym) == all.end()) all.emplace_back(synonym);
    }
  });
}

const Thesaurus& Thesaurus::english() {
  static const Thesaurus thesaurus(embedded_thesaurus_data());
  return thesaurus;
}

size_t Thesaurus::find_slot(std::string_view lemma) const {
  size_t mask = slots_.size() - 1;  // the size is a power of two
  size_t slot = std::hash<std::string_view>{}(lemma)&mask;
  while (slots_[slot] != 0 && lemmas_[slots_[slot] - 1] != lemma) slot = (slot + 1) & mask;
  return slot;
}

uint8_t Thesaurus::parts_of_speech(std::string_view lemma) const {
  uint32_t slot = slots_[find_slot(lemma)];
  return slot == 0 ? 0 : lemma_pos_[slot - 1];
}

const std::vector<std::string>* Thesaurus::synonyms_as(std::string_view lemma, uint8_t pos) const {
  std::string key;
  key.reserve(lemma.size() + 2);
  key.append(lemma).append(1, ' ').append(1, pos_letter(pos));
  auto it = synonyms_by_pos_.find(key);
  return it == synonyms_by_pos_.end() ? nullptr : &it->second;
}

uint32_t Thesaurus::lemma_usage(std::string_view lemma) const {
  uint32_t slot = slots_[find_slot(lemma)];
  return slot == 0 ? 0 : lemma_usage_[slot - 1];
}

std::string_view Thesaurus::exception_lemma(std::string_view lower_word) const {
  auto [first, last] = exceptions_.equal_range(lower_word);
  for (auto it = first; it != last; ++it) {
    std::string_view rest = it->second;
    next_field(rest);  // the part of speech
    if (!rest.empty()) return next_field(rest);
  }
  return {};
}

std::string_view Thesaurus::rule_lemma(std::string_view lower_word, uint8_t parts) const {
  std::string_view found;
  for_each_base(lower_word, [&](std::string_view base, uint8_t pos) {
    if ((pos & parts) == 0) return false;
    uint32_t slot = slots_[find_slot(base)];
    if (slot == 0 || (lemma_pos_[slot - 1] & pos) == 0) return false;
    found = lemmas_[slot - 1];
    return true;
  });
  return found;
}

std::string_view Thesaurus::base_form(std::string_view lower_word) const {
  // An inflection is read as one before the word is taken for a lemma of its own: "talking" is
  // "talk" (though a noun too), "are" is "be" (though a unit of area).
  if (auto lemma = exception_lemma(lower_word); !lemma.empty()) return lemma;
  // Regular inflections, by WordNet's morphy rules: the first base form that is a lemma of the
  // part of speech the ending inflects ("refunds" -> "refund", "cheaper" -> "cheap").
  std::string_view found = rule_lemma(lower_word, kNoun | kVerb | kAdjective | kAdverb);
  if (found.empty() && parts_of_speech(lower_word) != 0) return lower_word;
  return found;
}

std::string_view Thesaurus::irregular_base(std::string_view lower_word) const {
  if (auto lemma = exception_lemma(lower_word); !lemma.empty()) return lemma;
  if (!lower_word.ends_with("er") && !lower_word.ends_with("est")) return {};
  // A word that is a lemma of its own ("water", "winter") is not a comparative.
  if (parts_of_speech(lower_word) != 0) return {};
  return rule_lemma(lower_word, kAdjective);
}

uint32_t Thesaurus::usage(std::string_view lower_word) const {
  if (uint32_t slot = slots_[find_slot(lower_word)]; slot != 0) return lemma_usage_[slot - 1];
  uint32_t best = 0;
  auto [first, last] = exceptions_.equal_range(lower_word);
  for (auto it = first; it != last; ++it) {
    std::string_view rest = it->second;
    next_field(rest);
    while (!rest.empty()) best = std::max(best, lemma_usage(next_field(rest)));
  }
  for_each_base(lower_word, [&](std::string_view base, uint8_t pos) {
    uint32_t slot = slots_[find_slot(base)];
    if (slot != 0 && (lemma_pos_[slot - 1] & pos) != 0) best = std::max(best, lemma_usage_[slot - 1]);
    return false;
  });
  return best;
}

bool Thesaurus::is_word(std::string_view lower_word) const {
  if (parts_of_speech(lower_word) != 0 || exceptions_.contains(lower_word)) return true;
  return for_each_base(lower_word, [&](std::string_view base, uint8_t pos) {
    return (parts_of_speech(base) & pos) != 0;
  });
}

const std::vector<std::string>* Thesaurus::synonyms(std::string_view lower_word) const {
  if (auto it = synonyms_.find(lower_word); it != synonyms_.end()) return &it->second;

  // As WordNet's morphy reads a word for one part of speech: the word itself when it is a lemma
  // of that part (then it has no synonyms there), else an irregular form's lemma, else what the
  // rules detach. So "buying" the verb is "buy", though "buying" is a noun too.
  auto [first, last] = exceptions_.equal_range(lower_word);
  uint8_t own = parts_of_speech(lower_word);
  for (uint8_t pos : {kNoun, kVerb, kAdjective, kAdverb}) {
    if ((own & pos) != 0) continue;
    for (auto it = first; it != last; ++it) {
      std::string_view rest = it->second;
      if (pos_bit(next_field(rest).front()) != pos) continue;
      while (!rest.empty()) {
        if (const auto* found = synonyms_as(next_field(rest), pos)) return found;
      }
    }
    const std::vector<std::string>* found = nullptr;
    for_each_base(lower_word, [&](std::string_view base, uint8_t base_pos) {
      if (base_pos == pos && (parts_of_speech(base) & pos) != 0) found = synonyms_as(base, pos);
      return found != nullptr;
    });
    if (found != nullptr) return found;
  }
  return nullptr;
}

ThesaurusStats Thesaurus::stats() const {
  ThesaurusStats s;
  s.lemmas = lemmas_.size();
  const std::string_view* previous = nullptr;  // a multimap keeps equal keys side by side
  for (const auto& [inflection, lemmas] : exceptions_) {
    if (previous == nullptr || *previous != inflection) ++s.irregular_forms;
    previous = &inflection;
  }
  s.words_with_synonyms = synonyms_.size();
  s.data_bytes = data_bytes_;
  s.heap_bytes = lemmas_.capacity() * sizeof(std::string_view) + lemma_pos_.capacity() +
                 lemma_usage_.capacity() * sizeof(uint32_t) +
                 slots_.capacity() * sizeof(uint32_t) + table_bytes(exceptions_) +
                 table_bytes(synonyms_) + table_bytes(synonyms_by_pos_);
  for (const auto& [word, words] : synonyms_) {
    s.synonyms += words.size();
    s.heap_bytes += vector_bytes(words);
  }
  for (const auto& [word, words] : synonyms_by_pos_) s.heap_bytes += vector_bytes(words);
  return s;
}

bool is_english_word(std::string_view lower_word) {
  return Thesaurus::english().is_word(lower_word);
}

const std::vector<std::string>* english_synonyms(std::string_view lower_word) {
  return Thesaurus::english().synonyms(lower_word);
}

uint32_t english_usage(std::string_view lower_word) { return Thesaurus::english().usage(lower_word); }

std::string_view english_irregular_base(std::string_view lower_word) {
  return Thesaurus::english().irregular_base(lower_word);
}

std::string_view english_base_form(std::string_view lower_word) {
  return Thesaurus::english().base_form(lower_word);
}

}  // namespace parley
