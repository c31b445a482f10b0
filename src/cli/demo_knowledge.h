// The sample knowledge `parley admin demo` gives the demo agent: a fictional bicycle shop's help
// texts and Q&A pairs, and a question it answers, so the first chat a newcomer sends gets a
// grounded reply with its sources.
// Immutable data; thread-safe.
#pragma once

#include <string_view>
#include <vector>

namespace parley {

struct DemoSource {
  std::string_view title;     // text snippets
  std::string_view content;
  std::string_view question;  // Q&A pairs
  std::string_view answer;
};

const std::vector<DemoSource>& demo_knowledge();

// The question the printed curl line asks.
inline constexpr std::string_view kDemoQuestion = "How much does it cost to rent an e-bike for a day?";

}  // namespace parley
