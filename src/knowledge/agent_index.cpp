#include "knowledge/agent_index.h"

#include <algorithm>
#include <cmath>

#include "knowledge/answerability.h"
#include "knowledge/chunker.h"
#include "text/sentences.h"
#include "text/normalizer.h"
#include "text/thesaurus.h"

namespace parley {

void decode_terms(std::span<const uint8_t> bytes, std::vector<uint32_t>& out) {
  uint32_t term = 0, v = 0;
  int shift = 0;
  for (uint8_t b : bytes) {
    v |= static_cast<uint32_t>(b & 0x7F) << shift;
    if (b & 0x80) {
      shift = std::min(shift + 7, 28);  // a longer one is corrupt; it stays within 32 bits
      continue;
    }
    term += v;
    out.push_back(term);
    v = 0;
    shift = 0;
  }
}

namespace {
// Field weights: how many times a word of the field counts.
constexpr float kTitleWeight = 2.0f;
constexpr float kHeadingWeight = 1.5f;
constexpr float kQuestionWeight = 2.0f;
constexpr float kAnswerWeight = 1.0f;
// Credits of the terms that stand for a question's word besides its own.
constexpr float kCorrectionCredit = 0.9f;
constexpr float kSynonymCredit = 0.6f;
// A word the knowledge lacks weighs as much as a word no chunk holds, less the more common it is
// in English: 1 - log10(1 + usage) / kUsageDecades of that, and at least kCommonWordShare.
constexpr double kUsageDecades = 3.0;
constexpr double kCommonWordShare = 0.15;
constexpr double kUnknownShareWithoutUsage = 0.5;
// The usage a number the knowledge lacks is given: a common word's.
constexpr double kNumberUsage = 1000.0;
// A question is weighed by its first kMaxSlots informative words, and at most kMaxCorrections of
// them are looked up for a spelling correction (each looks through the whole vocabulary), so a
// long message costs no more than a question.
constexpr size_t kMaxSlots = 48;
constexpr size_t kMaxCorrections = 8;
// The index asks to be rebuilt once removed documents outnumber live ones and this many.
constexpr size_t kRebuildAfterRemovals = 256;
// Answers are judged among this many of BM25's best chunks and Q&A pairs.
constexpr size_t kAnswerChunks = 12;
constexpr size_t kAnswerPairs = 4;
// A close question scores below an exact one (1.0) in match_qa, however much it covers.
constexpr double kCloseQuestionCeiling = 0.95;
// search() re-ranks by the coverage of a chunk's best sentences, at most this many of them.
constexpr size_t kSearchSentences = 3;
// search() ranks this many of BM25's best chunks per chunk asked for by sentence coverage.
constexpr size_t kRerankFactor = 4;
constexpr size_t kRerankMin = 16;
// A judged answer that leaves the question's heaviest word out is worth this share.
constexpr double kKeyMissing = 0.75;
// An answer without a number to a question asking for one is worth this share.
constexpr double kNumberMissing = 0.85;
// A Q&A pair answers instead of a chunk that is at most this much surer: its answer was written
// for the question.
constexpr double kQaPreference = 0.05;
// A pair whose question asks about more than the query did is worth less, up to this share for a
// question none of whose words were asked: "How much does shipping abroad cost?" is not the
// answer to "Do you ship abroad?".
constexpr double kUnaskedPenalty = 0.3;

double judged(const QueryPlan& plan, double covered, bool key_covered, std::string_view text) {
  double confidence = covered * (key_covered ? 1.0 : kKeyMissing);
  if (!states_kind(text, plan.kind)) confidence *= kNumberMissing;
  return confidence;
}
}  // namespace

AgentIndex::AgentIndex(const KnowledgeSettings& settings)
    : settings_(settings),
      vocabulary_(Analyzer::for_language_or_english(settings.language), settings.synonyms),
      english_(vocabulary_.analyzer().language() == "en") {}

float AgentIndex::learn(std::string_view text, std::vector<uint32_t>& occurrences) {
  if (text.empty()) return 0;
  vocabulary_.learn(text, scratch_tokens_, scratch_groups_);
  for (const auto& t : scratch_tokens_)
    if (!t.stop && t.term != kNoTerm) occurrences.push_back(t.term);
  occurrences.insert(occurrences.end(), scratch_groups_.begin(), scratch_groups_.end());
  return static_cast<float>(scratch_tokens_.size());
}

namespace {
void sort_unique(std::vector<uint32_t>& terms, size_t from = 0) {
  auto begin = terms.begin() + static_cast<std::ptrdiff_t>(from);
  std::sort(begin, terms.end());
  terms.erase(std::unique(begin, terms.end()), terms.end());
}

// Each term of `body` once with its count, then the other fields' occurrences added at their
// weights. `body` is sorted in place.
std::vector<WeightedTerm> weighted(std::vector<uint32_t>& body,
                                   const std::vector<std::pair<const std::vector<uint32_t>*, float>>& fields) {
  std::sort(body.begin(), body.end());
  std::vector<WeightedTerm> out;
  for (uint32_t t : body) {
    if (!out.empty() && out.back().term == t) out.back().weight += 1.0f;
    else out.push_back({t, 1.0f});
  }
  for (const auto& [occurrences, weight] : fields) {
    for (uint32_t t : *occurrences) {
      auto it = std::lower_bound(out.begin(), out.end(), t, [](const WeightedTerm& w, uint32_t term) { return w.term < term; });
      if (it != out.end() && it->term == t) it->weight += weight;
      else out.insert(it, {t, weight});
    }
  }
  return out;
}

// Appends sorted terms as varints of their differences (the first from 0).
void encode_terms(std::span<const uint32_t> terms, std::vector<uint8_t>& out) {
  uint32_t previous = 0;
  for (uint32_t t : terms) {
    uint32_t v = t - previous;
    previous = t;
    while (v >= 0x80) {
      out.push_back(static_cast<uint8_t>((v & 0x7F) | 0x80));
      v >>= 7;
    }
    out.push_back(static_cast<uint8_t>(v));
  }
}

std::vector<uint32_t> terms_of(const std::vector<WeightedTerm>& weighted_terms) {
  std::vector<uint32_t> out;
  out.reserve(weighted_terms.size());
  for (const auto& t : weighted_terms) out.push_back(t.term);
  return out;
}
}  // namespace

size_t AgentIndex::add(const IndexedSource& source) {
  remove(source.id);
  if (source.type == "qa") {
    std::vector<uint32_t> question, answer;
    float length = learn(source.question, question) + learn(source.answer, answer);
    std::vector<uint32_t> question_terms = question;
    sort_unique(question_terms);
    std::vector<uint32_t> none;
    auto terms = weighted(none, {{&question, kQuestionWeight}, {&answer, kAnswerWeight}});
    uint32_t doc = qa_docs_.add(terms, length);
    if (qa_.size() <= doc) qa_.resize(doc + 1);
    qa_[doc] = {source.id, source.question, source.answer, normalize_for_match(source.question, vocabulary_.analyzer()),
                terms_of(terms), std::move(question_terms)};
    qa_ids_[source.id] = doc;
    return 1;
  }
  auto source_index = static_cast<uint32_t>(sources_.size());
  std::vector<uint32_t> title;
  float title_length = source.title ? learn(*source.title, title) : 0;
  std::vector<uint32_t> title_terms = title;
  sort_unique(title_terms);
  sources_.push_back(Source{source.id, source.type, source.title, source.url, {}, std::move(title_terms)});
  source_ids_[source.id] = source_index;
  uint32_t ordinal = 0;
  std::vector<uint32_t> body, heading, sentence_terms;
  for (const Chunk& piece : chunk_sections(source.content)) {
    uint32_t index = ordinal++;
    ChunkEntry entry{source_index, index, std::string(piece.text), "", {}, {}, {}};
    // A heading the chunk starts with is already among its words.
    if (!piece.text.starts_with(piece.heading)) entry.heading = std::string(piece.heading);
    body.clear();
    float length = title_length;
    auto spans = sentence_spans(piece.text);
    for (size_t i = 0; i < spans.size(); ++i) {
      auto [b, e] = spans[i];
      std::string_view sentence = piece.text.substr(b, e - b);
      size_t from = body.size();
      length += learn(sentence, body);
      auto terms_begin = static_cast<uint32_t>(entry.terms.size());
      sentence_terms.assign(body.begin() + static_cast<std::ptrdiff_t>(from), body.end());
      sort_unique(sentence_terms);
      encode_terms(sentence_terms, entry.terms);
      // A heading line introduces what follows it; a last line without a full stop is text.
      bool heading_line = i + 1 < spans.size() && is_heading_line(sentence);
      entry.sentences.push_back({static_cast<uint32_t>(b), static_cast<uint32_t>(e), terms_begin,
                                 static_cast<uint32_t>(entry.terms.size()), heading_line});
    }
    heading.clear();
    length += learn(entry.heading, heading);
    entry.heading_terms = heading;
    sort_unique(entry.heading_terms);
    auto terms = weighted(body, {{&title, kTitleWeight}, {&heading, kHeadingWeight}});
    if (terms.empty()) continue;
    entry.text.shrink_to_fit();
    entry.sentences.shrink_to_fit();
    entry.terms.shrink_to_fit();
    uint32_t doc = chunk_docs_.add(terms, length);
    if (chunks_.size() <= doc) chunks_.resize(doc + 1);
    chunks_[doc] = std::move(entry);
    sources_[source_index].chunks.push_back(doc);
  }
  return sources_[source_index].chunks.size();
}

bool AgentIndex::remove(std::string_view source_id) {
  if (auto qa = qa_ids_.find(source_id); qa != qa_ids_.end()) {
    QaEntry& entry = qa_[qa->second];
    qa_docs_.remove(qa->second, entry.terms);
    entry = QaEntry{};
    qa_ids_.erase(qa);
    return true;
  }
  auto it = source_ids_.find(source_id);
  if (it == source_ids_.end()) return false;
  Source& source = sources_[it->second];
  for (uint32_t doc : source.chunks) {
    chunk_docs_.remove(doc, posted_terms(chunks_[doc]));
    chunks_[doc] = ChunkEntry{};
  }
  source.chunks.clear();
  source.chunks.shrink_to_fit();
  source_ids_.erase(it);
  return true;
}

std::vector<uint32_t> AgentIndex::posted_terms(const ChunkEntry& chunk) const {
  std::vector<uint32_t> out;
  decode_terms(chunk.terms, out);
  const auto& title = sources_[chunk.source].title_terms;
  out.insert(out.end(), title.begin(), title.end());
  out.insert(out.end(), chunk.heading_terms.begin(), chunk.heading_terms.end());
  sort_unique(out);
  return out;
}

double AgentIndex::idf(uint32_t term) const {
  double documents = static_cast<double>(chunk_docs_.live() + qa_docs_.live());
  return Bm25Collection::idf(chunk_docs_.df(term) + qa_docs_.df(term), documents);
}

double AgentIndex::unknown_weight(std::string_view word) const {
  double most = Bm25Collection::idf(0, static_cast<double>(chunk_docs_.live() + qa_docs_.live()));
  // Without usage figures for the language, a word the knowledge lacks may as well be a function
  // word the stop list misses as the question's subject: it weighs half.
  if (!english_) return most * kUnknownShareWithoutUsage;
  // How often English uses the word (SemCor tags, text/thesaurus.h): "now" or "work" absent from
  // the knowledge says little of what the question is about; "kayak" or "bitcoin" says much.
  double usage = english_usage(word);
  // A number the knowledge does not hold is the asker's own detail (an age, a date, a count).
  if (std::any_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; })) usage = kNumberUsage;
  return most * std::clamp(1.0 - std::log10(1.0 + usage) / kUsageDecades, kCommonWordShare, 1.0);
}

