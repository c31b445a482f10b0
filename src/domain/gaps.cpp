#include "domain/gaps.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <shared_mutex>
#include <unordered_map>
#include <unordered_set>

#include "core/random.h"
#include "domain/agents.h"
#include "knowledge/term_vocabulary.h"
#include "store/agent_repo.h"
#include "store/figure_repo.h"
#include "text/analyzed_text.h"
#include "text/analyzer.h"
#include "text/thesaurus.h"

namespace parley {

namespace {
std::vector<std::string> split_terms(std::string_view joined) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < joined.size()) {
    size_t end = joined.find(' ', start);
    if (end == std::string_view::npos) end = joined.size();
    if (end > start) out.emplace_back(joined.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string join_terms(const std::vector<std::string>& terms) {
  std::string out;
  for (const auto& t : terms) {
    if (!out.empty()) out += ' ';
    out += t;
  }
  return out;
}

bool latin_word(std::string_view w) {
  return !w.empty() &&
         std::all_of(w.begin(), w.end(), [](char ch) { return ch >= 'a' && ch <= 'z'; });
}

// Retrieval's spelling tolerance (knowledge/term_vocabulary.h): 1 edit from 4 letters, 2 from 8.
bool spelling_slip(std::string_view a, std::string_view b) {
  if (!latin_word(a) || !latin_word(b)) return false;
  size_t shorter = std::min(a.size(), b.size());
  int limit = shorter >= 8 ? 2 : shorter >= 4 ? 1 : 0;
  return limit > 0 && edit_distance(a, b, limit) <= limit;
}

// Compares the words of two keys for one agent: its analyser, thesaurus and synonym groups (read
// once, as single-word lemmas, however many keys are compared).
class WordMatcher {
 public:
  explicit WordMatcher(const KnowledgeSettings& settings)
      : analyzer_(Analyzer::for_language_or_english(settings.language)) {
    uint32_t group = 0;
    for (const auto& entry_group : settings.synonyms) {
      std::vector<std::string> words;
      for (const auto& entry : entry_group) {
        auto lemmas = analyzer_.lemmas(entry);
        if (lemmas.size() == 1) words.push_back(std::move(lemmas[0]));  // phrases are the index's
      }
      if (words.size() < 2) continue;
      for (auto& w : words) {
        auto& groups = groups_of_[std::move(w)];
        if (groups.empty() || groups.back() != group) groups.push_back(group);
      }
      ++group;
    }
  }

  // The words of a key with their stems, each stemmed once however many keys it meets.
  struct Key {
    std::vector<std::string> words;
    std::vector<std::string> stems;
  };
  Key key(std::vector<std::string> words) const {
    Key k{std::move(words), {}};
    std::string buffer;
    for (const auto& w : k.words) k.stems.emplace_back(analyzer_.stem(w, buffer));
    return k;
  }
  // The key of a filed group: its terms never change, so they are stemmed once per process.
  std::shared_ptr<const Key> group_key(const GapGroupRecord& g) const;

  // The question's key with each word's synonyms looked up once, for comparing with many keys.
  struct Asked {
    Key key;
    std::vector<const std::vector<std::string>*> thesaurus;  // per word; null: none
  };
  Asked asked(std::vector<std::string> words) const {
    Asked a{key(std::move(words)), {}};
    for (const auto& w : a.key.words)
      a.thesaurus.push_back(analyzer_.language() == "en" ? Thesaurus::english().synonyms(w)
                                                         : nullptr);
    return a;
  }

  bool same(const Asked& a, size_t i, const Key& b, size_t j) const {
    const auto& word = a.key.words[i];
    if (word == b.words[j] || a.key.stems[i] == b.stems[j]) return true;
    if (spelling_slip(word, b.words[j])) return true;
    if (const auto* list = a.thesaurus[i])
      if (std::find(list->begin(), list->end(), b.words[j]) != list->end()) return true;
    return in_one_group(word, b.words[j]);
  }

 private:
  bool in_one_group(const std::string& a, const std::string& b) const {
    auto in_a = groups_of_.find(a);
    if (in_a == groups_of_.end()) return false;
    auto in_b = groups_of_.find(b);
    if (in_b == groups_of_.end()) return false;
    const auto &x = in_a->second, &y = in_b->second;  // each ascending
    for (size_t i = 0, j = 0; i < x.size() && j < y.size();) {
      if (x[i] == y[j]) return true;
      x[i] < y[j] ? ++i : ++j;
    }
    return false;
  }

  const Analyzer& analyzer_;
  // The agent's synonym groups each word is in, by index, ascending.
  std::unordered_map<std::string, std::vector<uint32_t>> groups_of_;
};

// Filed groups' keys by group id, with the language they were stemmed in (an agent's language may
// change). Bounded: emptied when full, as a group compared again is stemmed again.
class GroupKeys {
 public:
  static GroupKeys& instance() {
    static GroupKeys keys;
    return keys;
  }
  template <typename Make>
  std::shared_ptr<const WordMatcher::Key> get(const std::string& id, std::string_view language,
                                              Make&& make) {
    {
      std::shared_lock lock(mu_);
      if (auto it = keys_.find(id); it != keys_.end() && it->second.language == language)
        return it->second.key;
    }
    auto made = std::make_shared<const WordMatcher::Key>(make());
    std::unique_lock lock(mu_);
    if (keys_.size() >= kMaxKeys) keys_.clear();
    keys_.insert_or_assign(id, Entry{std::string(language), made});
    return made;
  }

 private:
  static constexpr size_t kMaxKeys = 50'000;
  struct Entry {
    std::string language;
    std::shared_ptr<const WordMatcher::Key> key;
  };
  std::shared_mutex mu_;
  std::unordered_map<std::string, Entry> keys_;
};

std::shared_ptr<const WordMatcher::Key> WordMatcher::group_key(const GapGroupRecord& g) const {
  return GroupKeys::instance().get(g.id, analyzer_.language(), [&] {
    // A group filed before keys were cut keeps its longer key: compared as a new question's.
    auto words = split_terms(g.terms);
    if (words.size() > kGapTermsKept) words.resize(kGapTermsKept);
    return key(std::move(words));
  });
}

bool same_meaning_with(const WordMatcher& matcher, const WordMatcher::Asked& asked,
                       const WordMatcher::Key& b) {
  const auto& a = asked.key;
  if (a.words.empty() || b.words.empty()) return a.words.empty() && b.words.empty();
  // The matches needed for the share: 2·matched / (|a| + |b|) ≥ kGapSameMeaning. A pair of keys
  // that cannot reach it is left as soon as it is known (their sizes alone, or the words left).
  const auto needed = static_cast<size_t>(
      std::ceil(kGapSameMeaning * static_cast<double>(a.words.size() + b.words.size()) / 2.0));
  if (std::min(a.words.size(), b.words.size()) < needed) return false;
  std::vector<bool> used(b.words.size(), false);
  size_t matched = 0;
  for (size_t i = 0; i < a.words.size() && matched < needed; ++i) {
    if (matched + (a.words.size() - i) < needed) return false;
    for (size_t j = 0; j < b.words.size(); ++j) {
      if (used[j] || !matcher.same(asked, i, b, j)) continue;
      used[j] = true;
      ++matched;
      break;
    }
  }
  return matched >= needed;
}

Result<KnowledgeSettings> knowledge_of(Connection& c, std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(auto agent, AgentRepo::find_any(c, agent_id));
  if (!agent) return ApiError::not_found("No agent " + std::string(agent_id) + ".");
  return parse_agent_settings(agent->settings).knowledge;
}

// The visitor question a reply answered: the last visitor message before it.
std::optional<MessageRecord> question_before(const std::vector<MessageRecord>& messages,
                                             int64_t seq) {
  std::optional<MessageRecord> out;
  for (const auto& m : messages) {
    if (m.seq >= seq) break;
    if (m.role == "user") out = m;
  }
  return out;
}

bool agent_reply(const MessageRecord& m) { return m.role == "assistant" && !m.author_name; }

Result<GapDetail> detail_of(Connection& c, const GapGroupRecord& g) {
  PARLEY_ASSIGN_OR_RETURN(auto view, GapRepo::view(c, g));
  if (!view) return ApiError::not_found("No gap '" + g.id + "'.");
  GapDetail out{std::move(*view), {}};
  PARLEY_ASSIGN_OR_RETURN(out.questions, GapRepo::questions(c, g.id, kGapQuestionsShown));
  return out;
}

// The pair added and, when its question is a gap (`group_id`), the group resolved: in `c`.
Result<GapAnswered> answer_in(Connection& c, Services& s, std::string_view account_id,
                              std::string_view agent_id, const std::optional<std::string>& group_id,
                              const NewSource& pair, int64_t& removed_version) {
  GapAnswered out;
  PARLEY_ASSIGN_OR_RETURN(out.added,
                          add_source_in(c, s, account_id, agent_id, pair, removed_version));
  if (group_id) {
    PARLEY_TRY(GapRepo::resolve(c, *group_id, s.clock.now_ms(), out.added.source.id));
    PARLEY_ASSIGN_OR_RETURN(auto group, GapRepo::find_group(c, agent_id, *group_id));
    if (group) {
      auto detail = detail_of(c, *group);
      if (detail.ok()) out.gap = std::move(detail).value();
    }
  }
  return out;
}

Result<void> check_answer(const std::string& answer) {
  if (answer.find_first_not_of(" \t\r\n") == std::string::npos)
    return ApiError::invalid("'answer' is required: the reply the agent should give.");
  return {};
}
}  // namespace

std::vector<std::string> gap_terms(std::string_view question, const KnowledgeSettings& settings) {
  return gap_terms(AnalyzedText(question, Analyzer::for_language_or_english(settings.language)),
                   settings);
}

std::vector<std::string> gap_terms(const AnalyzedText& question,
                                   const KnowledgeSettings& settings) {
  const Analyzer& analyzer = Analyzer::for_language_or_english(settings.language);
  if (&question.analyzer() != &analyzer) return gap_terms(question.in(analyzer), settings);
  const auto& lemmas =
      question.content_lemmas().empty() ? question.lemmas() : question.content_lemmas();
  std::vector<std::string> out;
  std::unordered_set<std::string_view> seen;
  for (const auto& l : lemmas) {
    if (out.size() == kGapTermsKept) break;
    if (seen.insert(l).second) out.push_back(l);
  }
  return out;
}

bool same_meaning(const std::vector<std::string>& a, const std::vector<std::string>& b,
                  const KnowledgeSettings& settings) {
  const WordMatcher matcher(settings);
  return same_meaning_with(matcher, matcher.asked(a), matcher.key(b));
}

namespace {
bool makes_gap(const std::optional<std::string>& outcome) {
  return outcome && (*outcome == "fallback" || *outcome == "low_confidence");
}

// Files the question in the group of the same meaning among `groups`, or a new one. `fresh`: no
// gap can name the question yet (this write inserted it), so nothing waits.
Result<void> file_gap(Connection& c, Random& random, const GapInput& in,
                      const KnowledgeSettings& settings, const std::vector<GapGroupRecord>& groups,
                      bool fresh) {
  auto terms = in.analyzed ? gap_terms(*in.analyzed, settings) : gap_terms(in.question, settings);
  std::optional<std::string> group_id;
  const WordMatcher matcher(settings);
  const WordMatcher::Asked asked = matcher.asked(terms);
  for (const auto& g : groups) {
    if (!same_meaning_with(matcher, asked, *matcher.group_key(g))) continue;
    group_id = g.id;
    break;
  }
  if (!group_id) {
    GapGroupRecord g;
    g.id = new_id(random, "gap_");
    g.agent_id = in.agent_id;
    g.account_id = in.account_id;
    g.terms = join_terms(terms);
    g.created_at = g.last_asked_at = in.asked_at;
    PARLEY_TRY(GapRepo::insert_group(c, g));
    group_id = g.id;
  }
  GapRecord gap{in.message_id, *group_id, in.agent_id, in.conversation_id,
                in.reply_id,   in.reason, in.channel,  in.asked_at};
  if (fresh) {
    PARLEY_TRY(GapRepo::insert_new_gap(c, gap));
    return GapRepo::touch_group(c, *group_id, in.asked_at);
  }
  PARLEY_ASSIGN_OR_RETURN(bool added, GapRepo::insert_gap(c, gap));
  if (added) PARLEY_TRY(GapRepo::touch_group(c, *group_id, in.asked_at));
  return {};
}
}  // namespace

Result<void> record_gap(Connection& c, Random& random, const GapInput& in,
                        const KnowledgeSettings& settings) {
  PARLEY_ASSIGN_OR_RETURN(auto existing, GapRepo::find_gap(c, in.message_id));
  if (existing) return {};
  PARLEY_ASSIGN_OR_RETURN(auto groups, GapRepo::recent_groups(c, in.agent_id, kGapGroupsCompared));
  return file_gap(c, random, in, settings, groups, false);
}

Result<void> read_reply_gap_groups(Connection& c, std::string_view agent_id,
                                   const std::optional<std::string>& outcome,
                                   std::vector<GapGroupRecord>& out) {
  out.clear();
  if (!makes_gap(outcome)) return {};
  return GapRepo::recent_groups_later(c, agent_id, kGapGroupsCompared, out);
}

Result<void> record_reply_gap(Connection& c, Random& random, const ConversationRecord& conv,
                              const MessageRecord& question, const MessageRecord& reply,
                              const KnowledgeSettings& settings, const AnalyzedText& analyzed,
                              const std::vector<GapGroupRecord>* recent) {
  if (!makes_gap(reply.outcome)) return {};
  GapInput in{conv.account_id,  conv.agent_id, conv.id,        conv.channel,        question.id,
              question.content, reply.id,      *reply.outcome, question.created_at, &analyzed};
  if (recent != nullptr) return file_gap(c, random, in, settings, *recent, true);
  return record_gap(c, random, in, settings);
}

Result<void> note_csat_gap(Connection& c, Random& random, const ConversationRecord& conv) {
  if (!conv.csat_score || *conv.csat_score > 2) {
    PARLEY_ASSIGN_OR_RETURN(int64_t removed,
                            GapRepo::remove_conversation_gaps(c, conv.id, "low_csat"));
    if (removed > 0) PARLEY_TRY(GapRepo::remove_empty_groups(c, conv.agent_id));
    return {};
  }
  PARLEY_ASSIGN_OR_RETURN(auto messages, ConversationRepo::messages(c, conv.id));
  auto first = std::find_if(messages.begin(), messages.end(),
                            [](const MessageRecord& m) { return m.role == "user"; });
  if (first == messages.end()) return {};
  auto reply = std::find_if(first, messages.end(), agent_reply);
  PARLEY_ASSIGN_OR_RETURN(auto settings, knowledge_of(c, conv.agent_id));
  GapInput in{conv.account_id,
              conv.agent_id,
              conv.id,
              conv.channel,
              first->id,
              first->content,
              reply == messages.end() ? std::nullopt : std::optional<std::string>(reply->id),
              "low_csat",
              first->created_at};
  return record_gap(c, random, in, settings);
}

Result<MessageRecord> rate_reply(Services& s, const ConversationRecord& conv,
                                 std::string_view message_id,
                                 const std::optional<std::string>& rating) {
  if (rating && *rating != "up" && *rating != "down")
    return ApiError::invalid("'rating' must be \"up\", \"down\" or null.");
  MessageRecord out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    // Its figures are counted again below: the conversation's row is held first (FigureRepo).
    PARLEY_ASSIGN_OR_RETURN(bool exists, ConversationRepo::lock(c, conv.id));
    if (!exists) return ApiError::not_found("No conversation '" + conv.id + "'.");
    PARLEY_ASSIGN_OR_RETURN(auto message, ConversationRepo::find_message(c, conv.id, message_id));
    if (!message)
      return ApiError::not_found("No message '" + std::string(message_id) +
                                 "' in this conversation.");
    if (!agent_reply(*message))
      return ApiError::invalid(
          "'messageId' must name one of the agent's replies; only those can be rated.");
    out = std::move(*message);
    out.rating = rating;
    out.rated_at = rating ? std::optional<int64_t>(s.clock.now_ms()) : std::nullopt;
    PARLEY_TRY(ConversationRepo::set_rating(c, out.id, out.rating, out.rated_at));
    PARLEY_TRY(FigureRepo::refresh_for_message(c, out.id));
    PARLEY_ASSIGN_OR_RETURN(auto messages, ConversationRepo::messages(c, conv.id));
    auto question = question_before(messages, out.seq);
    if (!question) return {};
    if (rating != "down") {
      PARLEY_ASSIGN_OR_RETURN(bool removed, GapRepo::remove_gap(c, question->id, "rated_down"));
      if (removed) PARLEY_TRY(GapRepo::remove_empty_groups(c, conv.agent_id));
      return {};
    }
    PARLEY_ASSIGN_OR_RETURN(auto settings, knowledge_of(c, conv.agent_id));
    GapInput in{conv.account_id,   conv.agent_id, conv.id,      conv.channel,        question->id,
                question->content, out.id,        "rated_down", question->created_at};
    return record_gap(c, s.random, in, settings);
  }));
  return out;
}

