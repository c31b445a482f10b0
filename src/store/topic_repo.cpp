#include "store/topic_repo.h"

namespace parley {

Result<std::optional<TopicState>> TopicRepo::state(Connection& c, std::string_view conversation_id) {
  std::optional<TopicState> out;
  PARLEY_TRY(c.query(
      "SELECT analysed_seq, words, positive, negative, any_user FROM topic_state"
      " WHERE conversation_id = $1",
      {conversation_id}, [&](const Row& r) {
        out = TopicState{r.int64(0), r.int64(1), r.int64(2), r.int64(3), r.boolean(4)};
      }));
  return out;
}

Result<void> TopicRepo::save_state(Connection& c, std::string_view conversation_id, const TopicState& s) {
  PARLEY_TRY(c.execute(
      "INSERT INTO topic_state (conversation_id, analysed_seq, words, positive, negative, any_user)"
      " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (conversation_id) DO UPDATE SET"
      " analysed_seq = excluded.analysed_seq, words = excluded.words,"
      " positive = excluded.positive, negative = excluded.negative, any_user = excluded.any_user",
      {conversation_id, s.analysed_seq, s.words, s.positive, s.negative, int64_t{s.any_user ? 1 : 0}}));
  return {};
}

Result<void> TopicRepo::add_words(Connection& c, std::string_view conversation_id,
                                  const std::vector<TopicWordCount>& words) {
  for (const auto& w : words) {
    PARLEY_TRY(c.execute(
        "INSERT INTO topic_words (conversation_id, word, count, first_position) VALUES ($1, $2, $3, $4)"
        " ON CONFLICT (conversation_id, word) DO UPDATE SET count = topic_words.count + excluded.count",
        {conversation_id, std::string_view(w.word), w.count, w.first_position}));
  }
  return {};
}

Result<std::vector<std::string>> TopicRepo::top_words(Connection& c, std::string_view conversation_id,
                                                      int64_t n) {
  std::vector<std::string> out;
  PARLEY_TRY(c.query(
      "SELECT word FROM topic_words WHERE conversation_id = $1"
      " ORDER BY count DESC, first_position LIMIT $2",
      {conversation_id, n}, [&](const Row& r) { out.push_back(r.text(0)); }));
  return out;
}

}  // namespace parley
