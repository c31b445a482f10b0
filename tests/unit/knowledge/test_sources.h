// Sources for the knowledge tests: a text snippet (with an optional title) and a Q&A pair, as the
// trainer hands them to the index.
#pragma once

#include <optional>
#include <string>

#include "knowledge/agent_index.h"

namespace parley::test {

inline IndexedSource text(std::string id, std::string content, std::optional<std::string> title = std::nullopt) {
  IndexedSource s;
  s.id = std::move(id);
  s.type = "text";
  s.title = std::move(title);
  s.content = std::move(content);
  return s;
}

inline IndexedSource qa(std::string id, std::string question, std::string answer) {
  IndexedSource s;
  s.id = std::move(id);
  s.type = "qa";
  s.question = std::move(question);
  s.answer = std::move(answer);
  return s;
}

}  // namespace parley::test
