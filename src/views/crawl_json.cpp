#include "views/crawl_json.h"

namespace parley {

namespace {
void write_patterns(JsonWriter& w, const std::vector<std::string>& patterns) {
  w.begin_array();
  for (const auto& p : patterns) w.string(p);
  w.end_array();
}
}  // namespace

void write_crawl_json(JsonWriter& w, const CrawlRecord& x) {
  w.begin_object();
  w.key("id").string(x.id);
  w.key("agentId").string(x.agent_id);
  w.key("kind").string(x.kind);
  w.key("url").string_or_null(x.url);
  w.key("status").string(x.status);
  w.key("maxPages").integer(x.max_pages);
  w.key("maxDepth").integer(x.max_depth);
  w.key("include");
  write_patterns(w, x.include);
  w.key("exclude");
  write_patterns(w, x.exclude);
  const CrawlProgress& p = x.progress;
  w.key("progress").begin_object();
  w.key("found").integer(p.found);
  w.key("fetched").integer(p.fetched);
  w.key("skipped").integer(p.skipped);
  w.key("failed").integer(p.failed);
  w.key("unchanged").integer(p.unchanged);
  w.key("removed").integer(p.removed);
  w.key("characters").integer(p.characters);
  w.end_object();
  w.key("error");
  if (x.error_code) {
    w.begin_object().key("code").string(*x.error_code);
    w.key("message").string(x.error_message.value_or("")).end_object();
  } else {
    w.null();
  }
  w.key("createdAt").timestamp(x.created_at);
  w.key("updatedAt").timestamp(x.updated_at);
  w.key("finishedAt").timestamp_or_null(x.finished_at);
  w.end_object();
}

std::string crawl_data_json(const CrawlRecord& x) {
  JsonWriter w;
  w.begin_object().key("data");
  write_crawl_json(w, x);
  w.end_object();
  return w.str();
}

}  // namespace parley