Result<Page<GapGroupView>> list_gap_groups(Connection& c, std::string_view account_id,
                                           std::string_view agent_id, GapStatus status,
                                           const PageQuery& q) {
  PARLEY_TRY(get_agent(c, account_id, agent_id));
  PARLEY_ASSIGN_OR_RETURN(auto page, GapRepo::list(c, agent_id, status, q));
  Page<GapGroupView> out;
  out.has_more = page.has_more;
  for (const auto& g : page.items) {
    PARLEY_ASSIGN_OR_RETURN(auto view, GapRepo::view(c, g));
    if (view) out.items.push_back(std::move(*view));
  }
  return out;
}

Result<GapDetail> get_gap_group(Connection& c, std::string_view account_id,
                                std::string_view agent_id, std::string_view group_id) {
  PARLEY_TRY(get_agent(c, account_id, agent_id));
  PARLEY_ASSIGN_OR_RETURN(auto group, GapRepo::find_group(c, agent_id, group_id));
  if (!group) return ApiError::not_found("No gap '" + std::string(group_id) + "' for this agent.");
  return detail_of(c, *group);
}

Result<GapAnswered> answer_gap(Services& s, SourceListener* listener, std::string_view account_id,
                               std::string_view agent_id, std::string_view group_id,
                               const std::optional<std::string>& question,
                               const std::string& answer) {
  PARLEY_TRY(check_answer(answer));
  GapAnswered out;
  int64_t removed_version = 0;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto detail, get_gap_group(c, account_id, agent_id, group_id));
    NewSource pair{"qa", {}, {}, {}, {}, question.value_or(detail.group.question), answer};
    PARLEY_ASSIGN_OR_RETURN(
        out, answer_in(c, s, account_id, agent_id, std::string(group_id), pair, removed_version));
    return {};
  }));
  announce_source(listener, agent_id, out.added, removed_version);
  return out;
}

