// Answers a prepared chat turn through the server's Responder (http/message.h), with no thread
// waiting while the engine writes: as the JSON reply, as a chunked text/plain stream written as
// the engine writes it, or as server-sent events: `meta` (conversationId, sessionId, liveChat),
// `text` ({"delta"}) as written, `blocks` (the JSON reply's sources, followUps, buttons, products,
// form, leadForm, booking, liveChat) and `done`; `error` (the usual error object) instead when
// the reply fails after the stream started; a comment line when the stream has been silent for
// the heartbeat interval (15 s), which also starts the stream when the engine has said nothing
// yet. Shared by the API's chat endpoint and the widget's messages endpoint, and (with a
// ChatAnswerWriter of its own) by the OpenAI-compatible front.
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

// How a JSON reply, an event stream and errors are written: the spec's (the default below) or
// another protocol's (the OpenAI-compatible front's chunks, api/openai_answer.h). The machinery
// (claiming the answer, the deadline, heartbeats, back-pressure, storing) stays here. Each method
// is called from whichever thread the turn is on, one at a time; implementations are immutable.
class ChatAnswerWriter {
 public:
  virtual ~ChatAnswerWriter() = default;
  // A whole error response: before a stream began, for a JSON request, and at the deadline.
  virtual Response error(const ApiError& error) const;
  // The JSON reply of a non-streamed request.
  virtual Response json(const ChatReply& reply) const;
  // An event stream's status line and headers (content type, X-Conversation-Id, ...).
  virtual Response stream_head(const ChatTurn& turn) const;
  // The stream's bytes: once after the head, then one piece of text as the engine writes it, then
  // the end of a stored reply, or a failure after the stream began.
  virtual std::string opening(const ChatTurn& turn) const;
  virtual std::string text(std::string_view piece) const;
  virtual std::string closing(const ChatReply& reply) const;
  virtual std::string failure(const ApiError& error) const;
};

Response answer_chat(std::shared_ptr<ChatTurn> turn, ThreadPool& pool, const Request& request,
                     ChatForm form);
// The same in `writer`'s protocol: JSON, or with `stream` an event stream (never plain text).
Response answer_chat(std::shared_ptr<ChatTurn> turn, ThreadPool& pool, const Request& request,
                     std::shared_ptr<const ChatAnswerWriter> writer, bool stream);

}  // namespace parley
