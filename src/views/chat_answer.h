// Answers a prepared chat turn through the server's Responder (http/message.h), with no thread
// waiting while the engine writes: as the JSON reply, as a chunked text/plain stream written as
// the engine writes it, or as server-sent events: `meta` (conversationId, sessionId, liveChat),
// `text` ({"delta"}) as written, `blocks` (the JSON reply's sources, followUps, buttons, products,
// form, leadForm, booking, liveChat) and `done`; `error` (the usual error object) instead when
// the reply fails after the stream started; a comment line when the stream has been silent for
// the heartbeat interval (15 s), which also starts the stream when the engine has said nothing
// yet. Shared by the API's chat endpoint and the widget's messages endpoint.
//
// A stream's head goes out with its first piece, so an error or the deadline coming before any
// text is still a JSON response with its status. The exchange is stored once the engine has
// finished, before the last chunk; a failure after text was sent cuts the stream short (no
// terminating chunk) and nothing is stored. When nothing was sent by the turn's deadline,
// counted from the request's arrival, the answer is 504 `timeout` and the turn stores nothing.
#pragma once

#include <memory>

#include "core/thread_pool.h"
#include "domain/chat.h"
#include "http/message.h"

namespace parley {

enum class ChatForm {
  kJson,    // the chat reply object
  kText,    // stream: true — the reply's text, chunked text/plain
  kEvents,  // stream: true with Accept: text/event-stream — server-sent events
};

// The form a chat request asks for: JSON unless `stream`; then server-sent events when its Accept
// header names text/event-stream, else the plain-text stream.
ChatForm chat_form(const Request& request, bool stream);

Response answer_chat(std::shared_ptr<ChatTurn> turn, ThreadPool& pool, const Request& request, ChatForm form);

}  // namespace parley
