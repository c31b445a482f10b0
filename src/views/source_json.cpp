#include "views/source_json.h"

namespace parley {

void write_source_json(JsonWriter& w, const SourceRecord& s) {
  w.begin_object();
  w.key("id").string(s.id);
  w.key("type").string(s.type);
  w.key("title").string_or_null(s.title);
  w.key("url").string_or_null(s.url);
  w.key("filename").string_or_null(s.filename);
  if (s.type == "qa") {
    w.key("question").string(s.question.value_or(""));
    w.key("answer").string(s.answer.value_or(""));
  }
  w.key("characters").integer(s.characters);
  w.key("status").string(s.status);
  w.key("error").string_or_null(s.error);
  w.key("trainedAt").timestamp_or_null(s.trained_at);
  w.key("createdAt").timestamp(s.created_at);
  w.key("updatedAt").timestamp(s.updated_at);
  w.end_object();
}

void write_training_json(JsonWriter& w, const SourceCounts& c) {
  w.begin_object();
  w.key("total").integer(c.total());
  w.key("trained").integer(c.trained);
  w.key("pending").integer(c.pending);
  w.key("processing").integer(c.processing);
  w.key("failed").integer(c.failed);
  w.key("done").boolean(c.pending + c.processing == 0);
  w.end_object();
}

}  // namespace parley
