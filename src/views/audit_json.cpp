#include "views/audit_json.h"

#include "core/time_format.h"

namespace parley {

namespace {
constexpr int64_t kDefaultLimit = 50;

// An ISO 8601 time, or a day (YYYY-MM-DD: its start, or for `to` the start of the next day, so
// that to=2026-11-26 keeps that whole day).
Result<int64_t> parse_bound(const std::string& text, std::string_view name, bool end_of_day) {
  if (text.size() == 10) {
    auto day = parse_timestamp(text + "T00:00:00.000Z");
    if (day) return *day + (end_of_day ? 86'400'000 : 0);
  }
  std::string t = text;
  for (auto& c : t)
    if (c == ' ') c = '+';  // an unencoded '+' of an offset
  auto ms = parse_timestamp(t);
  if (!ms) {
    return ApiError::invalid("'" + std::string(name) +
                             "' must be a day (2026-01-31) or an ISO 8601 time such as "
                             "2026-01-31T12:00:00.000Z.");
  }
  return *ms;
}

Result<std::optional<std::string>> text_param(const Request& req, std::string_view name) {
  bool found = false;
  std::string v = req.query_param(name, &found);
  if (!found) return std::optional<std::string>();
  if (v.empty() || v.size() > 200) {
    return ApiError::invalid("'" + std::string(name) + "' must be 1 to 200 characters.");
  }
  return std::optional<std::string>(std::move(v));
}
}  // namespace

void write_audit_entry_json(JsonWriter& w, const AuditRecord& e) {
  w.begin_object();
  w.key("id").string(e.id);
  w.key("seq").integer(e.seq);
  w.key("createdAt").timestamp(e.created_at);
  w.key("actor").begin_object();
  w.key("type").string(e.actor_type);
  w.key("id").string_or_null(e.actor_id);
  w.key("name").string(e.actor_name);
  w.end_object();
  w.key("address").string_or_null(e.address);
  w.key("action").string(e.action);
  w.key("target").begin_object();
  w.key("type").string(e.target_type);
  w.key("id").string_or_null(e.target_id);
  w.end_object();
  w.key("changes").raw(e.changes);
  w.key("details");
  if (e.details) {
    w.raw(*e.details);
  } else {
    w.null();
  }
  w.key("prevHash").string(e.prev_hash);
  w.key("hash").string(e.hash);
  w.end_object();
}

std::string audit_page_json(std::vector<AuditRecord> rows, int64_t limit,
                            std::string_view account_id) {
  Page<AuditRecord> page;
  page.has_more = static_cast<int64_t>(rows.size()) > limit;
  if (page.has_more) rows.resize(static_cast<size_t>(limit));
  page.items = std::move(rows);
  return page_json<AuditRecord>(page, kAuditList, account_id, write_audit_entry_json,
                                [](const AuditRecord& e) {
                                  return KeysetPosition{e.seq, e.id};
                                });
}

std::string audit_verdict_json(const AuditVerdict& v) {
  JsonWriter w;
  w.begin_object();
  w.key("ok").boolean(v.ok);
  w.key("chains").integer(v.chains);
  w.key("entries").integer(v.entries);
  if (!v.ok) {
    w.key("accountId").string(v.account_id);
    w.key("seq").integer(v.seq);
    w.key("entryId").string_or_null(v.entry_id);
    w.key("problem").string(v.problem);
    w.key("message").string(v.message);
  }
  w.end_object();
  return w.str();
}

Result<AuditFilter> parse_audit_filter(const Request& req, std::string_view account_id) {
  AuditFilter f;
  f.account_id = std::string(account_id);
  PARLEY_ASSIGN_OR_RETURN(auto page, parse_page_query(req, kAuditList, account_id));
  bool limit_given = false;
  (void)req.query_param("limit", &limit_given);
  f.limit = limit_given ? page.limit : kDefaultLimit;
  if (page.after) f.before_seq = page.after->time;
  PARLEY_ASSIGN_OR_RETURN(f.actor_id, text_param(req, "actor"));
  PARLEY_ASSIGN_OR_RETURN(f.action, text_param(req, "action"));
  PARLEY_ASSIGN_OR_RETURN(f.target_type, text_param(req, "targetType"));
  PARLEY_ASSIGN_OR_RETURN(f.target_id, text_param(req, "targetId"));
  bool found = false;
  std::string from = req.query_param("from", &found);
  if (found) {
    PARLEY_ASSIGN_OR_RETURN(f.from, parse_bound(from, "from", false));
  }
  std::string to = req.query_param("to", &found);
  if (found) {
    PARLEY_ASSIGN_OR_RETURN(f.to, parse_bound(to, "to", true));
  }
  if (f.from && f.to && *f.from >= *f.to) {
    return ApiError::invalid("'from' must be before 'to'.");
  }
  return f;
}

}  // namespace parley
