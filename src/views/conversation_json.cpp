#include "views/conversation_json.h"

#include <cmath>

#include <rapidjson/document.h>

#include "domain/widget_identity.h"

namespace parley {

namespace {
// Stored JSON arrays are written as they are; anything unreadable becomes an empty array rather
// than a broken response.
void write_array(JsonWriter& w, const std::string& json) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError() || !doc.IsArray()) {
    w.begin_array().end_array();
    return;
  }
  w.value(doc);
}

void write_common(JsonWriter& w, const ConversationRecord& c) {
  w.key("sessionId").string(c.session_id);
  w.key("channel").string(c.channel);
  w.key("createdAt").timestamp(c.created_at);
  w.key("lastActivityAt").timestamp(c.last_activity_at);
  w.key("country").string_or_null(c.country);
  w.key("page").string_or_null(c.page);
}
}  // namespace

namespace {
void write_summary_fields(JsonWriter& w, const ConversationRecord& c) {
  w.key("id").string(c.id);
  write_common(w, c);
  w.key("messageCount").integer(c.message_count);
  w.key("topics");
  write_array(w, c.topics);
  w.key("sentiment").string_or_null(c.sentiment);
  w.key("liveChat").string_or_null(c.live_chat_status);
  w.key("csatScore");
  if (c.csat_score)
    w.integer(*c.csat_score);
  else
    w.null();
}
}  // namespace

void write_conversation_summary_json(JsonWriter& w, const ConversationRecord& c) {
  w.begin_object();
  write_summary_fields(w, c);
  w.end_object();
}

void write_inbox_row_json(JsonWriter& w, const InboxRow& row) {
  w.begin_object();
  write_summary_fields(w, row.conversation);
  w.key("visitor");
  if (row.visitor_name || row.visitor_email) {
    w.begin_object();
    w.key("name").string_or_null(row.visitor_name);
    w.key("email").string_or_null(row.visitor_email);
    w.end_object();
  } else {
    w.null();
  }
  w.key("preview").string_or_null(row.preview);
  w.key("badges").begin_object();
  w.key("unanswered").boolean(row.unanswered);
  w.key("handedOff").boolean(row.handed_off);
  w.key("ratedLow").boolean(row.rated_low);
  w.end_object();
  w.end_object();
}

void write_message_json(JsonWriter& w, const MessageRecord& m) {
  w.begin_object();
  w.key("id").string(m.id);
  w.key("role").string(m.role);
  w.key("content").string(m.content);
  w.key("createdAt").timestamp(m.created_at);
  w.key("authorName").string_or_null(m.author_name);
  w.key("sources");
  write_array(w, m.sources);
  // The support loop's: how an agent reply came about and the visitor's thumbs on it.
  w.key("outcome").string_or_null(m.outcome);
  w.key("confidence");
  if (m.confidence)
    w.number(std::round(*m.confidence * 1000) / 1000);
  else
    w.null();
  w.key("rating").string_or_null(m.rating);
  w.key("ratedAt").timestamp_or_null(m.rated_at);
  w.end_object();
}

void write_identity_json(JsonWriter& w, const ConversationRecord& c) {
  w.begin_object();
  w.key("status").string(c.identity_status.value_or(std::string(kIdentityAnonymous)));
  w.key("externalId").string_or_null(c.identity_external_id);
  w.key("contactId").string_or_null(c.contact_id);
  w.end_object();
}

void write_conversation_json(JsonWriter& w, const ConversationWithMessages& cm) {
  const ConversationRecord& c = cm.conversation;
  w.begin_object();
  w.key("id").string(c.id);
  w.key("agentId").string(c.agent_id);
  write_common(w, c);
  w.key("topics");
  write_array(w, c.topics);
  w.key("sentiment").string_or_null(c.sentiment);
  w.key("handoffRequestedAt").timestamp_or_null(c.handoff_requested_at);
  w.key("liveChat");
  if (c.live_chat_status) {
    w.begin_object();
    w.key("status").string(*c.live_chat_status);
    w.key("startedAt").timestamp_or_null(c.live_chat_started_at);
    w.key("endedAt").timestamp_or_null(c.live_chat_ended_at);
    w.end_object();
  } else {
    w.null();
  }
  w.key("csat");
  if (c.csat_score) {
    w.begin_object();
    w.key("score").integer(*c.csat_score);
    w.key("comment").string_or_null(c.csat_comment);
    w.key("ratedAt").timestamp_or_null(c.csat_rated_at);
    w.end_object();
  } else {
    w.null();
  }
  w.key("identity");
  write_identity_json(w, c);
  w.key("messages").begin_array();
  for (const auto& m : cm.messages) write_message_json(w, m);
  w.end_array();
  w.end_object();
}

}  // namespace parley
