// The running state of conversations' topic analysis: how far each conversation's messages have
// been counted, its sentiment tallies, and its candidate topic words with their counts, so that
// the three topics come from an index instead of a re-read of the conversation.
// Stateless; every function runs on the connection it is given (the writer's, in practice).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/db.h"

namespace parley {

struct TopicState {
  int64_t analysed_seq = 0;  // messages up to this seq are counted
  int64_t words = 0;         // positions used by visitor-message words so far
  int64_t positive = 0;
  int64_t negative = 0;
  bool any_user = false;
};

struct TopicWordCount {
  std::string word;
  int64_t count = 0;
  int64_t first_position = 0;
};

class TopicRepo {
 public:
  // Nothing when the conversation was never analysed.
  static Result<std::optional<TopicState>> state(Connection& c, std::string_view conversation_id);
  static Result<void> save_state(Connection& c, std::string_view conversation_id, const TopicState& s);
  // Adds counts; a word seen before keeps its first position.
  static Result<void> add_words(Connection& c, std::string_view conversation_id,
                                const std::vector<TopicWordCount>& words);
  // The `n` most frequent words; ties go to the earlier first position.
  static Result<std::vector<std::string>> top_words(Connection& c, std::string_view conversation_id,
                                                    int64_t n);
};

}  // namespace parley