Result<GapAnswered> improve_answer(Services& s, SourceListener* listener,
                                   std::string_view account_id, std::string_view conversation_id,
                                   std::string_view message_id,
                                   const std::optional<std::string>& question,
                                   const std::string& answer) {
  PARLEY_TRY(check_answer(answer));
  GapAnswered out;
  int64_t removed_version = 0;
  std::string agent_id;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(auto conv, ConversationRepo::find(c, account_id, conversation_id));
    if (!conv)
      return ApiError::not_found("No conversation '" + std::string(conversation_id) + "'.");
    agent_id = conv->agent_id;
    PARLEY_ASSIGN_OR_RETURN(auto reply, ConversationRepo::find_message(c, conv->id, message_id));
    if (!reply)
      return ApiError::not_found("No message '" + std::string(message_id) +
                                 "' in this conversation.");
    if (!agent_reply(*reply))
      return ApiError::invalid("'messageId' must name one of the agent's replies to improve it.");
    PARLEY_ASSIGN_OR_RETURN(auto messages, ConversationRepo::messages(c, conv->id));
    auto asked = question_before(messages, reply->seq);
    if (!question && !asked)
      return ApiError::invalid("'question' is required: no visitor question precedes this reply.");
    std::optional<std::string> group_id;
    if (asked) {
      PARLEY_ASSIGN_OR_RETURN(auto gap, GapRepo::find_gap(c, asked->id));
      if (gap) group_id = gap->group_id;
    }
    NewSource pair{"qa", {}, {}, {}, {}, question ? *question : asked->content, answer};
    PARLEY_ASSIGN_OR_RETURN(out,
                            answer_in(c, s, account_id, agent_id, group_id, pair, removed_version));
    return {};
  }));
  announce_source(listener, agent_id, out.added, removed_version);
  return out;
}

}  // namespace parley
