// Mailer: sends one plain-text email through an SMTP server with libcurl (the server and sender
// come from the configuration: --smtp-url / PARLEY_SMTP_URL, --smtp-from / PARLEY_SMTP_FROM).
// Used for hand-offs (the agent mails the conversation to the team's address) and to tell an
// account's owners that a failing webhook was disabled. Header values are
// stripped of line breaks so that no input can add headers or recipients.
// Stateless apart from its options: send() is safe to call from many threads at once.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"

namespace parley {

struct MailerOptions {
  std::string smtp_url;       // "smtp://host:port" or "smtps://..."; empty = mail is not configured
  std::string from;           // the sender address, e.g. "parley@example.com"
  std::string username = {};  // optional SMTP login
  std::string password = {};
  int64_t timeout_ms = 10000;
};

struct MailMessage {
  std::string to;
  std::string subject;
  std::string body;        // plain text, UTF-8
  int64_t date_ms = 0;     // the Date header (from the injected clock)
  std::string message_id;  // without angle brackets; empty = none
};

// The message as sent (headers, blank line, body with CRLF line ends); exposed for tests.
std::string format_mail(const MailerOptions& options, const MailMessage& message);

class Mailer {
 public:
  explicit Mailer(MailerOptions options) : options_(std::move(options)) {}

  bool configured() const { return !options_.smtp_url.empty() && !options_.from.empty(); }
  // 500 internal_error when mail is not configured, the server cannot be reached or refuses.
  Result<void> send(const MailMessage& message) const;

 private:
  MailerOptions options_;
};

}  // namespace parley