const AnalyzedText& AgentIndex::in_my_language(const AnalyzedText& text,
                                               std::optional<AnalyzedText>& scratch) const {
  if (&text.analyzer() == &vocabulary_.analyzer()) return text;
  return scratch.emplace(text.in(vocabulary_.analyzer()));
}

QueryPlan AgentIndex::plan(std::string_view query) const {
  return plan(AnalyzedText(query, vocabulary_.analyzer()));
}

QueryPlan AgentIndex::plan(const AnalyzedText& analyzed) const {
  std::optional<AnalyzedText> scratch;
  const AnalyzedText& query = in_my_language(analyzed, scratch);
  QueryPlan plan;
  plan.kind = english_ ? answer_kind(query.text()) : AnswerKind::kAny;
  auto words = vocabulary_.analyze_query(query);
  auto known = [&](uint32_t term) { return term != kNoTerm && chunk_docs_.df(term) + qa_docs_.df(term) > 0; };
  std::vector<std::string> seen;
  size_t corrections = 0;
  for (size_t i = 0; i < words.size() && plan.slots.size() < kMaxSlots; ++i) {
    const QueryWord& w = words[i];
    if (w.stop && w.groups.empty()) continue;
    if (i > 0 && w.groups.empty() && is_question_phrase(words[i - 1].surface, w.surface)) continue;
    if (std::find(seen.begin(), seen.end(), w.stem) != seen.end()) continue;
    seen.push_back(w.stem);
    QuerySlot slot;
    slot.word = w.surface;
    if (known(w.term)) {
      slot.alternatives.push_back({w.term, 1.0f});
      slot.weight = idf(w.term);
    }
    for (uint32_t g : w.groups) {
      if (!known(g)) continue;
      slot.alternatives.push_back({g, 1.0f});
      if (slot.weight == 0) slot.weight = idf(g);
    }
    // A real English word is what the asker meant, even when the knowledge lacks it: "wash" is
    // not a misspelt "cash".
    bool correctable = !english_ || !is_english_word(w.surface);
    if (slot.alternatives.empty() && correctable && corrections++ < kMaxCorrections) {
      Correction c = vocabulary_.correct(w.surface, known);
      if (known(c.term)) {
        slot.alternatives.push_back({c.term, kCorrectionCredit});
        slot.weight = idf(c.term);
      }
    }
    if (slot.alternatives.empty()) slot.weight = unknown_weight(w.surface);
    add_synonyms(w, slot);
    plan.total_weight += slot.weight;
    plan.slots.push_back(std::move(slot));
  }
  for (size_t i = 0; i < plan.slots.size(); ++i)
    if (plan.slots[i].weight > plan.slots[plan.key_slot].weight) plan.key_slot = i;
  return plan;
}

