// Runs a prepared chat turn to its end without a thread waiting on it: the engine starts on the
// reply pool (a retrieval reply is computed there; an `openai` reply is started there and then
// waits on the outbound loop as a small state object), the rest of the turn (the hand-off mail)
// runs on the reply pool again, and the exchange is stored through Database::write_then. A run
// whose client was already answered 504 goes on, holding its engine slot (domain/chat_slots.h)
// until the engine returns, and stores nothing. Used by the API's chat endpoint and the widget's
// messages endpoint (views/chat_answer.h). Stateless; safe from many threads.
#pragma once

#include <functional>
#include <memory>

#include "core/clock.h"
#include "core/thread_pool.h"
#include "domain/chat.h"

namespace parley {

struct TurnHandlers {
  TextSink text;                     // each piece of the reply as it is written; may be empty
  std::shared_ptr<ReadPacer> pacer;  // the reader's back-pressure; may be null
  // Asked once, just before the exchange is stored: false when the request was already answered
  // otherwise (504 at its deadline), and then nothing is stored.
  std::function<bool()> may_store;
  // Exactly once, on any thread, with the stored reply or why there is none.
  std::function<void(Result<ChatReply>)> done;
};

void run_turn(std::shared_ptr<ChatTurn> turn, ThreadPool& pool, TurnHandlers handlers);

}  // namespace parley
