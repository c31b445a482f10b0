// The raw English lexicon and thesaurus that text/thesaurus.h reads. The build generates the one
// definition, embedded_thesaurus_data(), from Debian's WordNet 3.0 (scripts/gen-thesaurus.py
// writes generated/thesaurus_embedded.cpp); tests may build their own small data.
// Immutable static data; thread-safe.
#pragma once

#include <span>
#include <string_view>

namespace parley {

// Three line lists, each a run of text pieces that end at a line break (a piece is one string
// literal of at most 60 KB). Words are a-z only; `pos` is a set of WordNet's part-of-speech letters
// (n noun, v verb, a adjective, r adverb), and a line of exceptions or thesaurus names one.
struct ThesaurusData {
  std::span<const std::string_view> lexicon;     // "lemma pos [usage]\n", e.g. "book nv 96"
  std::span<const std::string_view> exceptions;  // "inflection pos lemma...\n", e.g. "mice n mouse"
  std::span<const std::string_view> thesaurus;   // "word pos synonym...\n", e.g. "buy v purchase"
};

// The WordNet data built into the binary. The views point into static storage.
ThesaurusData embedded_thesaurus_data();

}  // namespace parley
