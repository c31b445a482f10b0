#include "views/chat_answer.h"

#include <atomic>
#include <mutex>

#include "domain/chat_runner.h"
#include "http/responses.h"
#include "views/chat_json.h"
#include "views/heartbeats.h"
#include "views/server_events.h"

namespace parley {

namespace {
Response spec_stream_head(const ChatTurn& turn, ChatForm form) {
  Response res;
  if (form == ChatForm::kEvents) {
    res.content_type = "text/event-stream";
    res.header("Cache-Control", "no-cache");
    res.header("X-Accel-Buffering", "no");  // proxies pass each event on as it comes
  } else {
    res.content_type = "text/plain; charset=utf-8";
  }
  res.header("X-Conversation-Id", turn.conversation_id());
  res.header("X-Session-Id", turn.session_id());
  if (turn.known_live_chat()) res.header("X-Live-Chat", *turn.known_live_chat());
  return res;
}

// One answer under way. The text sink, may_store and done run one after another (each hands
// over to the next through a queue), never at once; an event stream's heartbeat runs beside
// them, so in that form they take `mu` around what they send.
struct Answer {
  std::shared_ptr<ChatTurn> turn;
  std::shared_ptr<Responder> out;
  ChatForm form = ChatForm::kJson;
  std::shared_ptr<const ChatAnswerWriter> writer;
  bool begun = false;  // the stream's head was sent
  std::atomic<bool> claimed{false};
  std::mutex mu;
  bool finished = false;
  std::chrono::steady_clock::time_point last_sent = std::chrono::steady_clock::now();

  bool claim() {
    if (!claimed.load()) claimed.store(out->claim());
    return claimed.load();
  }
  // Event stream, under `mu`: the head and the writer's opening (the spec's `meta` event), once;
  // false when another answer (the deadline's 504) went out instead.
  bool begin_events() {
    if (begun) return true;
    if (!claim()) return false;
    out->begin(writer->stream_head(*turn));
    out->write(writer->opening(*turn));
    begun = true;
    return true;
  }
  void send(std::string_view bytes) {
    out->write(bytes);
    last_sent = std::chrono::steady_clock::now();
  }
};

class ResponderPacer final : public ReadPacer {
 public:
  explicit ResponderPacer(std::shared_ptr<Responder> out) : out_(std::move(out)) {}
  bool behind(std::function<void()> resume) override { return out_->behind(std::move(resume)); }

