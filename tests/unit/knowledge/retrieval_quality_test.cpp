// Retrieval quality on a shipped corpus (tests/data/knowledge): 55 help-centre snippets and 60
// questions, each with the snippet that answers it. The right snippet must come first for at
// least 90% of the questions.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "knowledge/agent_index.h"

namespace parley {
namespace {

std::vector<std::vector<std::string>> read_tsv(const std::string& name) {
  std::ifstream in(std::string(PARLEY_TEST_DATA_DIR) + "/knowledge/" + name);
  EXPECT_TRUE(in.good()) << name;
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::stringstream ss(line);
    std::string col;
    while (std::getline(ss, col, '\t')) cols.push_back(col);
    rows.push_back(cols);
  }
  return rows;
}

TEST(RetrievalQuality, RightSnippetFirstForNinetyPercent) {
  AgentIndex index;
  auto snippets = read_tsv("snippets.tsv");
  ASSERT_GE(snippets.size(), 50u);
  for (const auto& row : snippets) {
    ASSERT_EQ(row.size(), 3u);
    IndexedSource s;
    s.id = row[0];
    s.type = "text";
    s.title = row[1];
    s.content = row[2];
    index.add(s);
  }
  auto questions = read_tsv("questions.tsv");
  ASSERT_GE(questions.size(), 50u);
  size_t right = 0;
  for (const auto& q : questions) {
    ASSERT_EQ(q.size(), 2u);
    auto hits = index.search(q[1], 3);
    if (!hits.empty() && hits[0].source_id == q[0]) ++right;
    else std::cout << "  not first: " << q[1] << " -> " << (hits.empty() ? "nothing" : hits[0].source_id) << "\n";
  }
  double share = static_cast<double>(right) / static_cast<double>(questions.size());
  RecordProperty("right_first", std::to_string(right) + "/" + std::to_string(questions.size()));
  EXPECT_GE(share, 0.9) << right << " of " << questions.size();
}

}  // namespace
}  // namespace parley
