#include "knowledge/term_vocabulary.h"

#include <algorithm>
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
int allowed_distance(size_t length) {
  if (length < 4) return 0;
  return length < 8 ? 1 : 2;
}

constexpr float kMaxLoad = 0.5f;

// The group terms' names cannot collide with a word's: no word holds a control character.
std::string group_name(size_t group) { return "\x01g" + std::to_string(group); }
}  // namespace

namespace {
template <typename Text>
int osa_distance(const Text& a, const Text& b, int limit) {
  const size_t n = a.size(), m = b.size();
  if (static_cast<int>(n > m ? n - m : m - n) > limit) return limit + 1;
  // Three rows of the optimal string alignment table.
  std::vector<int> before(m + 1), prev(m + 1), cur(m + 1);
  for (size_t j = 0; j <= m; ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = static_cast<int>(i);
    int row_min = cur[0];
    for (size_t j = 1; j <= m; ++j) {
      int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      int v = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) v = std::min(v, before[j - 2] + 1);
      cur[j] = v;
      row_min = std::min(row_min, v);
    }
    if (row_min > limit) return limit + 1;
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
  // Every word of the knowledge is looked up here: short bucket chains keep that to one probe.
  surface_ids_.max_load_factor(kMaxLoad);
  term_ids_.max_load_factor(kMaxLoad);
  for (size_t g = 0; g < synonyms.size(); ++g) {
    uint32_t group = term_for_stem(group_name(g), true);
    for (const auto& member : synonyms[g]) {
      Phrase phrase{{}, group};
      analyzer.for_each_word(member, [&](const AnalyzedWord& w) { phrase.terms.push_back(term_for_stem(w.stem, true)); });
      if (phrase.terms.empty()) continue;
      phrases_by_first_[phrase.terms.front()].push_back(static_cast<uint32_t>(phrases_.size()));
      phrases_.push_back(std::move(phrase));
    }
  }
}

uint32_t TermVocabulary::term_for_stem(std::string_view stem, bool create) {
  auto it = term_ids_.find(stem);
  if (it != term_ids_.end()) return it->second;
  if (!create) return kNoTerm;
  auto id = static_cast<uint32_t>(term_names_.size());
  auto inserted = term_ids_.emplace(std::string(stem), id).first;
  term_names_.push_back(inserted->first);
  return id;
}

uint32_t TermVocabulary::find_stem(std::string_view stem) const {
  auto it = term_ids_.find(stem);
  return it == term_ids_.end() ? kNoTerm : it->second;
}

uint32_t TermVocabulary::find_surface(std::string_view surface) const {
  auto it = surface_ids_.find(surface);
  return it == surface_ids_.end() ? kNoTerm : surfaces_[it->second].term;
}

void TermVocabulary::find_groups(const std::vector<uint32_t>& terms,
                                 const std::function<void(size_t, size_t, uint32_t)>& found) const {
  if (phrases_.empty()) return;
  for (size_t i = 0; i < terms.size(); ++i) {
    auto starting = phrases_by_first_.find(terms[i]);
    if (starting == phrases_by_first_.end()) continue;
    for (uint32_t index : starting->second) {
      const Phrase& p = phrases_[index];
      if (p.terms.size() > terms.size() - i) continue;
      if (std::equal(p.terms.begin(), p.terms.end(), terms.begin() + static_cast<std::ptrdiff_t>(i)))
        found(i, i + p.terms.size(), p.group);
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
    auto it = surface_ids_.find(word);
    if (it != surface_ids_.end()) {
      const Surface& s = surfaces_[it->second];
      if (learner) ++learner->surfaces_[it->second].count;
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
      auto index = static_cast<uint32_t>(surfaces_.size());
      auto inserted = learner->surface_ids_.emplace(std::string(word), index).first;
      auto chars = static_cast<uint32_t>(characters(word).size());
      learner->surfaces_.push_back({&inserted->first, term, 1, letter_bits(word), chars, stop});
    }
    tokens.push_back({term, stop});
  });
  if (phrases_.empty()) return;
  std::vector<uint32_t> terms;
  terms.reserve(tokens.size());
  for (const auto& t : tokens) terms.push_back(t.term);
  find_groups(terms, [&](size_t, size_t, uint32_t group) { groups.push_back(group); });
}

std::vector<QueryWord> TermVocabulary::analyze_query(std::string_view text) const {
  std::vector<QueryWord> words;
  analyzer_->for_each_word(text, [&](const AnalyzedWord& w) {
    QueryWord q;
    q.surface = std::string(w.surface);
    q.stem = std::string(w.stem);
    q.stop = w.stop;
    q.term = find_surface(q.surface);
    if (q.term == kNoTerm) q.term = find_stem(q.stem);
    words.push_back(std::move(q));
  });
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
  for (const Surface& s : surfaces_) {
    size_t gap = s.chars > chars.size() ? s.chars - chars.size() : chars.size() - s.chars;
    if (static_cast<int>(gap) > limit) continue;
    // Each edit changes at most two letters of the set, so far sets are far words.
    if (std::popcount(letters ^ s.letters) > 2 * limit) continue;
    if (allowed_distance(s.chars) == 0) continue;
    int d = edit_distance(surface, *s.word, best.term == kNoTerm ? limit : best.distance);
    if (d > limit || !live(s.term)) continue;
    if (best.term == kNoTerm || d < best.distance || (d == best.distance && s.count > best_count)) {
      best = {s.term, d};
      best_count = s.count;
    }
  }
  return best;
}

size_t TermVocabulary::memory_bytes() const {
  size_t bytes = term_names_.capacity() * sizeof(std::string_view) + surfaces_.capacity() * sizeof(Surface);
  // A hash node holds the key, the value, the next pointer and the cached hash.
  for (const auto& [word, id] : term_ids_) bytes += sizeof(word) + 24 + (word.size() > 15 ? word.capacity() + 1 : 0);
  for (const auto& [word, id] : surface_ids_) bytes += sizeof(word) + 24 + (word.size() > 15 ? word.capacity() + 1 : 0);
  bytes += (term_ids_.bucket_count() + surface_ids_.bucket_count()) * sizeof(void*);
  return bytes;
}

void TermVocabulary::save(ByteWriter& out) const {
  out.varint(term_names_.size());
  for (std::string_view name : term_names_) out.str(name);
  out.varint(surfaces_.size());
  for (const Surface& s : surfaces_) {
    out.str(*s.word);
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
  if (terms < term_names_.size()) in.fail();
  for (size_t i = 0; i < terms && in.ok(); ++i) {
    std::string_view name = in.str();
    if (i < term_names_.size() ? term_names_[i] != name : term_for_stem(name, true) != i) in.fail();
  }
  size_t words = in.count(8);
  surfaces_.reserve(words);
  for (size_t i = 0; i < words && in.ok(); ++i) {
    std::string_view word = in.str();
    Surface s{nullptr, in.id(), in.id(), in.u32(), in.id(), in.u8() != 0};
    auto [it, fresh] = surface_ids_.emplace(std::string(word), static_cast<uint32_t>(surfaces_.size()));
    if (!fresh || (s.term >= term_names_.size() && s.term != kNoTerm)) {
      in.fail();
      break;
    }
    s.word = &it->first;
    surfaces_.push_back(s);
  }
  return in.ok();
}

}  // namespace parley