void AgentIndex::add_synonyms(const QueryWord& word, QuerySlot& slot) const {
  if (!english_) return;
  const std::vector<std::string>* synonyms = english_synonyms(word.surface);
  if (synonyms == nullptr) return;
  std::string buffer;
  for (const auto& synonym : *synonyms) {
    uint32_t term = vocabulary_.find_stem(vocabulary_.analyzer().stem(synonym, buffer));
    if (term == kNoTerm || chunk_docs_.df(term) + qa_docs_.df(term) == 0) continue;
    bool seen = std::any_of(slot.alternatives.begin(), slot.alternatives.end(),
                            [&](const WeightedTerm& t) { return t.term == term; });
    if (!seen) slot.alternatives.push_back({term, kSynonymCredit});
  }
  // A word known only through its synonyms weighs as they do.
  if (slot.weight == 0 || word.term == kNoTerm) {
    double most = 0;
    for (const auto& alt : slot.alternatives) most = std::max(most, idf(alt.term));
    if (most > 0) slot.weight = std::min(slot.weight > 0 ? slot.weight : most, most);
  }
}

std::vector<AgentIndex::Candidate> AgentIndex::chunk_candidates(const QueryPlan& plan, size_t k,
                                                                size_t max_sentences) const {
  std::vector<Candidate> out;
  if (plan.empty()) return out;
  for (const ScoredDoc& hit : chunk_docs_.top(plan.bm25_terms(), k)) {
    const ChunkEntry& chunk = chunks_[hit.doc];
    std::vector<SentenceTerms> sentences;
    sentences.reserve(chunk.sentences.size());
    // Each sentence's terms decoded, then viewed (the buffer no longer grows).
    std::vector<uint32_t> decoded;
    std::vector<size_t> ends;
    std::span<const uint8_t> all_terms(chunk.terms);
    for (const Sentence& sentence : chunk.sentences) {
      decode_terms(all_terms.subspan(sentence.terms_begin, sentence.terms_end - sentence.terms_begin), decoded);
      ends.push_back(decoded.size());
    }
    std::span<const uint32_t> terms(decoded);
    size_t begin = 0;
    for (size_t i = 0; i < chunk.sentences.size(); ++i) {
      const Sentence& sentence = chunk.sentences[i];
      sentences.push_back({std::string_view(chunk.text).substr(sentence.begin, sentence.end - sentence.begin),
                           terms.subspan(begin, ends[i] - begin), sentence.heading});
      begin = ends[i];
    }
    std::vector<uint32_t> context;
    const auto& title_terms = sources_[chunk.source].title_terms;
    std::set_union(title_terms.begin(), title_terms.end(), chunk.heading_terms.begin(), chunk.heading_terms.end(),
                   std::back_inserter(context));
    SentencePick pick = pick_sentences(plan, sentences, context, max_sentences);
    // Half the score stands whatever the sentences cover; the other half follows their coverage.
    double score = hit.score * (0.5 + 0.5 * pick.coverage);
    out.push_back({hit.doc, score, std::move(pick)});
  }
  std::stable_sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
  return out;
}

