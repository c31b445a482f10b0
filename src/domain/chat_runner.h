// Runs a prepared chat turn's engine on the reply pool, never on the thread that handles the
// request, and waits for it at most until the turn's deadline (504 timeout after it). A run its
// client stopped waiting for goes on in the pool, holding its engine slot (domain/chat_slots.h)
// until the engine returns. Used by the API's chat endpoint and the widget's messages endpoint.
// Stateless; safe from many threads.
#pragma once

#include <memory>

#include "core/clock.h"
#include "core/thread_pool.h"
#include "domain/chat.h"

namespace parley {

// run() on `pool` within the deadline, then commit() on the calling thread.
Result<ChatReply> reply_within_deadline(std::shared_ptr<ChatTurn> turn, const Clock& clock,
                                        ThreadPool& pool);

// A whole JSON (not streamed) reply: prepares the turn (ChatTurn::prepare's checks and errors),
// then reply_within_deadline on `pool`.
Result<ChatReply> reply_to_message(ChatServices& s, std::string_view account_id, const ChatRequest& r,
                                   ThreadPool& pool);

}  // namespace parley
