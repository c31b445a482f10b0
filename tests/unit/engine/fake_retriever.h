// An in-test Retriever over a few Q&A pairs and chunks: Q&A scored 1.0 on a normalised-equal
// question, else by 0.95 x the Dice overlap of the word sets (as the real index); chunks returned
// when they (or their titles) share a content word with the query, in the order given.
#pragma once

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "knowledge/retriever.h"
#include "text/normalizer.h"

namespace parley {

class FakeRetriever final : public Retriever {
 public:
  std::vector<QaMatch> qa;
  std::vector<RetrievedChunk> chunks;

  std::vector<RetrievedChunk> search(std::string_view, std::string_view query,
                                     size_t k) const override {
    std::vector<RetrievedChunk> out;
    auto words = content_words(query);
    for (const auto& c : chunks) {
      auto text = content_words(c.title.value_or("") + " " + c.text);  // titles are indexed too
      bool hit = false;
      for (const auto& w : words)
        for (const auto& t : text) hit = hit || w == t;
      if (hit && out.size() < k) out.push_back(c);
    }
    return out;
  }

  std::vector<QaMatch> match_qa(std::string_view, std::string_view query, size_t k) const override {
    std::vector<QaMatch> out;
    auto qwords = tokenize(query);
    for (auto m : qa) {
      if (normalize_for_match(m.question) == normalize_for_match(query)) {
        m.score = 1.0;
      } else {
        // As the real index: 0.95 x the Dice overlap of the two word sets.
        auto words = tokenize(m.question);
        std::set<std::string> a(words.begin(), words.end()), b(qwords.begin(), qwords.end());
        size_t shared = 0;
        for (const auto& w : a) shared += b.count(w);
        if (shared == 0) continue;
        m.score =
            0.95 * 2.0 * static_cast<double>(shared) / static_cast<double>(a.size() + b.size());
      }
      out.push_back(m);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return a.score > b.score; });
    if (out.size() > k) out.resize(k);
    return out;
  }
};

}  // namespace parley
