// The persisted form of an agent's index: an index read back answers every question exactly as
// the one that wrote it (search, Q&A matching, answers, after removals, with synonyms, in another
// language), and a form that is corrupt, truncated, of another layout version or of another
// analysis is refused (the caller then rebuilds from the sources), never read into a wrong index.
#include "knowledge/index_form.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_sources.h"

namespace parley {
namespace {

using test::qa;
using test::text;

const std::vector<std::string> kQuestions = {
    "When are refunds paid?", "Do you ship abroad?",          "How much does shipping cost?",
    "opening hours",          "Can I get my money back?",     "wheelchar access",
    "Is there a bike rack?",  "How long is the warranty?",    "something else entirely",
    "What time do you open?", "returns within how many days", "e-bike battery",
};

AgentIndex sample(const KnowledgeSettings& settings = {}) {
  AgentIndex index(settings);
  index.add(text("a",
                 "Our shop opens at nine in the morning and closes at six.\n\nOn Sundays we rest.",
                 "Opening hours"));
  index.add(
      text("b", "Refunds are paid within five days. Returns are accepted for 30 days.", "Refunds"));
  index.add(text("c",
                 "We ship to many countries in Europe. Shipping abroad costs 12 euros.\n\n"
                 "Wheelchairs\nThe shop has wheelchair access and a bike rack at the door."));
  index.add(qa("q1", "How long is the warranty?", "Two years on every e-bike battery."));
  index.add(qa("q2", "Do you repair bikes?", "Yes, in our workshop."));
  index.add(text("d", "A source that is removed later."));
  index.remove("d");
  index.add(qa("q2", "Do you repair bikes?", "Yes, in our workshop, within a week."));  // replaced
  return index;
}

void expect_same_answers(const AgentIndex& a, const AgentIndex& b) {
  for (const auto& q : kQuestions) {
    SCOPED_TRACE(q);
    auto ha = a.search(q, 5), hb = b.search(q, 5);
    ASSERT_EQ(ha.size(), hb.size());
    for (size_t i = 0; i < ha.size(); ++i) {
      EXPECT_EQ(ha[i].source_id, hb[i].source_id);
      EXPECT_EQ(ha[i].text, hb[i].text);
      EXPECT_EQ(ha[i].title, hb[i].title);
      EXPECT_DOUBLE_EQ(ha[i].score, hb[i].score);
    }
    auto qa_a = a.match_qa(q, 3), qa_b = b.match_qa(q, 3);
    ASSERT_EQ(qa_a.size(), qa_b.size());
    for (size_t i = 0; i < qa_a.size(); ++i) {
      EXPECT_EQ(qa_a[i].source_id, qa_b[i].source_id);
      EXPECT_DOUBLE_EQ(qa_a[i].score, qa_b[i].score);
    }
    auto aa = a.answer(q, 3), ab = b.answer(q, 3);
    EXPECT_EQ(aa.text, ab.text);
    EXPECT_EQ(aa.source_id, ab.source_id);
    EXPECT_DOUBLE_EQ(aa.confidence, ab.confidence);
  }
}

TEST(IndexForm, RoundTripAnswersAlike) {
  AgentIndex index = sample();
  std::string form = index_form(index);
  auto back = index_from_form(form, KnowledgeSettings{});
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->live_chunks(), index.live_chunks());
  EXPECT_EQ(back->qa_pairs(), index.qa_pairs());
  expect_same_answers(index, *back);
  // A removed source stays removed, and the index read back still changes like the original.
  EXPECT_TRUE(back->search("removed later", 5).empty());
  EXPECT_TRUE(back->remove("b"));
  EXPECT_TRUE(index.remove("b"));
  expect_same_answers(index, *back);
  back->add(text("e", "Gift cards never expire."));
  EXPECT_EQ(back->search("gift cards", 1).at(0).source_id, "e");
  // Written again, the form is the same bytes.
  EXPECT_EQ(index_form(*index_from_form(form, KnowledgeSettings{})), form);
}

TEST(IndexForm, KeepsSynonymsAndLanguage) {
  KnowledgeSettings settings;
  settings.synonyms = {{"refund", "money back"}, {"e-bike", "electric bike"}};
  AgentIndex index = sample(settings);
  auto back = index_from_form(index_form(index), settings);
  ASSERT_TRUE(back.has_value());
  expect_same_answers(index, *back);
  EXPECT_FALSE(back->search("Can I have my money back?", 1).empty());

  KnowledgeSettings german;
  german.language = "de";
  AgentIndex de(german);
  de.add(text("a", "Die Bäckerinnen öffnen früh am Morgen.", "Öffnungszeiten"));
  auto de_back = index_from_form(index_form(de), german);
  ASSERT_TRUE(de_back.has_value());
  EXPECT_EQ(de_back->search("Wann öffnen die Bäckerin?", 1).size(),
            de.search("Wann öffnen die Bäckerin?", 1).size());
}

TEST(IndexForm, AnotherAnalysisIsRefused) {
  std::string form = index_form(sample());
  KnowledgeSettings french;
  french.language = "fr";
  EXPECT_FALSE(index_from_form(form, french).has_value());
  KnowledgeSettings synonyms;
  synonyms.synonyms = {{"refund", "money back"}};
  EXPECT_FALSE(index_from_form(form, synonyms).has_value());
  // The answer threshold does not change how the knowledge is analysed.
  KnowledgeSettings threshold;
  threshold.answer_threshold = 0.9;
  EXPECT_TRUE(index_from_form(form, threshold).has_value());
}

TEST(IndexForm, CorruptTruncatedOrOtherVersionIsRefused) {
  const std::string form = index_form(sample());
  EXPECT_FALSE(index_from_form("", KnowledgeSettings{}).has_value());
  EXPECT_FALSE(index_from_form("PKIF", KnowledgeSettings{}).has_value());
  for (size_t cut : {size_t{10}, size_t{48}, form.size() / 2, form.size() - 1})
    EXPECT_FALSE(index_from_form(form.substr(0, cut), KnowledgeSettings{}).has_value()) << cut;
  EXPECT_FALSE(index_from_form(form + "x", KnowledgeSettings{}).has_value());
  // Every byte flipped, header and payload alike, is caught (the checksum covers the payload).
  for (size_t i = 0; i < form.size(); i += std::max<size_t>(1, form.size() / 200)) {
    std::string bad = form;
    bad[i] = static_cast<char>(bad[i] ^ 0x5A);
    EXPECT_FALSE(index_from_form(bad, KnowledgeSettings{}).has_value()) << i;
  }
  std::string other_version = form;
  other_version[4] = static_cast<char>(kIndexFormVersion + 1);
  EXPECT_FALSE(index_from_form(other_version, KnowledgeSettings{}).has_value());
}

TEST(IndexForm, EmptyIndexRoundTrips) {
  AgentIndex empty;
  auto back = index_from_form(index_form(empty), KnowledgeSettings{});
  ASSERT_TRUE(back.has_value());
  EXPECT_TRUE(back->search("anything", 5).empty());
  EXPECT_EQ(back->live_chunks(), 0u);
}

}  // namespace
}  // namespace parley
