// Answer quality on the evaluation corpus (tests/data/eval: a fictional ferry operator's
// knowledge, in-scope questions in customers' words with the phrase a right answer contains, and
// out-of-scope questions that share its words), judged in-process by the real index at the
// default answerThreshold. `make eval` measures the same over HTTP; this test keeps a change from
// losing what was gained. It checks the held-out third, which calibration never looked at.
// PARLEY_EVAL_VERBOSE=1 prints every miss with the question's plan; PARLEY_EVAL_SWEEP=1 prints
// right and clean shares for a range of thresholds on each split; PARLEY_EVAL_SIGNALS=FILE writes
// each question's answer signals and whether the answer is right, one JSON object a line, for
// bench/calibrate.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "knowledge/agent_index.h"

namespace parley {
namespace {

struct Question {
  std::string id, text, kind, target, expect, split;
};

struct Corpus {
  std::vector<IndexedSource> sources;
  std::vector<Question> questions;
};

nlohmann::json read_json(const std::string& name) {
  std::ifstream in(std::string(PARLEY_TEST_DATA_DIR) + "/eval/" + name);
  EXPECT_TRUE(in.good()) << name;
  return nlohmann::json::parse(in);
}

const Corpus& corpus() {
  static const Corpus* const kCorpus = [] {
    auto* c = new Corpus();
    auto knowledge = read_json("knowledge.json");
    for (const auto& s : knowledge["snippets"])
      c->sources.push_back({s["id"], "text", s["title"].get<std::string>(), std::nullopt, s["content"], "", ""});
    for (const auto& q : knowledge["qa"])
      c->sources.push_back({q["id"], "qa", std::nullopt, std::nullopt, "", q["question"], q["answer"]});
    auto questions = read_json("questions.json");
    for (const auto& q : questions["questions"]) {
      c->questions.push_back({q["id"], q["question"], q["kind"], q["target"].is_null() ? "" : q["target"].get<std::string>(),
                              q["expect"].is_null() ? "" : q["expect"].get<std::string>(), q["split"]});
    }
    return c;
  }();
  return *kCorpus;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

struct Score {
  size_t in_scope = 0, right = 0, out_of_scope = 0, clean = 0;
  size_t top5 = 0, right_source = 0;  // the target among search's first 5; the answer's source
  size_t wrong = 0;                     // in-scope questions answered with something else
  double wrong_share() const { return in_scope ? static_cast<double>(wrong) / static_cast<double>(in_scope) : 0; }
  double right_share() const { return in_scope ? static_cast<double>(right) / static_cast<double>(in_scope) : 0; }
  double clean_share() const {
    return out_of_scope ? static_cast<double>(clean) / static_cast<double>(out_of_scope) : 0;
  }
};

void print_plan(const AgentIndex& index, const std::string& text) {
  auto plan = index.plan(text);
  std::cout << "      plan:";
  for (size_t i = 0; i < plan.slots.size(); ++i)
    std::cout << " " << plan.slots[i].word << (i == plan.key_slot ? "*" : "") << "(" << plan.slots[i].weight << ","
              << plan.slots[i].alternatives.size() << ")";
  std::cout << "\n";
}

Score evaluate(const AgentIndex& index, const std::string& split, double threshold, bool verbose) {
  Score score;
  for (const auto& q : corpus().questions) {
    if (q.split != split) continue;
    KnowledgeAnswer a = index.answer(q.text, 3);
    bool answered = !a.text.empty() && a.confidence >= threshold;
    if (q.kind == "oos") {
      ++score.out_of_scope;
      if (!answered) ++score.clean;
      else if (verbose) {
        std::cout << "  OOS answered " << q.id << " (" << a.confidence << "): " << q.text << "\n      got: " << a.text << "\n";
        print_plan(index, q.text);
      }
      continue;
    }
    ++score.in_scope;
    if (a.source_id == q.target) ++score.right_source;
    for (const auto& hit : index.search(q.text, 5)) score.top5 += hit.source_id == q.target;
    for (const auto& m : index.match_qa(q.text, 3)) score.top5 += m.source_id == q.target;
    bool right = answered && lower(a.text).find(lower(q.expect)) != std::string::npos;
    if (right) ++score.right;
    if (answered && !right) ++score.wrong;
    if (!right && verbose) {
      std::cout << "  " << (answered ? "WRONG " : "FALLBACK ") << q.id << " [" << q.target << "] (" << a.confidence << ", "
                << a.source_id << "): " << q.text << "\n      expected: " << q.expect << "\n      got: " << a.text << "\n";
      print_plan(index, q.text);
    }
  }
  return score;
}

const AgentIndex& eval_index() {
  static const AgentIndex* const kIndex = [] {
    auto* index = new AgentIndex();
    for (const auto& s : corpus().sources) index->add(s);
    return index;
  }();
  return *kIndex;
}

void write_signals(const AgentIndex& index, const std::string& path) {
  std::ofstream out(path);
  for (const auto& q : corpus().questions) {
    KnowledgeAnswer a = index.answer(q.text, 3);
    bool right = q.kind != "oos" && !a.text.empty() && lower(a.text).find(lower(q.expect)) != std::string::npos;
    const AnswerSignals& g = a.signals;
    nlohmann::json line = {{"id", q.id},           {"split", q.split},     {"kind", q.kind},
                           {"right", right},       {"answered", !a.text.empty()},
                           {"coverage", g.coverage}, {"sentence", g.sentence}, {"key", g.key},
                           {"foreign", g.foreign}, {"margin", g.margin},   {"number", g.number},
                           {"qa", g.qa},           {"unasked", g.unasked}};
    out << line.dump() << "\n";
  }
}

TEST(AnswerQuality, TheCorpusIsAsDescribed) {
  size_t snippets = 0, pairs = 0, in_scope = 0, out_of_scope = 0;
  for (const auto& s : corpus().sources) (s.type == "qa" ? pairs : snippets)++;
  for (const auto& q : corpus().questions) (q.kind == "oos" ? out_of_scope : in_scope)++;
  EXPECT_GE(snippets, 80u);
  EXPECT_GE(pairs, 20u);
  EXPECT_GE(in_scope, 150u);
  EXPECT_GE(out_of_scope, 40u);
}

TEST(AnswerQuality, HeldOutQuestionsAreAnsweredRightOrGivenTheFallback) {
  bool verbose = std::getenv("PARLEY_EVAL_VERBOSE") != nullptr;
  const AgentIndex& index = eval_index();
  if (const char* path = std::getenv("PARLEY_EVAL_SIGNALS")) write_signals(index, path);
  if (std::getenv("PARLEY_EVAL_SWEEP") != nullptr) {
    for (double t = 0.2; t < 0.86; t += 0.05) {
      Score dev = evaluate(index, "dev", t, false), held = evaluate(index, "heldout", t, false);
      std::cout << "threshold " << t << ": dev right " << dev.right_share() << " clean " << dev.clean_share()
                << " | heldout right " << held.right_share() << " clean " << held.clean_share() << "\n";
    }
  }
  const double threshold = KnowledgeSettings{}.answer_threshold;
  Score dev = evaluate(index, "dev", threshold, verbose);
  // Misses are shown for the development part only: the held-out part stays unseen.
  Score held = evaluate(index, "heldout", threshold, false);
  std::cout << "dev: right " << dev.right << "/" << dev.in_scope << ", clean " << dev.clean << "/" << dev.out_of_scope
            << ", target in top 5 " << dev.top5 << ", answer from the target " << dev.right_source
            << ", wrong " << dev.wrong << "\nheldout: right " << held.right << "/" << held.in_scope << ", clean "
            << held.clean << "/" << held.out_of_scope << ", wrong " << held.wrong << "\n";
  RecordProperty("heldout_right", std::to_string(held.right) + "/" + std::to_string(held.in_scope));
  RecordProperty("heldout_clean", std::to_string(held.clean) + "/" + std::to_string(held.out_of_scope));
  // Floors at the figures measured when the threshold was calibrated (docs/decisions/knowledge.md),
  // so a change that loses ground fails here.
  EXPECT_GE(held.right_share(), 0.35);
  EXPECT_LE(held.wrong_share(), 0.06);
  EXPECT_GE(held.clean_share(), 0.9);
}

}  // namespace
}  // namespace parley
