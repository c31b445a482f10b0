#include "knowledge/evidence.h"

#include <algorithm>
#include <array>

#include "text/tokenizer.h"

namespace parley {

namespace {
// answer_kind() reads this many bytes of a question (the cut may split a character, which the
// tokenizer skips).
constexpr size_t kKindWindowBytes = 200;
// How much a sentence that states a number is preferred when the question asks for one, as a
// share of the question's weight.
constexpr double kNumberBonus = 0.2;
// A slot covered only by the chunk's title or heading counts this much of one covered in the
// sentence itself when sentences are compared (both count fully in the coverage).
constexpr double kContextShare = 0.6;
// What the sentences quoted beside the best one add to the coverage counts this much.
constexpr double kExtraSentenceShare = 0.5;
// A sentence must add this share of the question's weight to be quoted beside the best one.
constexpr double kAddedSentenceGain = 0.15;

bool has_term(std::span<const uint32_t> sorted, uint32_t term) {
  return std::binary_search(sorted.begin(), sorted.end(), term);
}

// slot_credits written into `out` (one per slot), for a buffer used again.
void slot_credits_into(const QueryPlan& plan, std::span<const uint32_t> terms,
                       std::span<double> out) {
  for (size_t i = 0; i < plan.slots.size(); ++i) {
    out[i] = 0.0;
    for (const auto& alt : plan.slots[i].alternatives)
      if (alt.weight > out[i] && has_term(terms, alt.term)) out[i] = alt.weight;
  }
}

}  // namespace

std::vector<WeightedTerm> QueryPlan::bm25_terms() const {
  std::vector<WeightedTerm> out;
  for (const auto& slot : slots)
    for (const auto& alt : slot.alternatives) out.push_back(alt);
  return out;
}

bool is_question_phrase(std::string_view previous, std::string_view word) {
  static constexpr std::array<std::string_view, 12> kAfterHow = {
      "much", "many", "long", "far", "old", "often", "big", "soon", "early", "late", "tall", "heavy"};
  return previous == "how" && std::find(kAfterHow.begin(), kAfterHow.end(), word) != kAfterHow.end();
}

AnswerKind answer_kind(std::string_view question) {
  static constexpr std::array<std::string_view, 9> kHowQuantity = {"much", "many", "long", "far", "old",
                                                                   "often", "big", "tall", "heavy"};
  static constexpr std::array<std::string_view, 3> kHowTime = {"early", "late", "soon"};
  static constexpr std::array<std::string_view, 7> kWhatTime = {"time", "times", "day", "days", "hours", "months", "dates"};
  static constexpr std::array<std::string_view, 9> kTimeWords = {"times", "timetable", "schedule", "earliest", "latest",
                                                                 "last", "first", "next", "departures"};
  static constexpr std::array<std::string_view, 18> kQuantityWords = {
      "price", "prices", "cost", "costs", "fee",  "fees",    "fare",    "fares",   "charge",
      "rate",  "rates",  "cheapest", "cheaper", "age", "minimum", "maximum", "max", "discount"};
  auto in = [](const auto& list, std::string_view w) { return std::find(list.begin(), list.end(), w) != list.end(); };
  // The opening words say what kind of question it is; a long message is not read to its end.
  auto words = tokenize_unstemmed(question.substr(0, kKindWindowBytes));
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    const std::string next = i + 1 < words.size() ? words[i + 1] : "";
    if (w == "how" && in(kHowQuantity, next)) return AnswerKind::kQuantity;
    if (w == "how" && in(kHowTime, next)) return AnswerKind::kTime;
    if (w == "when" || ((w == "what" || w == "which") && in(kWhatTime, next))) return AnswerKind::kTime;
    if (in(kTimeWords, w)) return AnswerKind::kTime;
    if (in(kQuantityWords, w)) return AnswerKind::kQuantity;
  }
  return AnswerKind::kAny;
}

bool states_kind(std::string_view text, AnswerKind kind) {
  if (kind == AnswerKind::kAny || has_number(text)) return true;
  static constexpr std::array<std::string_view, 24> kNumberWords = {
      "one",    "two",    "three",   "four",  "five",  "six",   "seven", "eight",
      "nine",   "ten",    "eleven",  "twelve", "fifteen", "twenty", "thirty", "forty",
      "fifty",  "hundred", "thousand", "twice", "half", "double", "once", "free"};
  static constexpr std::array<std::string_view, 26> kTimeWords = {
      "monday",  "tuesday",  "wednesday", "thursday", "friday",   "saturday", "sunday",
      "january", "february", "march",     "april",    "may",      "june",     "july",
      "august",  "september", "october",  "november", "december", "daily",   "weekly",
      "hourly",  "morning",  "evening",   "midnight", "noon"};
  bool found = false;
  for_each_word(text, [&](std::string_view surface) {
    std::string_view word = surface;
    if (!word.empty() && word.back() == 's' && kind == AnswerKind::kTime) word.remove_suffix(1);  // "Tuesdays"
    found = found || std::find(kNumberWords.begin(), kNumberWords.end(), surface) != kNumberWords.end() ||
            (kind == AnswerKind::kTime && std::find(kTimeWords.begin(), kTimeWords.end(), word) != kTimeWords.end());
  });
  return found;
}

