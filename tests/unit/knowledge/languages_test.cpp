// The index in other scripts: an agent whose `language` is Japanese, Chinese, Russian or Greek
// indexes its knowledge and answers a question asked in that script; an English agent with a
// Cyrillic snippet still finds it by the exact word; French is matched by its own stemmer.
#include <gtest/gtest.h>

#include "knowledge/agent_index.h"
#include "test_sources.h"

namespace parley {
namespace {

using test::qa;
using test::text;

const double kThreshold = KnowledgeSettings{}.answer_threshold;

struct Case {
  std::string language;
  std::string about;  // the snippet the question is about
  std::string other;  // another snippet of the same agent
  std::string question;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.language << ": " << c.question; }

class OtherScripts : public ::testing::TestWithParam<Case> {};

TEST_P(OtherScripts, IndexesAndFindsInItsScript) {
  const Case& c = GetParam();
  KnowledgeSettings settings;
  settings.language = c.language;
  AgentIndex index(settings);
  EXPECT_EQ(index.add(text("about", c.about)), 1u);
  EXPECT_EQ(index.add(text("other", c.other)), 1u);
  auto hits = index.search(c.question, 2);
  ASSERT_FALSE(hits.empty()) << c.language;
  EXPECT_EQ(hits[0].source_id, "about");
  EXPECT_EQ(hits[0].text, c.about);
  auto a = index.answer(c.question, 3);
  EXPECT_EQ(a.text, c.about);
  EXPECT_EQ(a.source_id, "about");
}

TEST_P(OtherScripts, AnswersAboveTheDefaultThreshold) {
  const Case& c = GetParam();
  KnowledgeSettings settings;
  settings.language = c.language;
  AgentIndex index(settings);
  index.add(text("about", c.about));
  index.add(text("other", c.other));
  auto a = index.answer(c.question, 3);
  EXPECT_EQ(a.source_id, "about");
  EXPECT_GE(a.confidence, kThreshold)
      << c.language << " coverage " << a.signals.coverage << ", foreign " << a.signals.foreign;
}

INSTANTIATE_TEST_SUITE_P(
    Languages, OtherScripts,
    ::testing::Values(Case{"ja", "返品は購入後30日以内に受け付けます。",
                           "営業時間は午前9時から午後5時までです。", "返品はできますか？"},
                      Case{"zh", "退货政策：购买后三十天内可以退货。",
                           "我们的营业时间是上午九点到下午五点。", "你们的退货政策是什么？"},
                      Case{"ru", "Доставка по городу занимает три дня.",
                           "Магазин открыт с девяти утра до пяти вечера.",
                           "Сколько дней занимает доставка?"},
                      Case{"el", "Η παράδοση στην πόλη διαρκεί τρεις ημέρες.",
                           "Το κατάστημα είναι ανοιχτό από τις εννέα το πρωί.",
                           "Πόσο διαρκεί η παράδοση;"}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.language; });

TEST(ScriptsInTheIndex, RussianInflectionsMeetByTheirStem) {
  KnowledgeSettings settings;
  settings.language = "ru";
  AgentIndex index(settings);
  index.add(text("delivery", "Доставка по городу занимает три дня."));
  index.add(text("shop", "Магазин открыт с девяти утра до пяти вечера."));
  auto hits = index.search("Стоимость доставки", 2);  // genitive "доставки"
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(hits[0].source_id, "delivery");
}

TEST(ScriptsInTheIndex, AnEnglishAgentFindsACyrillicSnippetByTheExactWord) {
  AgentIndex index;
  index.add(text("cyrillic", "Доставка по городу занимает три дня."));
  index.add(text("english", "Delivery in town takes three days."));
  auto hits = index.search("доставка", 2);
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].source_id, "cyrillic");
  // Case-folded: the capital in the snippet meets the question's small letters and back.
  auto upper = index.search("ДОСТАВКА", 2);
  ASSERT_EQ(upper.size(), 1u);
  EXPECT_EQ(upper[0].source_id, "cyrillic");
  auto english = index.search("delivery", 2);
  ASSERT_EQ(english.size(), 1u);
  EXPECT_EQ(english[0].source_id, "english");
}

TEST(ScriptsInTheIndex, FrenchIsMatchedByItsOwnStemmer) {
  KnowledgeSettings settings;
  settings.language = "fr";
  AgentIndex index(settings);
  index.add(text("delivery", "La livraison est gratuite pour toute commande de plus de 50 euros."));
  index.add(text("shop", "Le magasin ouvre à neuf heures du matin."));
  auto a = index.answer("Les livraisons sont-elles gratuites ?", 3);
  EXPECT_EQ(a.text, "La livraison est gratuite pour toute commande de plus de 50 euros.");
  EXPECT_EQ(a.source_id, "delivery");
  EXPECT_GE(a.confidence, kThreshold);
}

}  // namespace
}  // namespace parley
