#include "domain/chat_runner.h"

#include "net/outbound.h"

namespace parley {

namespace {
// Stores the exchange unless the request was answered otherwise meanwhile.
void store(const std::shared_ptr<ChatTurn>& turn, Database& db, const std::shared_ptr<TurnHandlers>& h) {
  if (h->may_store && !h->may_store()) return h->done(reply_timeout(turn->services().config.timeout_ms));
  auto work = turn->commit_work();
  if (!work.ok()) return h->done(work.error());
  db.write_then(std::move(work).value(), [turn, h](Result<void> stored) {
    if (!stored.ok()) {
      turn->failed();
      return h->done(stored.error());
    }
    turn->committed();
    h->done(turn->reply());
  });
}
}  // namespace

void run_turn(std::shared_ptr<ChatTurn> turn, ThreadPool& pool, TurnHandlers handlers) {
  auto h = std::make_shared<TurnHandlers>(std::move(handlers));
  Database& db = turn->services().db;
  if (turn->paused()) return store(turn, db, h);
  pool.post([turn, h, &pool, &db] {
    TextSink text = h->text ? h->text : TextSink([](std::string_view) { return true; });
    turn->start_engine(std::move(text), h->pacer, [turn, h, &pool, &db](Result<ReplyBlocks> blocks) {
      auto finish = [turn, h, &db, blocks = std::move(blocks)]() mutable {
        auto ran = turn->finish_run(std::move(blocks));
        if (!ran.ok()) return h->done(ran.error());
        store(turn, db, h);
      };
      // The hand-off mail may block: never on the outbound loop. An engine that answered on
      // this pool thread goes on here, ahead of the replies waiting to start.
      if (on_outbound_loop()) return pool.post(std::move(finish));
      finish();
    });
  });
}

}  // namespace parley
