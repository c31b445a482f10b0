#include "views/gap_json.h"

#include "views/source_json.h"

namespace parley {

namespace {
void write_group_fields(JsonWriter& w, const GapGroupView& g) {
  w.key("id").string(g.group.id);
  w.key("agentId").string(g.group.agent_id);
  w.key("question").string(g.question);
  w.key("count").integer(g.count);
  w.key("channels").begin_array();
  for (const auto& ch : g.channels) w.string(ch);
  w.end_array();
  w.key("firstAskedAt").timestamp(g.first_asked_at);
  w.key("lastAskedAt").timestamp(g.last_asked_at);
  w.key("resolved").boolean(g.group.resolved_at.has_value());
  w.key("resolvedAt").timestamp_or_null(g.group.resolved_at);
  w.key("answerSourceId").string_or_null(g.group.answer_source_id);
}
}  // namespace

void write_gap_group_json(JsonWriter& w, const GapGroupView& g) {
  w.begin_object();
  write_group_fields(w, g);
  w.end_object();
}

void write_gap_detail_json(JsonWriter& w, const GapDetail& d) {
  w.begin_object();
  write_group_fields(w, d.group);
  w.key("conversations").begin_array();
  for (const auto& q : d.questions) {
    w.begin_object();
    w.key("conversationId").string(q.gap.conversation_id);
    w.key("messageId").string(q.gap.message_id);
    w.key("question").string(q.question);
    w.key("channel").string(q.gap.channel);
    w.key("reason").string(q.gap.reason);
    w.key("askedAt").timestamp(q.gap.asked_at);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void write_gap_answered_json(JsonWriter& w, const GapAnswered& a) {
  w.begin_object().key("data");
  write_source_json(w, a.added.source);
  w.key("result").string(outcome_name(a.added.outcome));
  w.key("training");
  write_training_json(w, a.added.training);
  w.key("gap");
  if (a.gap)
    write_gap_detail_json(w, *a.gap);
  else
    w.null();
  w.end_object();
}

}  // namespace parley