std::vector<RetrievedChunk> AgentIndex::search(std::string_view query, size_t k) const {
  std::vector<RetrievedChunk> out;
  if (k == 0 || chunk_docs_.live() == 0) return out;
  QueryPlan p = plan(AnalyzedText(query, vocabulary_.analyzer()));
  auto candidates = chunk_candidates(p, std::max(k * kRerankFactor, kRerankMin), kSearchSentences);
  for (const auto& c : candidates) {
    if (out.size() == k) break;
    const ChunkEntry& chunk = chunks_[c.doc];
    const Source& source = sources_[chunk.source];
    out.push_back(RetrievedChunk{source.id, source.type, source.title, source.url, chunk.text, c.score, chunk.ordinal});
  }
  return out;
}

double AgentIndex::unasked_share(const QueryPlan& plan, const QaEntry& qa) const {
  std::vector<uint32_t> asked;
  for (const auto& slot : plan.slots)
    for (const auto& alt : slot.alternatives) asked.push_back(alt.term);
  std::sort(asked.begin(), asked.end());
  double total = 0, unasked = 0;
  for (uint32_t t : qa.question_terms) {
    double w = idf(t);
    total += w;
    if (!std::binary_search(asked.begin(), asked.end(), t)) unasked += w;
  }
  return total > 0 ? unasked / total : 0;
}

