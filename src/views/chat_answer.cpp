#include "views/chat_answer.h"

#include <atomic>

#include "domain/chat_runner.h"
#include "http/responses.h"
#include "views/chat_json.h"

namespace parley {

namespace {
Response stream_head(const ChatTurn& turn) {
  Response res;
  res.content_type = "text/plain; charset=utf-8";
  res.header("X-Conversation-Id", turn.conversation_id());
  res.header("X-Session-Id", turn.session_id());
  if (turn.known_live_chat()) res.header("X-Live-Chat", *turn.known_live_chat());
  return res;
}

// One answer under way. The text sink, may_store and done run one after another (each hands
// over to the next through a queue), never at once.
struct Answer {
  std::shared_ptr<ChatTurn> turn;
  std::shared_ptr<Responder> out;
  bool stream = false;
  bool begun = false;  // the stream's head was sent
  std::atomic<bool> claimed{false};

  bool claim() {
    if (!claimed.load()) claimed.store(out->claim());
    return claimed.load();
  }
};

class ResponderPacer final : public ReadPacer {
 public:
  explicit ResponderPacer(std::shared_ptr<Responder> out) : out_(std::move(out)) {}
  bool behind(std::function<void()> resume) override { return out_->behind(std::move(resume)); }

 private:
  std::shared_ptr<Responder> out_;
};

void finish(Answer& a, Result<ChatReply> reply) {
  if (a.stream) {
    if (reply.ok()) {
      if (!a.begun) a.out->begin(stream_head(*a.turn));  // no text (a team member has it)
      return a.out->end();
    }
    if (a.begun) return a.out->abort();
  } else if (reply.ok()) {
    JsonWriter w;
    write_chat_reply_json(w, *reply);
    return a.out->send(json_response(200, w));
  }
  if (a.claim()) a.out->send(error_response(reply.error()));
}
}  // namespace

Response answer_chat(std::shared_ptr<ChatTurn> turn, ThreadPool& pool, const Request& request,
                     bool stream) {
  const int64_t timeout_ms = turn->services().config.timeout_ms;
  auto deadline = request.received_at + std::chrono::milliseconds(timeout_ms);
  return Response::later([turn = std::move(turn), &pool, stream, deadline, timeout_ms](std::shared_ptr<Responder> out) {
    out->expire_at(deadline, [timeout_ms] { return error_response(reply_timeout(timeout_ms)); });
    auto a = std::make_shared<Answer>();
    a->turn = turn;
    a->out = out;
    a->stream = stream;
    TurnHandlers h;
    if (stream) {
      h.text = [a](std::string_view piece) {
        if (!a->begun) {
          if (!a->claim()) return true;  // answered 504 already: the text goes nowhere
          a->out->begin(stream_head(*a->turn));
          a->begun = true;
        }
        a->out->write(piece);
        return true;  // a client that left still gets its reply stored, as a JSON one would
      };
      h.pacer = std::make_shared<ResponderPacer>(out);
    }
    h.may_store = [a] { return a->claim(); };
    h.done = [a](Result<ChatReply> reply) { finish(*a, std::move(reply)); };
    run_turn(turn, pool, std::move(h));
  });
}

}  // namespace parley