std::vector<double> slot_credits(const QueryPlan& plan, std::span<const uint32_t> terms) {
  std::vector<double> credits(plan.slots.size(), 0.0);
  slot_credits_into(plan, terms, credits);
  return credits;
}

double coverage(const QueryPlan& plan, std::span<const double> credits) {
  if (plan.total_weight <= 0) return 0;
  double covered = 0;
  for (size_t i = 0; i < plan.slots.size(); ++i) covered += credits[i] * plan.slots[i].weight;
  return covered / plan.total_weight;
}

bool has_number(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

SentencePick pick_sentences(const QueryPlan& plan, const std::vector<SentenceTerms>& sentences,
                            std::span<const uint32_t> context_terms, size_t max_sentences) {
  SentencePick pick;
  if (plan.empty()) return pick;
  max_sentences = std::max<size_t>(max_sentences, 1);
  const size_t slots = plan.slots.size();
  const std::vector<double> context_credits = slot_credits(plan, context_terms);

  // Each scored sentence's credits live in `credits` from `at`: first with its context (all),
  // then of the sentence alone (own), a slot each. One buffer for the chunk, not two per sentence.
  struct Scored {
    size_t index;
    size_t at;
    double score;
  };
  std::vector<Scored> scored;
  std::vector<double> credits;
  credits.reserve(2 * slots * sentences.size());
  auto with_context_of = [&](const Scored& x) { return std::span<const double>(credits).subspan(x.at, slots); };
  auto own_of = [&](const Scored& x) {
    return std::span<const double>(credits).subspan(x.at + slots, slots);
  };
  // Credits of the chunk's context and of the last heading line inside the chunk.
  std::vector<double> around = context_credits;
  std::vector<double> own(slots);
  for (size_t i = 0; i < sentences.size(); ++i) {
    slot_credits_into(plan, sentences[i].terms, own);
    if (sentences[i].heading) {
      for (size_t s = 0; s < slots; ++s) around[s] = std::max(context_credits[s], own[s]);
      continue;
    }
    double score = 0;
    for (size_t s = 0; s < slots; ++s)
      score += plan.slots[s].weight * std::max(own[s], kContextShare * std::max(own[s], around[s]));
    if (score <= 0) continue;
    if (plan.kind != AnswerKind::kAny && states_kind(sentences[i].text, plan.kind))
      score += kNumberBonus * plan.total_weight;
    const size_t at = credits.size();
    for (size_t s = 0; s < slots; ++s) credits.push_back(std::max(own[s], around[s]));
    credits.insert(credits.end(), own.begin(), own.end());
    scored.push_back({i, at, score});
  }
  if (scored.empty()) return pick;
  std::stable_sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) { return a.score > b.score; });

  std::vector<size_t> chosen = {0};
  const auto best_with_context = with_context_of(scored[0]);
  std::vector<double> covered(best_with_context.begin(), best_with_context.end());
  // When no sentence matches by its own words, the chunk answered by its title or heading: its
  // opening sentences say what it is about.
  const auto best_own = own_of(scored[0]);
  if (std::all_of(best_own.begin(), best_own.end(), [](double c) { return c == 0; })) {
    std::stable_sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) { return a.index < b.index; });
    chosen.clear();
    for (size_t c = 0; c < scored.size() && chosen.size() < max_sentences; ++c) chosen.push_back(c);
    max_sentences = 0;
  }
  for (size_t c = 1; c < scored.size() && chosen.size() < max_sentences; ++c) {
    const auto their = own_of(scored[c]);
    double gain = 0;
    for (size_t s = 0; s < slots; ++s)
      gain += plan.slots[s].weight * std::max(0.0, their[s] - covered[s]);
    if (gain < kAddedSentenceGain * plan.total_weight) continue;
    chosen.push_back(c);
    for (size_t s = 0; s < slots; ++s) covered[s] = std::max(covered[s], their[s]);
  }
  // A question asking how much, how many or when is answered by a sentence that states a number
  // (or a day or a month): when the sentences chosen state none, the best one of the chunk that
  // does joins them.
  auto states_number = [&](size_t c) { return states_kind(sentences[scored[c].index].text, plan.kind); };
  if (plan.kind != AnswerKind::kAny && std::none_of(chosen.begin(), chosen.end(), states_number)) {
    for (size_t c = 1; c < scored.size(); ++c) {
      if (!states_number(c)) continue;
      chosen.push_back(c);
      const auto their = own_of(scored[c]);
      for (size_t s = 0; s < slots; ++s) covered[s] = std::max(covered[s], their[s]);
      break;
    }
  }
  for (size_t s = 0; s < slots; ++s) covered[s] = std::max(covered[s], context_credits[s]);
  // Evidence spread over several sentences is weaker than one sentence that says it all: the
  // sentences beside the best one count half.
  const double best = coverage(plan, with_context_of(scored[chosen[0]]));
  const double all = coverage(plan, covered);
  std::vector<size_t> order;
  for (size_t c : chosen) order.push_back(scored[c].index);
  std::sort(order.begin(), order.end());
  for (size_t i : order) {
    if (!pick.text.empty()) pick.text.push_back(' ');
    pick.text += sentences[i].text;
  }
  pick.coverage = best + kExtraSentenceShare * std::max(0.0, all - best);
  pick.sentence = best;
  pick.key_covered = covered[plan.key_slot] >= kCoveredCredit;
  return pick;
}

}  // namespace parley