double AgentIndex::qa_confidence(const QueryPlan& plan, const QaEntry& qa) const {
  auto credits = slot_credits(plan, qa.terms);
  double confidence = judged(plan, coverage(plan, credits), credits[plan.key_slot] >= kCoveredCredit, qa.answer);
  return confidence * (1.0 - kUnaskedPenalty * unasked_share(plan, qa));
}

const AgentIndex::QaEntry* AgentIndex::exact_qa(const AnalyzedText& query) const {
  if (qa_docs_.live() == 0) return nullptr;
  const std::string& key = query.key();
  if (key.empty()) return nullptr;
  for (const auto& [id, doc] : qa_ids_)
    if (qa_[doc].key == key) return &qa_[doc];
  return nullptr;
}

std::vector<QaMatch> AgentIndex::match_qa(std::string_view query, size_t k) const {
  if (k == 0 || qa_docs_.live() == 0) return {};
  return match_qa(AnalyzedText(query, vocabulary_.analyzer()), k);
}

std::vector<QaMatch> AgentIndex::match_qa(const AnalyzedText& analyzed, size_t k) const {
  std::vector<QaMatch> out;
  if (k == 0 || qa_docs_.live() == 0) return out;
  std::optional<AnalyzedText> scratch;
  const AnalyzedText& query = in_my_language(analyzed, scratch);
  const QaEntry* exact = exact_qa(query);
  if (exact) out.push_back({exact->source_id, exact->question, exact->answer, 1.0, exact->key});
  QueryPlan p = plan(query);
  if (p.empty()) return out;
  std::vector<QaMatch> close;
  for (const ScoredDoc& hit : qa_docs_.top(p.bm25_terms(), k + 1)) {
    const QaEntry& qa = qa_[hit.doc];
    if (&qa == exact) continue;
    double score = kCloseQuestionCeiling * qa_confidence(p, qa);
    close.push_back({qa.source_id, qa.question, qa.answer, score, qa.key});
  }
  std::stable_sort(close.begin(), close.end(), [](const QaMatch& a, const QaMatch& b) { return a.score > b.score; });
  for (auto& m : close) {
    if (out.size() == k) break;
    out.push_back(std::move(m));
  }
  return out;
}

