// Stop words per language: the function words of a language, which carry no meaning alone and so
// neither make two texts alike nor count as what a question asks about. Snowball's lists (the
// stemmer project's own), and for English also the words of conversational questions that say
// nothing of their topic ("much", "tell", "please"), since a question's words absent from the
// knowledge otherwise look like its most informative ones.
// Pure data; thread-safe.
#pragma once

#include <string_view>
#include <vector>

namespace parley {

// The stop words of an ISO 639-1 language code, sorted; empty for a language without a list.
const std::vector<std::string_view>& stop_words(std::string_view language);

}  // namespace parley