 private:
  std::shared_ptr<Responder> out_;
};

void finish_events(Answer& a, Result<ChatReply> reply) {
  std::unique_lock lock(a.mu);
  a.finished = true;
  if (reply.ok()) {
    a.begin_events();  // no text (a team member has it): the stream is only meta and blocks
    a.send(a.writer->closing(*reply));
    return a.out->end();
  }
  if (a.begun) {
    // The reply failed after it started: the usual error object as an `error` event, and a
    // stream that ends without `done`.
    a.send(a.writer->failure(reply.error()));
    return a.out->end();
  }
  lock.unlock();
  if (a.claim()) a.out->send(a.writer->error(reply.error()));
}

void finish(Answer& a, Result<ChatReply> reply) {
  if (a.form == ChatForm::kEvents) return finish_events(a, std::move(reply));
  if (a.form == ChatForm::kText) {
    if (reply.ok()) {
      if (!a.begun)
        a.out->begin(spec_stream_head(*a.turn, a.form));  // no text (a team member has it)
      return a.out->end();
    }
    if (a.begun) return a.out->abort();
  } else if (reply.ok()) {
    return a.out->send(a.writer->json(*reply));
  }
  if (a.claim()) a.out->send(a.writer->error(reply.error()));
}

// A comment line when the stream has been silent for `interval`; starts the stream when the
// engine has said nothing yet. False once the answer is over.
bool heartbeat(Answer& a, std::chrono::milliseconds interval) {
  std::lock_guard lock(a.mu);
  if (a.finished) return false;
  if (std::chrono::steady_clock::now() - a.last_sent < interval) return true;
  if (!a.begin_events()) return false;
  a.out->write(kKeepAliveLine);
  a.last_sent = std::chrono::steady_clock::now();
  return true;
}
}  // namespace

Response ChatAnswerWriter::error(const ApiError& error) const { return error_response(error); }

Response ChatAnswerWriter::json(const ChatReply& reply) const {
  JsonWriter w;
  write_chat_reply_json(w, reply);
  return json_response(200, w);
}

Response ChatAnswerWriter::stream_head(const ChatTurn& turn) const {
  return spec_stream_head(turn, ChatForm::kEvents);
}

std::string ChatAnswerWriter::opening(const ChatTurn& turn) const {
  JsonWriter meta;
  meta.begin_object();
  meta.key("conversationId").string(turn.conversation_id());
  meta.key("sessionId").string(turn.session_id());
  meta.key("liveChat").string_or_null(turn.known_live_chat());
  meta.end_object();
  return server_event("meta", meta.view());
}

std::string ChatAnswerWriter::text(std::string_view piece) const {
  JsonWriter delta;
  delta.begin_object().key("delta").string(piece).end_object();
  return server_event("text", delta.view());
}

std::string ChatAnswerWriter::closing(const ChatReply& reply) const {
  JsonWriter blocks;
  blocks.begin_object();
  write_reply_block_fields(blocks, reply);
  blocks.end_object();
  return server_event("blocks", blocks.view()) + server_event("done", "{}");
}

std::string ChatAnswerWriter::failure(const ApiError& error) const {
  return server_event("error", error_body(error));
}

ChatForm chat_form(const Request& request, bool stream) {
  if (!stream) return ChatForm::kJson;
  return request.header("Accept").find("text/event-stream") != std::string_view::npos
             ? ChatForm::kEvents
             : ChatForm::kText;
}

namespace {
Response answer(std::shared_ptr<ChatTurn> turn, ThreadPool& pool, const Request& request,
                ChatForm form, std::shared_ptr<const ChatAnswerWriter> writer) {
  const ChatConfig& config = turn->services().config;
  const int64_t timeout_ms = config.timeout_ms;
  const auto heartbeat_every = std::chrono::milliseconds(config.event_stream_heartbeat_ms);
  auto deadline = request.received_at + std::chrono::milliseconds(timeout_ms);
  return Response::later([turn = std::move(turn), &pool, form, deadline, timeout_ms,
                          heartbeat_every,
                          writer = std::move(writer)](std::shared_ptr<Responder> out) {
    out->expire_at(deadline,
                   [timeout_ms, writer] { return writer->error(reply_timeout(timeout_ms)); });
    auto a = std::make_shared<Answer>();
    a->turn = turn;
    a->out = out;
    a->form = form;
    a->writer = writer;
    TurnHandlers h;
    if (form == ChatForm::kText) {
      h.text = [a](std::string_view piece) {
        if (!a->begun) {
          if (!a->claim()) return true;  // answered 504 already: the text goes nowhere
          a->out->begin(spec_stream_head(*a->turn, a->form));
          a->begun = true;
        }
        a->out->write(piece);
        return true;  // a client that left still gets its reply stored, as a JSON one would
      };
    } else if (form == ChatForm::kEvents) {
      h.text = [a](std::string_view piece) {
        std::lock_guard lock(a->mu);
        if (!a->begin_events()) return true;
        a->send(a->writer->text(piece));
        return true;
      };
      std::weak_ptr<Answer> weak = a;
      Heartbeats::instance().add(weak, heartbeat_every.count(), [weak, heartbeat_every] {
        auto answer = weak.lock();
        return answer && heartbeat(*answer, heartbeat_every);
      });
    }
    if (form != ChatForm::kJson) h.pacer = std::make_shared<ResponderPacer>(out);
    h.may_store = [a] { return a->claim(); };
    h.done = [a](Result<ChatReply> reply) { finish(*a, std::move(reply)); };
    run_turn(turn, pool, std::move(h));
  });
}
}  // namespace

Response answer_chat(std::shared_ptr<ChatTurn> turn, ThreadPool& pool, const Request& request,
                     ChatForm form) {
  static const auto spec = std::make_shared<const ChatAnswerWriter>();
  return answer(std::move(turn), pool, request, form, spec);
}

Response answer_chat(std::shared_ptr<ChatTurn> turn, ThreadPool& pool, const Request& request,
                     std::shared_ptr<const ChatAnswerWriter> writer, bool stream) {
  return answer(std::move(turn), pool, request, stream ? ChatForm::kEvents : ChatForm::kJson,
                std::move(writer));
}

}  // namespace parley
