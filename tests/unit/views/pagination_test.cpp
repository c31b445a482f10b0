#include "views/pagination.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

TEST(Cursor, RoundTripsThePosition) {
  KeysetPosition at{1767225600123, "cnv_0123456789abcdefABCDEF"};
  auto cursor = encode_cursor(kConversationList, "agt_x", at);
  auto back = decode_cursor(cursor, kConversationList, "agt_x");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->time, at.time);
  EXPECT_EQ(back->id, at.id);
}

TEST(Cursor, RefusesAnotherListOrAgentOrAnEdit) {
  auto cursor = encode_cursor(kLeadList, "agt_x", {5, "lead_abc"});
  EXPECT_FALSE(decode_cursor(cursor, kContactList, "agt_x").ok());
  EXPECT_FALSE(decode_cursor(cursor, kLeadList, "agt_y").ok());
  std::string edited = cursor;
  edited[3] = edited[3] == 'a' ? 'b' : 'a';
  EXPECT_FALSE(decode_cursor(edited, kLeadList, "agt_x").ok());
  EXPECT_FALSE(decode_cursor("", kLeadList, "agt_x").ok());
  auto e = decode_cursor("!!", kLeadList, "agt_x");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().message.find("'cursor'"), std::string::npos);
}

}  // namespace
}  // namespace parley
