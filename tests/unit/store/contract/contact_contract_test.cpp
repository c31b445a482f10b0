// Contacts in bulk (imports): a batch inserted all or nothing within the agent's cap, and the
// contacts holding any of a batch's external IDs or emails found in one statement.
#include "store/contact_repo.h"
#include "store_contract.h"

namespace parley {
namespace {

ContactRecord person(std::string id, std::string agent, std::string account, int64_t at) {
  ContactRecord c;
  c.id = id;
  c.agent_id = std::move(agent);
  c.account_id = std::move(account);
  c.email = id + "@example.com";
  c.external_id = "ext_" + id;
  c.source = "import";
  c.first_seen_at = c.last_seen_at = c.created_at = c.updated_at = at;
  return c;
}

TEST_P(StoreContract, ABatchOfContactsIsInsertedWholeOrNotAtAll) {
  std::vector<ContactRecord> three, two;
  for (int i = 0; i < 3; ++i)
    three.push_back(person("ctc_a" + std::to_string(i), agent_, account_, now_));
  for (int i = 0; i < 2; ++i)
    two.push_back(person("ctc_b" + std::to_string(i), agent_, account_, now_));
  bool first = false, second = true, third = false;
  write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(first, ContactRepo::insert_all_within_cap(c, three, 4));
    PARLEY_ASSIGN_OR_RETURN(second, ContactRepo::insert_all_within_cap(c, two, 4));  // 5 > 4
    PARLEY_ASSIGN_OR_RETURN(third,
                            ContactRepo::insert_all_within_cap(c, {two[0]}, 4));  // exactly 4
    return {};
  });
  EXPECT_TRUE(first);
  EXPECT_FALSE(second);
  EXPECT_TRUE(third);
  EXPECT_EQ(*ContactRepo::count(reader(), agent_), 4);
  EXPECT_FALSE(ContactRepo::find(reader(), account_, "ctc_b1")->has_value());
  bool over = true;
  write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(over, ContactRepo::insert_all_within_cap(c, {two[1]}, 4));
    return {};
  });
  EXPECT_FALSE(over);
  EXPECT_EQ(*ContactRepo::count(reader(), agent_), 4);
}

TEST_P(StoreContract, ALargeBatchIsInsertedAHundredRowsAStatementWithTheRestOneByOne) {
  std::vector<ContactRecord> many;
  for (int i = 0; i < 257; ++i)
    many.push_back(person("ctc_m" + std::to_string(i), agent_, account_, now_ + i));
  many[200].phone = "+4915112345678";
  many[200].name = "Two Hundred";
  many[200].attributes = R"({"plan":"pro"})";
  bool inserted = false;
  write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(inserted, ContactRepo::insert_all_within_cap(c, many, 1000));
    return {};
  });
  EXPECT_TRUE(inserted);
  EXPECT_EQ(*ContactRepo::count(reader(), agent_), 257);
  for (int i : {0, 99, 100, 199, 200, 255, 256}) {
    auto got = *ContactRepo::find(reader(), account_, many[i].id);
    ASSERT_TRUE(got.has_value()) << i;
    EXPECT_EQ(got->email, many[i].email);
    EXPECT_EQ(got->external_id, many[i].external_id);
    EXPECT_EQ(got->phone, many[i].phone);
    EXPECT_EQ(got->name, many[i].name);
    EXPECT_EQ(got->attributes, many[i].attributes);
    EXPECT_EQ(got->source, "import");
    EXPECT_EQ(got->created_at, now_ + i);
  }
}

TEST_P(StoreContract, ContactsHoldingABatchsIdentifiersAreFoundAtOnce) {
  std::vector<ContactRecord> all;
  for (int i = 0; i < 6; ++i)
    all.push_back(person("ctc_" + std::to_string(i), agent_, account_, now_));
  all[5].external_id.reset();
  write([&](Connection& c) -> Result<void> {
    return ContactRepo::insert_all_within_cap(c, all, 100).ok() ? Result<void>()
                                                                : ApiError::internal("x");
  });
  auto found =
      *ContactRepo::find_holding_any(reader(), agent_, {"ext_ctc_0", "ext_ctc_2", "ext_none"},
                                     {"ctc_2@example.com", "ctc_5@example.com"});
  std::vector<std::string> ids;
  for (const auto& f : found) ids.push_back(f.id);
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<std::string>{"ctc_0", "ctc_2", "ctc_5"}));
  EXPECT_TRUE(ContactRepo::find_holding_any(reader(), "agt_other", {"ext_ctc_0"}, {})->empty());
  EXPECT_TRUE(ContactRepo::find_holding_any(reader(), agent_, {}, {})->empty());
  std::vector<std::string> many(ContactRepo::kMaxLookup, "ext_ctc_1");
  EXPECT_EQ(ContactRepo::find_holding_any(reader(), agent_, many, many)->size(), 1u);
}

}  // namespace
}  // namespace parley