KnowledgeAnswer AgentIndex::answer(std::string_view question, size_t max_sentences) const {
  return answer(AnalyzedText(question, vocabulary_.analyzer()), max_sentences);
}

KnowledgeAnswer AgentIndex::answer(const AnalyzedText& analyzed, size_t max_sentences) const {
  std::optional<AnalyzedText> scratch;
  const AnalyzedText& question = in_my_language(analyzed, scratch);
  if (const QaEntry* exact = exact_qa(question)) {
    KnowledgeAnswer a{exact->answer, 1.0, exact->source_id, exact->question, std::nullopt, exact->question, {}};
    a.signals.coverage = a.signals.sentence = a.signals.key = 1;
    a.signals.margin = a.signals.qa = 1;
    return a;
  }
  QueryPlan p = plan(question);
  if (p.empty()) return {};
  double foreign = 0;
  for (const auto& slot : p.slots)
    if (slot.alternatives.empty()) foreign += slot.weight;
  foreign /= p.total_weight;

  // Every candidate answer with its merit: its coverage, discounted when it leaves the key word
  // out or lacks an asked-for number, and by how far BM25 ranks it below the best chunk.
  struct Judged {
    KnowledgeAnswer answer;
    double merit;
  };
  std::vector<Judged> judged_answers;
  auto candidates = chunk_candidates(p, kAnswerChunks, max_sentences);
  const double top_score = candidates.empty() ? 1.0 : std::max(candidates.front().score, 1e-9);
  for (const auto& c : candidates) {
    if (c.pick.text.empty()) continue;
    const ChunkEntry& chunk = chunks_[c.doc];
    const Source& source = sources_[chunk.source];
    KnowledgeAnswer a{c.pick.text, 0, source.id, source.title, source.url, "", {}};
    a.signals.coverage = c.pick.coverage;
    a.signals.sentence = c.pick.sentence;
    a.signals.key = c.pick.key_covered ? 1 : 0;
    a.signals.number = states_kind(a.text, p.kind) ? 1 : 0;
    double merit = judged(p, c.pick.coverage, c.pick.key_covered, a.text) * c.score / top_score;
    judged_answers.push_back({std::move(a), merit});
  }
  for (const ScoredDoc& hit : qa_docs_.top(p.bm25_terms(), kAnswerPairs)) {
    const QaEntry& qa = qa_[hit.doc];
    auto credits = slot_credits(p, qa.terms);
    KnowledgeAnswer a{qa.answer, 0, qa.source_id, qa.question, std::nullopt, qa.question, {}};
    a.signals.coverage = coverage(p, credits);
    a.signals.sentence = a.signals.coverage;
    a.signals.key = credits[p.key_slot] >= kCoveredCredit ? 1 : 0;
    a.signals.number = states_kind(a.text, p.kind) ? 1 : 0;
    a.signals.qa = 1;
    a.signals.unasked = unasked_share(p, qa);
    // A pair's answer was written for its question: it is preferred on a near tie.
    double merit = qa_confidence(p, qa) + kQaPreference;
    judged_answers.push_back({std::move(a), merit});
  }
  if (judged_answers.empty()) return {};
  std::stable_sort(judged_answers.begin(), judged_answers.end(),
                   [](const Judged& a, const Judged& b) { return a.merit > b.merit; });
  KnowledgeAnswer best = std::move(judged_answers.front().answer);
  double best_merit = judged_answers.front().merit;
  double runner_up = 0;
  for (size_t i = 1; i < judged_answers.size(); ++i) {
    if (judged_answers[i].answer.source_id == best.source_id) continue;
    runner_up = judged_answers[i].merit;
    break;
  }
  best.signals.foreign = foreign;
  best.signals.margin = best_merit > 0 ? std::clamp((best_merit - runner_up) / best_merit, 0.0, 1.0) : 0;
  best.confidence = answer_confidence(best.signals);
  return best;
}

