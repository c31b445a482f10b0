#include "engine/mailer.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

TEST(FormatMail, ANonAsciiSubjectIsOneBase64EncodedWord) {
  MailerOptions options{"smtp://127.0.0.1:25", "parley@example.com"};
  // 7, 6 and 8 bytes: two padding characters, none and one.
  for (auto [subject, encoded] : {std::pair{"Grüße", "=?UTF-8?B?R3LDvMOfZQ==?="},
                                  std::pair{"Grüß", "=?UTF-8?B?R3LDvMOf?="},
                                  std::pair{"Grüßen", "=?UTF-8?B?R3LDvMOfZW4=?="}}) {
    std::string mail = format_mail(options, {"team@example.com", subject, "Hello", 0, ""});
    EXPECT_NE(mail.find(std::string("\r\nSubject: ") + encoded + "\r\n"), std::string::npos)
        << mail;
  }
  std::string plain = format_mail(options, {"team@example.com", "Hand-off", "Hello", 0, ""});
  EXPECT_NE(plain.find("\r\nSubject: Hand-off\r\n"), std::string::npos);
}

}  // namespace
}  // namespace parley
