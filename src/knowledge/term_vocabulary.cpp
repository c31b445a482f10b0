#include "knowledge/term_vocabulary.h"

#include <algorithm>
#include <array>
#include <bit>
#include <functional>

#include "knowledge/index_bytes.h"
#include "text/tokenizer.h"

namespace parley {

namespace {
uint32_t letter_bits(std::string_view word) {
  uint32_t bits = 0;
  for (char c : word)
    if (c >= 'a' && c <= 'z') bits |= 1u << (c - 'a');
  return bits;
}

// The characters of a UTF-8 word (invalid bytes count one each).
std::u32string characters(std::string_view word) {
  std::u32string out;
  out.reserve(word.size());
  for (size_t i = 0; i < word.size();) {
    auto c = static_cast<unsigned char>(word[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
    if (i + n > word.size()) n = 1;
    char32_t cp = n == 1 ? c : c & (0xFF >> (n + 1));
    for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(word[i + k]) & 0x3F);
    out.push_back(cp);
    i += n;
  }
  return out;
}

// Whether every character is a letter of the Latin alphabet (with its accents) or a digit.
bool latin(const std::u32string& word) {
  return std::all_of(word.begin(), word.end(), [](char32_t c) { return c < 0x250; });
}

// The edits a word of this many characters may be away from the word meant: short words are too
// easily another real word to be corrected at all.
// Words longer than kLongestCorrected are not corrected either: they are codes, numbers or
// run-together text rather than misspelt words, and the distance's table grows with the square of
// the length (a question of 1,000-letter words against a vocabulary of such words cost seconds).
constexpr size_t kLongestCorrected = 40;
int allowed_distance(size_t length) {
  if (length < 4 || length > kLongestCorrected) return 0;
  return length < 8 ? 1 : 2;
}

// The group terms' names cannot collide with a word's: no word holds a control character.
std::string group_name(size_t group) { return "\x01g" + std::to_string(group); }
}  // namespace

namespace {
template <typename Text>
int osa_distance(const Text& a, const Text& b, int limit) {
  const size_t n = a.size(), m = b.size();
  if (static_cast<int>(n > m ? n - m : m - n) > limit) return limit + 1;
  // Three rows of the optimal string alignment table: on the stack for words of up to 64
  // characters (every word spelling correction compares), allocated for longer ones.
  constexpr size_t kOnStack = 65;
  std::array<int, kOnStack> rows_a, rows_b, rows_c;
  std::vector<int> heap;
  int *before = rows_a.data(), *prev = rows_b.data(), *cur = rows_c.data();
  if (m + 1 > kOnStack) {
    heap.resize(3 * (m + 1));
    before = heap.data();
    prev = before + (m + 1);
    cur = prev + (m + 1);
  }
  // Only the band |i - j| <= limit can hold a distance within the limit; the cell each side of
  // a row's band is limit + 1, so the next rows read no stale value.
  const int over = limit + 1;
  const size_t band = static_cast<size_t>(limit);
  for (size_t j = 0; j <= m; ++j) prev[j] = j <= band ? static_cast<int>(j) : over;
  for (size_t i = 1; i <= n; ++i) {
    const size_t lo = i > band ? i - band : 1, hi = std::min(m, i + band);
    cur[lo - 1] = lo == 1 ? static_cast<int>(i) : over;
    int row_min = cur[lo - 1];
    for (size_t j = lo; j <= hi; ++j) {
      int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      int v = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) v = std::min(v, before[j - 2] + 1);
      cur[j] = v;
      row_min = std::min(row_min, v);
    }
    if (hi < m) cur[hi + 1] = over;
    if (row_min > limit) return over;
    std::swap(before, prev);
    std::swap(prev, cur);
  }
  return std::min(prev[m], limit + 1);
}

bool ascii(std::string_view word) {
  return std::all_of(word.begin(), word.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}
}  // namespace

int edit_distance(std::string_view a, std::string_view b, int limit) {
  if (ascii(a) && ascii(b)) return osa_distance(a, b, limit);
  return osa_distance(characters(a), characters(b), limit);
}

TermVocabulary::TermVocabulary(const Analyzer& analyzer, const std::vector<std::vector<std::string>>& synonyms)
    : analyzer_(&analyzer) {
  for (size_t g = 0; g < synonyms.size(); ++g) {
    uint32_t group = term_for_stem(group_name(g), true);
    for (const auto& member : synonyms[g]) {
      if (phrase_nodes_.empty()) phrase_nodes_.emplace_back();
      uint32_t node = 0;
      analyzer.for_each_word(member, [&](const AnalyzedWord& w) {
        uint32_t term = term_for_stem(w.stem, true);
        auto [it, added] =
            phrase_nodes_[node].next.try_emplace(term, static_cast<uint32_t>(phrase_nodes_.size()));
        node = it->second;  // read before the nodes may move
        if (added) phrase_nodes_.emplace_back();
      });
      if (node == 0) continue;  // no word
      auto& groups = phrase_nodes_[node].groups;
      if (std::find(groups.begin(), groups.end(), group) == groups.end()) groups.push_back(group);
    }
  }
}

uint32_t TermVocabulary::term_for_stem(std::string_view stem, bool create) {
  uint32_t id = stems_.find(stem);
  if (id != StringTable::kMissing || !create) return id;
  return stems_.add(stem);
}

uint32_t TermVocabulary::find_stem(std::string_view stem) const { return stems_.find(stem); }

uint32_t TermVocabulary::find_surface(std::string_view surface) const {
  uint32_t index = surface_words_.find(surface);
  return index == StringTable::kMissing ? kNoTerm : surfaces_[index].term;
}

void TermVocabulary::find_groups(const std::vector<uint32_t>& terms,
                                 const std::function<void(size_t, size_t, uint32_t)>& found) const {
  if (phrase_nodes_.empty()) return;
  std::unordered_map<uint32_t, size_t> covered;  // group -> the end of its words found so far
  for (size_t i = 0; i < terms.size(); ++i) {
    uint32_t node = 0;
    for (size_t j = i; j < terms.size(); ++j) {
      auto next = phrase_nodes_[node].next.find(terms[j]);
      if (next == phrase_nodes_[node].next.end()) break;
      node = next->second;
      for (uint32_t group : phrase_nodes_[node].groups) {
        size_t& end = covered[group];
        if (j + 1 <= end) continue;
        found(std::max(i, end), j + 1, group);
        end = j + 1;
      }
    }
  }
}

void TermVocabulary::analyze(std::string_view text, std::vector<TermToken>& tokens,
                             std::vector<uint32_t>& groups) const {
  tokens_of(text, nullptr, tokens, groups);
}

void TermVocabulary::learn(std::string_view text, std::vector<TermToken>& tokens, std::vector<uint32_t>& groups) {
  tokens_of(text, this, tokens, groups);
}

void TermVocabulary::tokens_of(std::string_view text, TermVocabulary* learner, std::vector<TermToken>& tokens,
                               std::vector<uint32_t>& groups) const {
  tokens.clear();
  groups.clear();
  std::string stem_buffer;
  for_each_word(text, [&](std::string_view word) {
    // A word seen before needs no stemming: its term is remembered with it.
    uint32_t seen = surface_words_.find(word);
    if (seen != StringTable::kMissing) {
      const Surface& s = surfaces_[seen];
      if (learner) ++learner->surfaces_[seen].count;
      tokens.push_back({s.term, s.stop});
      return;
    }
    bool found = false, stop = false;
    analyzer_->for_each_word(word, [&](const AnalyzedWord& w) {
      if (found) return;
      found = true;
      stop = w.stop;
      stem_buffer.assign(w.stem);
    });
    if (!found) return;
    uint32_t term = learner ? learner->term_for_stem(stem_buffer, true) : find_stem(stem_buffer);
    if (learner) {
      learner->surface_words_.add(word);
      auto chars = static_cast<uint16_t>(std::min<size_t>(characters(word).size(), UINT16_MAX));
      learner->surfaces_.push_back({term, 1, letter_bits(word), chars, stop});
    }
    tokens.push_back({term, stop});
  });
  if (phrase_nodes_.empty()) return;
  std::vector<uint32_t> terms;
  terms.reserve(tokens.size());
  for (const auto& t : tokens) terms.push_back(t.term);
  find_groups(terms, [&](size_t, size_t, uint32_t group) { groups.push_back(group); });
}

std::vector<QueryWord> TermVocabulary::analyze_query(const AnalyzedText& text) const {
  std::vector<QueryWord> words;
  words.reserve(text.words().size());
  for (const WordForms& w : text.words()) {
    QueryWord q;
    q.surface = w.surface;
    q.stem = w.stem;
    q.stop = w.stop;
    q.term = find_surface(q.surface);
    if (q.term == kNoTerm) q.term = find_stem(q.stem);
    words.push_back(std::move(q));
  }
  std::vector<uint32_t> terms;
  for (const auto& w : words) terms.push_back(w.term == kNoTerm ? find_stem(w.stem) : w.term);
  find_groups(terms, [&](size_t from, size_t to, uint32_t group) {
    for (size_t i = from; i < to; ++i) words[i].groups.push_back(group);
  });
  return words;
}

Correction TermVocabulary::correct(std::string_view surface, const std::function<bool(uint32_t)>& live) const {
  Correction best;
  const std::u32string chars = characters(surface);
  if (!latin(chars)) return best;
  int limit = allowed_distance(chars.size());
  if (limit == 0) return best;
  uint32_t letters = letter_bits(surface);
  uint32_t best_count = 0;
  for (uint32_t i = 0; i < surfaces_.size(); ++i) {
    const Surface& s = surfaces_[i];
    size_t gap = s.chars > chars.size() ? s.chars - chars.size() : chars.size() - s.chars;
    if (static_cast<int>(gap) > limit) continue;
    // Each edit changes at most two letters of the set, so far sets are far words.
    if (std::popcount(letters ^ s.letters) > 2 * limit) continue;
    if (allowed_distance(s.chars) == 0) continue;
    int d = edit_distance(surface, surface_words_.at(i), best.term == kNoTerm ? limit : best.distance);
    if (d > limit || !live(s.term)) continue;
    if (best.term == kNoTerm || d < best.distance || (d == best.distance && s.count > best_count)) {
      best = {s.term, d};
      best_count = s.count;
    }
  }
  return best;
}

size_t TermVocabulary::memory_bytes() const {
  size_t bytes = stems_.memory_bytes() + surface_words_.memory_bytes() + surfaces_.capacity() * sizeof(Surface);
  for (const auto& n : phrase_nodes_)
    bytes += sizeof(PhraseNode) + n.next.bucket_count() * sizeof(void*) +
             n.next.size() * (2 * sizeof(uint32_t) + 2 * sizeof(void*)) +
             n.groups.capacity() * sizeof(uint32_t);
  return bytes;
}

void TermVocabulary::save(ByteWriter& out) const {
  out.varint(stems_.size());
  for (uint32_t i = 0; i < stems_.size(); ++i) out.str(stems_.at(i));
  out.varint(surfaces_.size());
  for (uint32_t i = 0; i < surfaces_.size(); ++i) {
    const Surface& s = surfaces_[i];
    out.str(surface_words_.at(i));
    out.varint(s.term);
    out.varint(s.count);
    out.u32(s.letters);
    out.varint(s.chars);
    out.u8(s.stop ? 1 : 0);
  }
}

bool TermVocabulary::load(ByteReader& in) {
  size_t terms = in.count();
  // The synonym groups made the first terms; the form must name them alike.
  size_t made = stems_.size();
  if (terms < made) in.fail();
  for (size_t i = 0; i < terms && in.ok(); ++i) {
    std::string_view name = in.str();
    if (i < made ? stems_.at(static_cast<uint32_t>(i)) != name : term_for_stem(name, true) != i) in.fail();
  }
  size_t words = in.count(8);
  surfaces_.reserve(words);
  for (size_t i = 0; i < words && in.ok(); ++i) {
    std::string_view word = in.str();
    uint32_t term = in.id(), count = in.id(), letters = in.u32(), chars = in.id();
    bool stop = in.u8() != 0;
    if (surface_words_.find(word) != StringTable::kMissing || term >= stems_.size() || chars > UINT16_MAX) {
      in.fail();
      break;
    }
    surface_words_.add(word);
    surfaces_.push_back({term, count, letters, static_cast<uint16_t>(chars), stop});
  }
  stems_.shrink();
  surface_words_.shrink();
  return in.ok();
}

}  // namespace parley
