#include "knowledge/answerability.h"

#include <cmath>

namespace parley {

namespace {
// Fitted by bench/calibrate.py on the development questions (see docs/decisions/knowledge.md).
// Whether the key word is covered is left to the choice of the answer (agent_index.cpp): beside
// coverage it adds nothing the fit could use.
constexpr double kBias = -2.468;
constexpr double kCoverage = 1.322;
constexpr double kSentence = 1.335;
constexpr double kForeign = -1.014;
constexpr double kMargin = 1.458;
constexpr double kNumber = 0.603;
constexpr double kQa = 0.316;
constexpr double kUnasked = -0.257;
}  // namespace

double answer_confidence(const AnswerSignals& s) {
  double z = kBias + kCoverage * s.coverage + kSentence * s.sentence + kForeign * s.foreign +
             kMargin * s.margin + kNumber * s.number + kQa * s.qa + kUnasked * s.unasked;
  return 1.0 / (1.0 + std::exp(-z));
}

}  // namespace parley