bool AgentIndex::wants_rebuild() const {
  size_t added = chunk_docs_.added() + qa_docs_.added();
  size_t live = chunk_docs_.live() + qa_docs_.live();
  return added - live > std::max(kRebuildAfterRemovals, live);
}

void AgentIndex::shrink_to_fit() {
  vocabulary_.shrink_to_fit();
  chunk_docs_.shrink_to_fit();
  qa_docs_.shrink_to_fit();
  chunks_.shrink_to_fit();
  sources_.shrink_to_fit();
  qa_.shrink_to_fit();
  scratch_tokens_ = {};
  scratch_groups_ = {};
}

size_t AgentIndex::memory_bytes() const {
  auto vector_bytes = [](const std::vector<uint32_t>& v) { return v.capacity() * sizeof(uint32_t); };
  auto string_bytes = [](const std::string& t) { return t.capacity() > 15 ? t.capacity() + 1 : 0; };
  size_t bytes = vocabulary_.memory_bytes() + chunk_docs_.memory_bytes() + qa_docs_.memory_bytes() +
                 chunks_.capacity() * sizeof(ChunkEntry) + sources_.capacity() * sizeof(Source) +
                 qa_.capacity() * sizeof(QaEntry);
  for (const auto& c : chunks_) {
    bytes += string_bytes(c.text) + string_bytes(c.heading) + c.sentences.capacity() * sizeof(Sentence) +
             c.terms.capacity() + vector_bytes(c.heading_terms);
  }
  for (const auto& s : sources_) bytes += vector_bytes(s.chunks) + vector_bytes(s.title_terms) + s.id.size() + 64;
  for (const auto& q : qa_) {
    bytes += string_bytes(q.question) + string_bytes(q.answer) + string_bytes(q.key) + vector_bytes(q.terms) +
             vector_bytes(q.question_terms);
  }
  bytes += (source_ids_.size() + qa_ids_.size()) * 64;
  return bytes;
}

}  // namespace parley
