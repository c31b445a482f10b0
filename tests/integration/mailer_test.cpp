// The SMTP mailer against a small SMTP receiver on a loopback port.
#include "engine/mailer.h"

#include <gtest/gtest.h>

#include "fake_smtp_server.h"

namespace parley::e2e {
namespace {

constexpr int64_t kDate = 1795339200123;  // 2026-11-22T...Z

TEST(Mailer, DeliversAPlainTextMessage) {
  FakeSmtpServer smtp;
  Mailer mailer({smtp.url(), "parley@example.com", "", "", 5000});
  ASSERT_TRUE(mailer.configured());
  auto sent = mailer.send({"team@example.com", "Hand-off: Grüße",
                           "Line one\n.leading dot\nLine three", kDate, "cnv_1@parley"});
  ASSERT_TRUE(sent.ok()) << sent.error().message;
  ASSERT_TRUE(smtp.wait_for(1, 5000));
  auto mails = smtp.mails();
  ASSERT_EQ(mails.size(), 1u);
  EXPECT_EQ(mails[0].from, "parley@example.com");
  EXPECT_EQ(mails[0].to, (std::vector<std::string>{"team@example.com"}));
  const std::string& data = mails[0].data;
  EXPECT_NE(data.find("From: parley@example.com\r\n"), std::string::npos);
  EXPECT_NE(data.find("To: team@example.com\r\n"), std::string::npos);
  EXPECT_NE(data.find("Subject: =?UTF-8?B?"), std::string::npos);
  EXPECT_NE(data.find("Message-ID: <cnv_1@parley>\r\n"), std::string::npos);
  EXPECT_NE(data.find("Content-Type: text/plain; charset=UTF-8\r\n"), std::string::npos);
  EXPECT_NE(data.find("\r\n\r\nLine one\r\n.leading dot\r\nLine three\r\n"), std::string::npos);
}

TEST(Mailer, KeepsLineBreaksOutOfHeaders) {
  std::string mail =
      format_mail({"smtp://x", "a@example.com"},
                  {"team@example.com\r\nBcc: evil@example.com", "Hi\nBcc: x@y", "body", kDate, ""});
  EXPECT_EQ(mail.find("\r\nBcc:"), std::string::npos);
  EXPECT_NE(mail.find("Date: "), std::string::npos);
  EXPECT_NE(mail.find(" +0000\r\n"), std::string::npos);
}

TEST(Mailer, ARefusedRecipientIsAnInternalError) {
  FakeSmtpServer smtp;
  smtp.refuse_recipients(true);
  Mailer mailer({smtp.url(), "parley@example.com"});
  auto sent = mailer.send({"nobody@example.com", "x", "y", kDate, ""});
  ASSERT_FALSE(sent.ok());
  EXPECT_EQ(sent.error().code, ErrorCode::kInternal);
  EXPECT_TRUE(smtp.mails().empty());
}

TEST(Mailer, AnUnreachableServerOrNoConfigurationIsAnInternalError) {
  Mailer unreachable({"smtp://127.0.0.1:1", "parley@example.com", "", "", 2000});
  auto sent = unreachable.send({"team@example.com", "x", "y", kDate, ""});
  ASSERT_FALSE(sent.ok());
  EXPECT_EQ(sent.error().code, ErrorCode::kInternal);
  Mailer none({});
  EXPECT_FALSE(none.configured());
  EXPECT_FALSE(none.send({"team@example.com", "x", "y", kDate, ""}).ok());
}

}  // namespace
}  // namespace parley::e2e
