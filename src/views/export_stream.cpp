#include "views/export_stream.h"

#include <memory>

#include "core/log.h"

namespace parley {

namespace {
constexpr int64_t kBatch = 200;     // conversations per read
constexpr int kBatchesPerTurn = 8;  // then the task yields its thread to others

struct ExportStream : std::enable_shared_from_this<ExportStream> {
  Database& db;
  ThreadPool& pool;
  std::string agent_id;
  ExportRequest request;
  ExportKey after;
  std::shared_ptr<Responder> out;

  ExportStream(Database& d, ThreadPool& p, std::string agent, ExportRequest r,
               std::shared_ptr<Responder> o)
      : db(d), pool(p), agent_id(std::move(agent)), request(r), out(std::move(o)) {
    after.created_at = request.from_ms;
  }

  void schedule() {
    pool.post([self = shared_from_this()] { self->pump(); });
  }

  // Reads and writes batches until the export ends, the client falls behind or leaves, or this
  // turn's share is used.
  void pump() {
    std::string text;
    for (int turn = 0; turn < kBatchesPerTurn; ++turn) {
      auto batch = read_batch();
      if (!batch.ok()) {
        log_warn("export cut short", {{"agent", std::string_view(agent_id)},
                                      {"error", std::string_view(batch.error().message)}});
        out->abort();
        return;
      }
      text.clear();
      append_export(request.format, *batch, text);
      if (!text.empty() && !out->write(text)) return;  // the client left
      if (static_cast<int64_t>(batch->size()) < kBatch) {
        out->end();
        return;
      }
      after.created_at = batch->back().conversation.created_at;
      after.id = batch->back().conversation.id;
      if (out->behind([self = shared_from_this()] { self->schedule(); })) return;
    }
    schedule();
  }

  Result<std::vector<ExportedConversation>> read_batch() {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, db.read());
    return ExportQueries::batch(c, agent_id, after, request.to_ms, kBatch);
  }
};
}  // namespace

Response export_stream_response(Database& db, ThreadPool& pool, std::string agent_id,
                                ExportRequest request, std::string filename) {
  return Response::later([&db, &pool, agent_id = std::move(agent_id), request,
                          filename = std::move(filename)](std::shared_ptr<Responder> out) mutable {
    if (!out->claim()) return;
    Response head;
    head.status = 200;
    head.content_type = export_content_type(request.format);
    head.header("Content-Disposition", "attachment; filename=\"" + filename + "\"");
    head.header("Cache-Control", "no-store");
    out->begin(std::move(head));
    std::string first = export_header(request.format);
    if (!first.empty() && !out->write(first)) return;
    std::make_shared<ExportStream>(db, pool, std::move(agent_id), request, std::move(out))
        ->schedule();
  });
}

}  // namespace parley
