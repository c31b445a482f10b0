// Whether an answer the knowledge gives covers the question well enough to be given: a logistic
// model over measurable signals (retriever.h's AnswerSignals: how much of the question's weight
// the answer covers, by all its sentences and by its best one alone; whether the question's
// heaviest word is covered; the weight of the question's words the knowledge lacks altogether;
// the margin over the best answer from another source; a number when one was asked for; whether a
// Q&A pair answers and how much its question asked beyond the query). The weights were fitted on
// the development part of the evaluation corpus (tests/data/eval, bench/calibrate.py); the agent's
// `answerThreshold` is compared with the probability this gives. docs/decisions/knowledge.md
// tells how.
// Pure function; thread-safe.
#pragma once

#include "knowledge/retriever.h"

namespace parley {

// The probability (0..1) that the answer is right.
double answer_confidence(const AnswerSignals& signals);

}  // namespace parley
