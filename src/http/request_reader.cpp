#include "http/request_reader.h"

#include <boost/beast/core/string.hpp>
#include <boost/beast/http/error.hpp>

#include <array>

namespace parley {

void Message::clear() {
  method.clear();
  target.clear();
  text.clear();
  fields.clear();
  body.clear();
}

std::string_view Message::header(std::string_view name) const {
  boost::beast::string_view wanted(name.data(), name.size());
  for (const Field& f : fields) {
    if (boost::beast::iequals(boost::beast::string_view(text.data() + f.name_at, f.name_size), wanted)) {
      return {text.data() + f.value_at, f.value_size};
    }
  }
  return {};
}

std::string Message::header_fault() const {
  constexpr std::array<std::string_view, 4> kSingle = {"Host", "Authorization", "Content-Type",
                                                       "Idempotency-Key"};
  std::array<int, kSingle.size()> seen{};
  for (const Field& f : fields) {
    boost::beast::string_view name(text.data() + f.name_at, f.name_size);
    for (size_t i = 0; i < kSingle.size(); ++i) {
      if (!boost::beast::iequals(name,
                                 boost::beast::string_view(kSingle[i].data(), kSingle[i].size())))
        continue;
      if (++seen[i] == 2)
        return "The header '" + std::string(kSingle[i]) + "' is sent more than once.";
    }
  }
  if (version >= 11 && seen[0] == 0) return "An HTTP/1.1 request must carry a Host header.";
  return {};
}

std::string_view lookup_message_header(const void* message, std::string_view name) {
  return static_cast<const Message*>(message)->header(name);
}

void RequestParser::on_request_impl(boost::beast::http::verb, string_view method, string_view target, int version,
                                    error_code&) {
  m_.method.assign(method.data(), method.size());
  m_.target.assign(target.data(), target.size());
  m_.version = version;
}

void RequestParser::on_field_impl(boost::beast::http::field, string_view name, string_view value, error_code&) {
  auto at = static_cast<uint32_t>(m_.text.size());
  m_.text.append(name.data(), name.size());
  m_.text.append(value.data(), value.size());
  m_.fields.push_back({at, static_cast<uint32_t>(name.size()), at + static_cast<uint32_t>(name.size()),
                       static_cast<uint32_t>(value.size())});
}

uint64_t RequestParser::route_limit() const {
  if (limits_.router == nullptr) return limits_.server;
  std::string_view target = m_.target;
  std::string_view method =
      m_.method == "HEAD" ? std::string_view("GET") : std::string_view(m_.method);
  return limits_.router->body_limit(method, target.substr(0, target.find('?')), limits_.server);
}

// Beast has already refused a Content-Length beyond the largest limit; here the request's own.
void RequestParser::on_header_impl(error_code& ec) {
  decided_ = true;
  if (limits_.largest == limits_.server && limits_.smallest == limits_.server) return;
  auto length = content_length();
  // A body within every route's limit needs no route lookup (most requests).
  bool lookup = chunked() || (length && *length > limits_.smallest);
  limit_ = lookup ? route_limit() : limits_.server;
  body_limit(limit_);  // no body byte is parsed yet, so the limit may still change
  if (length && *length > limit_) {
    ec = boost::beast::http::error::body_limit;
    return;
  }
  // A body past the server's limit takes its size (a chunked one, its limit) from the budget.
  uint64_t want = length ? *length : limit_;
  if (limit_ <= limits_.server || want <= limits_.server || limits_.large_in_flight == nullptr ||
      limits_.large_budget == 0) {
    return;
  }
  uint64_t held = limits_.large_in_flight->load();
  do {
    if (held + want > limits_.large_budget) {
      over_budget_ = true;
      ec = boost::beast::http::error::body_limit;
      return;
    }
  } while (!limits_.large_in_flight->compare_exchange_weak(held, held + want));
  reserved_ = want;
}

RequestParser::~RequestParser() {
  if (reserved_ > 0) limits_.large_in_flight->fetch_sub(reserved_);
}

void RequestParser::on_body_init_impl(const boost::optional<std::uint64_t>& length, error_code&) {
  if (length) m_.body.reserve(static_cast<size_t>(*length));  // within the body limit, checked first
}

size_t RequestParser::on_body_impl(string_view s, error_code&) {
  m_.body.append(s.data(), s.size());
  return s.size();
}

size_t RequestParser::on_chunk_body_impl(std::uint64_t, string_view s, error_code&) {
  m_.body.append(s.data(), s.size());
  return s.size();
}

}  // namespace parley
