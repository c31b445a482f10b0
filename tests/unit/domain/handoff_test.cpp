#include "domain/handoff.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

TEST(HandoffMail, NamesTheAgentAndCarriesTheTranscript) {
  HandoffMail mail{"team@example.com",
                   "Support",
                   "cnv_abc",
                   {{"user", "Hi"}, {"assistant", "Hello!"}, {"user", "Can I talk to a human?"}},
                   1795339200123};
  MailMessage m = compose_handoff_mail(mail);
  EXPECT_EQ(m.to, "team@example.com");
  EXPECT_EQ(m.subject, "Conversation handed off by Support");
  EXPECT_EQ(m.message_id, "cnv_abc:1795339200123@parley");
  EXPECT_EQ(m.date_ms, 1795339200123);
  EXPECT_NE(m.body.find("Conversation: cnv_abc\n"), std::string::npos);
  EXPECT_NE(m.body.find("Visitor: Hi\n\nAgent: Hello!\n\nVisitor: Can I talk to a human?\n"),
            std::string::npos);
}

TEST(HandoffMail, EventIdIsConversationColonMilliseconds) {
  EXPECT_EQ(handoff_event_id("cnv_1", 42), "cnv_1:42");
}

}  // namespace
}  // namespace parley
