#include "views/conversation_export.h"

#include <climits>
#include <cstdio>

#include "core/json.h"
#include "core/time_format.h"

namespace parley {

namespace {
constexpr int64_t kDayMs = 86'400'000;

bool is_date(std::string_view s) { return s.size() == 10 && s[4] == '-' && s[7] == '-'; }

Result<int64_t> time_param(std::string_view name, std::string_view value, bool end) {
  auto ms = parse_timestamp(value);
  if (!ms) {
    return ApiError::invalid("'" + std::string(name) +
                             "' must be a date (YYYY-MM-DD) or an ISO 8601 time.");
  }
  // A day named as `to` is included whole.
  return end && is_date(value) ? *ms + kDayMs : *ms;
}

bool formula_like(std::string_view v) {
  if (v.empty()) return false;
  char c = v[0];
  if (c != '=' && c != '+' && c != '-' && c != '@' && c != '\t' && c != '\r') return false;
  // A number or a phone number is not a formula: [+-]?[\d\s().-]+
  size_t i = (c == '+' || c == '-') ? 1 : 0;
  if (i == v.size()) return true;
  for (; i < v.size(); ++i) {
    char d = v[i];
    if (!((d >= '0' && d <= '9') || d == ' ' || d == '(' || d == ')' || d == '.' || d == '-'))
      return true;
  }
  return false;
}

std::string time_or_empty(std::optional<int64_t> ms) {
  return ms ? format_timestamp(*ms) : std::string();
}

void csv_row(std::string& out, std::initializer_list<std::string_view> fields) {
  bool first = true;
  for (auto f : fields) {
    if (!first) out += ',';
    first = false;
    append_csv_field(out, f);
  }
  out += "\r\n";
}

std::string confidence_text(std::optional<double> v) {
  if (!v) return {};
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", *v);
  return buf;
}

void append_csv(const ExportedConversation& e, std::string& out) {
  const auto& v = e.conversation;
  std::string created = format_timestamp(v.created_at),
              active = format_timestamp(v.last_activity_at);
  std::string handoff = time_or_empty(v.handoff_requested_at);
  std::string csat = v.csat_score ? std::to_string(*v.csat_score) : std::string();
  auto row = [&](const ExportedMessage* m) {
    std::string seq, at, confidence, rated;
    if (m) {
      seq = std::to_string(m->message.seq);
      at = format_timestamp(m->message.created_at);
      confidence = confidence_text(m->confidence);
      rated = time_or_empty(m->rated_at);
    }
    auto opt = [](const std::optional<std::string>& s) {
      return s ? std::string_view(*s) : std::string_view();
    };
    csv_row(out, {v.id,
                  v.channel,
                  created,
                  active,
                  opt(e.contact_id),
                  opt(v.visitor_id),
                  opt(v.country),
                  opt(v.page),
                  v.topics,
                  opt(v.sentiment),
                  handoff,
                  opt(v.live_chat_status),
                  csat,
                  opt(v.csat_comment),
                  m ? std::string_view(m->message.id) : "",
                  seq,
                  m ? std::string_view(m->message.role) : "",
                  m ? opt(m->message.author_name) : "",
                  m ? std::string_view(m->message.content) : "",
                  at,
                  m ? opt(m->outcome) : "",
                  confidence,
                  m ? opt(m->rating) : "",
                  rated,
                  m ? std::string_view(m->message.sources) : ""});
  };
  if (e.messages.empty()) row(nullptr);
  for (const auto& m : e.messages) row(&m);
}

void append_json_line(const ExportedConversation& e, std::string& out) {
  const auto& v = e.conversation;
  JsonWriter w;
  w.begin_object();
  w.key("id").string(v.id);
  w.key("channel").string(v.channel);
  w.key("createdAt").timestamp(v.created_at);
  w.key("lastActivityAt").timestamp(v.last_activity_at);
  w.key("contactId").string_or_null(e.contact_id);
  w.key("visitorId").string_or_null(v.visitor_id);
  w.key("country").string_or_null(v.country);
  w.key("page").string_or_null(v.page);
  w.key("topics").raw(v.topics);
  w.key("sentiment").string_or_null(v.sentiment);
  w.key("handoffRequestedAt").timestamp_or_null(v.handoff_requested_at);
  w.key("liveChatStatus").string_or_null(v.live_chat_status);
  w.key("csat");
  if (v.csat_score) {
    w.begin_object();
    w.key("score").integer(*v.csat_score);
    w.key("comment").string_or_null(v.csat_comment);
    w.key("ratedAt").timestamp_or_null(v.csat_rated_at);
    w.end_object();
  } else {
    w.null();
  }
  w.key("messageCount").integer(static_cast<int64_t>(e.messages.size()));
  w.key("messages").begin_array();
  for (const auto& m : e.messages) {
    w.begin_object();
    w.key("id").string(m.message.id);
    w.key("seq").integer(m.message.seq);
    w.key("role").string(m.message.role);
    w.key("content").string(m.message.content);
    w.key("authorName").string_or_null(m.message.author_name);
    w.key("sources").raw(m.message.sources);
    w.key("createdAt").timestamp(m.message.created_at);
    w.key("outcome").string_or_null(m.outcome);
    w.key("confidence");
    if (m.confidence)
      w.number(*m.confidence);
    else
      w.null();
    w.key("rating").string_or_null(m.rating);
    w.key("ratedAt").timestamp_or_null(m.rated_at);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  out += w.view();
  out += '\n';
}
}  // namespace

Result<ExportRequest> parse_export_request(std::optional<std::string_view> format,
                                           std::optional<std::string_view> from,
                                           std::optional<std::string_view> to) {
  ExportRequest r;
  if (!format || *format == "jsonl") {
    r.format = ExportFormat::kJsonLines;
  } else if (*format == "csv") {
    r.format = ExportFormat::kCsv;
  } else {
    return ApiError::invalid("'format' must be csv or jsonl.");
  }
  if (from) {
    PARLEY_ASSIGN_OR_RETURN(r.from_ms, time_param("from", *from, false));
  }
  if (to) {
    PARLEY_ASSIGN_OR_RETURN(r.to_ms, time_param("to", *to, true));
  }
  if (r.from_ms >= r.to_ms) return ApiError::invalid("'from' must be before 'to'.");
  return r;
}

std::string_view export_content_type(ExportFormat f) {
  return f == ExportFormat::kCsv ? "text/csv; charset=utf-8" : "application/x-ndjson";
}

std::string_view export_extension(ExportFormat f) {
  return f == ExportFormat::kCsv ? "csv" : "jsonl";
}

std::string export_header(ExportFormat f) {
  if (f != ExportFormat::kCsv) return {};
  std::string out;
  csv_row(out, {"conversationId",
                "channel",
                "createdAt",
                "lastActivityAt",
                "contactId",
                "visitorId",
                "country",
                "page",
                "topics",
                "sentiment",
                "handoffRequestedAt",
                "liveChatStatus",
                "csatScore",
                "csatComment",
                "messageId",
                "seq",
                "role",
                "authorName",
                "content",
                "messageCreatedAt",
                "outcome",
                "confidence",
                "rating",
                "ratedAt",
                "sources"});
  return out;
}

void append_export(ExportFormat f, const std::vector<ExportedConversation>& batch,
                   std::string& out) {
  for (const auto& e : batch) {
    if (f == ExportFormat::kCsv)
      append_csv(e, out);
    else
      append_json_line(e, out);
  }
}

void append_csv_field(std::string& out, std::string_view value) {
  bool apostrophe = formula_like(value);
  bool quote = value.find_first_of(",\"\r\n") != std::string_view::npos;
  if (quote) out += '"';
  if (apostrophe) out += '\'';
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  if (quote) out += '"';
}

}  // namespace parley
