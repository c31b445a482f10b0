#include "engine/mailer.h"

#include <curl/curl.h>

#include <cstring>
#include <ctime>
#include <memory>

#include "core/crypto.h"
#include "core/log.h"
#include "net/outbound.h"

namespace parley {

namespace {
// A header value on one line: CR and LF become spaces.
std::string one_line(std::string_view value) {
  std::string out(value);
  for (char& c : out)
    if (c == '\r' || c == '\n') c = ' ';
  return out;
}

bool is_ascii(std::string_view s) {
  for (unsigned char c : s)
    if (c >= 0x80) return false;
  return true;
}

// RFC 2047 encoded word for a subject that is not plain ASCII.
std::string encode_header(std::string_view value) {
  if (is_ascii(value)) return std::string(value);
  return "=?UTF-8?B?" + base64_encode(value) + "?=";
}

std::string rfc5322_date(int64_t ms) {
  time_t seconds = static_cast<time_t>(ms / 1000);
  tm parts{};
  gmtime_r(&seconds, &parts);
  char buf[64];
  strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S +0000", &parts);
  return buf;
}

// Bare LF line ends become CRLF, as SMTP requires.
std::string crlf(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 32);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' && (i == 0 || text[i - 1] != '\r')) out += '\r';
    out += text[i];
  }
  return out;
}

struct Upload {
  std::string data;
  size_t offset = 0;
};

size_t read_upload(char* buffer, size_t size, size_t count, void* user) {
  auto* upload = static_cast<Upload*>(user);
  size_t n = std::min(size * count, upload->data.size() - upload->offset);
  std::memcpy(buffer, upload->data.data() + upload->offset, n);
  upload->offset += n;
  return n;
}

struct CurlDeleter {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
};
struct SlistDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};
}  // namespace

std::string format_mail(const MailerOptions& options, const MailMessage& message) {
  std::string out;
  out += "Date: " + rfc5322_date(message.date_ms) + "\r\n";
  out += "From: " + one_line(options.from) + "\r\n";
  out += "To: " + one_line(message.to) + "\r\n";
  if (!message.message_id.empty()) out += "Message-ID: <" + one_line(message.message_id) + ">\r\n";
  out += "Subject: " + encode_header(one_line(message.subject)) + "\r\n";
  out += "MIME-Version: 1.0\r\n";
  out += "Content-Type: text/plain; charset=UTF-8\r\n";
  out += "Content-Transfer-Encoding: 8bit\r\n";
  out += "\r\n";
  out += crlf(message.body);
  if (out.size() < 2 || out.compare(out.size() - 2, 2, "\r\n") != 0) out += "\r\n";
  return out;
}

Result<void> Mailer::send(const MailMessage& message) const {
  if (!configured()) return ApiError::internal("Mail is not configured (SMTP server and sender).");
  std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
  if (!curl) return ApiError::internal("Could not start sending mail.");
  Upload upload{format_mail(options_, message), 0};
  std::string from = "<" + one_line(options_.from) + ">";
  std::unique_ptr<curl_slist, SlistDeleter> rcpt(
      curl_slist_append(nullptr, ("<" + one_line(message.to) + ">").c_str()));

  CURL* c = curl.get();
  curl_easy_setopt(c, CURLOPT_URL, options_.smtp_url.c_str());
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
  curl_easy_setopt(c, CURLOPT_MAIL_FROM, from.c_str());
  curl_easy_setopt(c, CURLOPT_MAIL_RCPT, rcpt.get());
  curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
  curl_easy_setopt(c, CURLOPT_READFUNCTION, read_upload);
  curl_easy_setopt(c, CURLOPT_READDATA, &upload);
  curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(upload.data.size()));
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.timeout_ms));
  // With credentials, TLS is required: a stripped STARTTLS must not send the password in clear.
  curl_easy_setopt(c, CURLOPT_USE_SSL, static_cast<long>(options_.username.empty() ? CURLUSESSL_TRY
                                                                                     : CURLUSESSL_ALL));
  if (!options_.username.empty()) {
    curl_easy_setopt(c, CURLOPT_USERNAME, options_.username.c_str());
    curl_easy_setopt(c, CURLOPT_PASSWORD, options_.password.c_str());
  }
  CURLcode rc = perform_on_loop(c);  // waits while the outbound loop talks to the server
  if (rc != CURLE_OK) {
    log_warn("mail_failed", {{"curl_code", static_cast<int64_t>(rc)}});
    return ApiError::internal("The mail could not be sent.");
  }
  return ok_result();
}

}  // namespace parley
