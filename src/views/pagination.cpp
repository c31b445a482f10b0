#include "views/pagination.h"

#include <charconv>

#include "core/crypto.h"
#include "core/time_format.h"

namespace parley {

namespace {
constexpr int64_t kDefaultLimit = 20;
constexpr int64_t kMaxLimit = 100;

// Twelve hex digits of SHA-256 over the agent and the payload: detects edits and cursors reused
// on another agent's list. It is not a secret MAC; a forged position only moves within the
// caller's own list, which every query scopes to the agent anyway.
std::string checksum(std::string_view agent_id, std::string_view payload) {
  std::string input = "parley-cursor:";
  input += agent_id;
  input += ':';
  input += payload;
  return sha256_hex(input).substr(0, 12);
}

ApiError bad_cursor() {
  return ApiError::invalid(
      "'cursor' is not a cursor of this list; pass the nextCursor of the previous page.");
}

bool is_base62(std::string_view s) {
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
  return true;
}
}  // namespace

std::string encode_cursor(const ListKind& kind, std::string_view agent_id,
                          const KeysetPosition& at) {
  std::string payload = std::string(kind.name) + "." + std::to_string(at.time) + "." + at.id;
  return base64url_encode(payload + "." + checksum(agent_id, payload));
}

Result<KeysetPosition> decode_cursor(std::string_view cursor, const ListKind& kind,
                                     std::string_view agent_id) {
  if (cursor.size() > 200) return bad_cursor();
  auto raw = base64url_decode(cursor);
  if (!raw) return bad_cursor();
  std::string_view s = *raw;
  size_t last_dot = s.rfind('.');
  if (last_dot == std::string_view::npos) return bad_cursor();
  std::string_view payload = s.substr(0, last_dot);
  if (!constant_time_equal(s.substr(last_dot + 1), checksum(agent_id, payload)))
    return bad_cursor();
  size_t d1 = payload.find('.');
  if (d1 == std::string_view::npos || payload.substr(0, d1) != kind.name) return bad_cursor();
  size_t d2 = payload.find('.', d1 + 1);
  if (d2 == std::string_view::npos) return bad_cursor();
  std::string_view time = payload.substr(d1 + 1, d2 - d1 - 1);
  std::string_view id = payload.substr(d2 + 1);
  KeysetPosition at;
  auto [end, ec] = std::from_chars(time.data(), time.data() + time.size(), at.time);
  if (ec != std::errc() || end != time.data() + time.size() || at.time < 0) return bad_cursor();
  if (id.size() <= kind.id_prefix.size() || id.size() > 64 ||
      id.substr(0, kind.id_prefix.size()) != kind.id_prefix ||
      !is_base62(id.substr(kind.id_prefix.size()))) {
    return bad_cursor();
  }
  at.id = std::string(id);
  return at;
}

Result<PageQuery> parse_page_query(const Request& req, const ListKind& kind,
                                   std::string_view agent_id) {
  PageQuery q;
  q.limit = kDefaultLimit;
  bool found = false;
  std::string limit = req.query_param("limit", &found);
  if (found) {
    int64_t n = 0;
    auto [end, ec] = std::from_chars(limit.data(), limit.data() + limit.size(), n);
    if (limit.empty() || ec != std::errc() || end != limit.data() + limit.size() || n < 1 ||
        n > kMaxLimit) {
      return ApiError::invalid("'limit' must be an integer from 1 to 100.");
    }
    q.limit = n;
  }
  std::string cursor = req.query_param("cursor", &found);
  if (found) {
    PARLEY_ASSIGN_OR_RETURN(q.after, decode_cursor(cursor, kind, agent_id));
  }
  std::string since = req.query_param("since", &found);
  if (found) {
    // An unencoded '+' of a time-zone offset arrives as a space.
    for (auto& c : since)
      if (c == ' ') c = '+';
    auto ms = parse_timestamp(since);
    if (!ms) {
      return ApiError::invalid(
          "'since' must be an ISO 8601 time such as 2026-01-31T12:00:00.000Z.");
    }
    q.since = *ms;
  }
  return q;
}

}  // namespace parley
