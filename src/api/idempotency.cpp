#include "api/idempotency.h"

#include <array>
#include <mutex>
#include <string>
#include <utility>

#include <rapidjson/document.h>

#include "core/crypto.h"
#include "core/json.h"
#include "core/log.h"
#include "http/responses.h"
#include "store/idempotency_repo.h"

namespace parley {

namespace {
constexpr int64_t kKeptMs = 24 * 3'600'000LL;
// How long a node may run the first request before a repeat may take the key over (its node died):
// longer than any request runs (a chat reply ends at 55 seconds).
constexpr int64_t kLockMs = 120'000;
constexpr size_t kMaxKeyLength = 255;

// What a replay may carry beyond status and body. Response header names must outlive the
// response: these literals are what a kept name is matched to.
constexpr std::array<std::string_view, 5> kReplayedHeaders = {"X-Conversation-Id", "X-Session-Id", "X-Live-Chat",
                                                               "Location", "Cache-Control"};
constexpr std::array<std::string_view, 3> kContentTypes = {"application/json", "text/plain; charset=utf-8",
                                                           "text/event-stream"};

bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

std::optional<std::string_view> known_content_type(std::string_view type) {
  for (auto t : kContentTypes) {
    if (t == type) return t;
  }
  return std::nullopt;
}

// 429 (retry after) and any 5xx say "try again": a retry must run.
bool keeps(int status) { return status < 500 && status != 429; }

}  // namespace

struct IdempotencyTicket {
  Database& db;
  std::string account_id;
  std::string key;
  std::string fingerprint;

  // The answer to keep, or nothing when it is not kept (the key is released instead).
  std::optional<KeptAnswer> answer_of(const Response& head, std::string body) const {
    auto type = known_content_type(head.content_type);
    if (!keeps(head.status) || !type) return std::nullopt;
    JsonWriter w;
    w.begin_object();
    for (const auto& [name, value] : head.headers) {
      for (auto replayed : kReplayedHeaders) {
        if (same_name(name, replayed)) w.key(replayed).string(value);
      }
    }
    w.end_object();
    return KeptAnswer{head.status, std::string(*type), w.str(), std::move(body)};
  }
  WriteFn settle_fn(std::optional<KeptAnswer> answer) const {
    // Copies: an asynchronous write may run after the ticket is gone.
    return [account_id = account_id, key = key, fingerprint = fingerprint,
            answer = std::move(answer)](Connection& c) -> Result<void> {
      if (answer) return IdempotencyRepo::keep(c, account_id, key, fingerprint, *answer);
      return IdempotencyRepo::release(c, account_id, key, fingerprint);
    };
  }
  // On a thread that may wait (a pool thread): keeps or releases, durably, before returning.
  void settle(const Response& head, std::string body) const {
    auto done = db.write(settle_fn(answer_of(head, std::move(body))));
    if (!done.ok()) log_warn("idempotent answer not kept", {{"error", std::string_view(done.error().message)}});
  }
  // On any thread, without waiting: keeps or releases, then runs `then` (which must not block)
  // once that is durable, so a client told the answer finds it kept.
  void settle_then(const Response& head, std::string body, std::function<void()> then) const {
    db.write_then(settle_fn(answer_of(head, std::move(body))), [then = std::move(then)](Result<void> done) {
      if (!done.ok()) log_warn("idempotent answer not kept", {{"error", std::string_view(done.error().message)}});
      then();
    });
  }
  void release_async() const { db.write_async(settle_fn(std::nullopt)); }
};

namespace {

Response replay(const KeptAnswer& a) {
  Response r;
  r.status = a.status;
  r.content_type = known_content_type(a.content_type).value_or(kContentTypes[0]);
  r.body = a.body;
  rapidjson::Document headers;
  headers.Parse(a.headers.data(), a.headers.size());
  if (!headers.HasParseError() && headers.IsObject()) {
    for (auto replayed : kReplayedHeaders) {
      auto it = headers.FindMember(rapidjson::Value(replayed.data(), static_cast<rapidjson::SizeType>(replayed.size())));
      if (it != headers.MemberEnd() && it->value.IsString()) r.header(replayed, it->value.GetString());
    }
  }
  r.header("Idempotent-Replayed", "true");
  return r;
}

// The first outcome of a deferred answer, kept or released once.
class Settlement {
 public:
  explicit Settlement(std::shared_ptr<const IdempotencyTicket> ticket) : ticket_(std::move(ticket)) {}
  // Keeps the answer, then runs `then`; only the first outcome counts (then `then` runs at once).
  void keep_then(const Response& head, std::string body, std::function<void()> then) {
    if (first()) ticket_->settle_then(head, std::move(body), std::move(then));
    else then();
  }
  void release() {
    if (first()) ticket_->release_async();
  }

 private:
  bool first() {
    std::lock_guard lock(mu_);
    return !std::exchange(settled_, true);
  }
  std::shared_ptr<const IdempotencyTicket> ticket_;
  std::mutex mu_;
  bool settled_ = false;
};

// Passes everything to the connection's Responder and keeps what was answered once the answer
// is complete: a whole response, or a streamed one ended normally; the whole response, or the
// stream's end, reaches the client once it is kept. Nothing runs with an effect unless it
// claimed the answer first (a chat turn stores only then), so an aborted stream, an expiry (504)
// and an answer never given (the client left first) release the key: a retry runs. Methods may
// be called on threads that must not block (the writer's): nothing here waits.
class KeepingResponder final : public Responder {
 public:
  KeepingResponder(std::shared_ptr<Responder> inner, std::shared_ptr<const IdempotencyTicket> ticket)
      : inner_(std::move(inner)), settlement_(std::make_shared<Settlement>(std::move(ticket))) {}
  ~KeepingResponder() override { settlement_->release(); }

  bool claim() override { return inner_->claim(); }
  void send(Response response) override {
    Response head = copy_head(response);
    std::string body = response.body;
    auto answer = std::make_shared<Response>(std::move(response));
    settlement_->keep_then(head, std::move(body), [inner = inner_, answer] { inner->send(std::move(*answer)); });
  }
  void begin(Response head) override {
    {
      std::lock_guard lock(mu_);
      head_ = copy_head(head);
    }
    inner_->begin(std::move(head));
  }
  bool write(std::string_view piece) override {
    {
      std::lock_guard lock(mu_);
      streamed_.append(piece);
    }
    return inner_->write(piece);
  }
  bool behind(std::function<void()> resume) override { return inner_->behind(std::move(resume)); }
  void end() override {
    Response head;
    std::string text;
    {
      std::lock_guard lock(mu_);
      head = copy_head(head_);
      text = std::move(streamed_);
    }
    settlement_->keep_then(head, std::move(text), [inner = inner_] { inner->end(); });
  }
  void abort() override {
    settlement_->release();
    inner_->abort();
  }
  void expire_at(std::chrono::steady_clock::time_point at, std::function<Response()> fallback) override {
    inner_->expire_at(at, [settlement = settlement_, fallback = std::move(fallback)] {
      settlement->release();
      return fallback();
    });
  }

 private:
  static Response copy_head(const Response& r) {
    Response head;
    head.status = r.status;
    head.content_type = r.content_type;
    head.headers = r.headers;
    return head;
  }

  std::shared_ptr<Responder> inner_;
  std::shared_ptr<Settlement> settlement_;
  std::mutex mu_;  // the streamed head and text
  Response head_;
  std::string streamed_;
};

bool is_write(std::string_view method) { return method == "POST" || method == "PATCH" || method == "DELETE"; }

std::optional<std::string> malformed(std::string_view key) {
  if (key.size() > kMaxKeyLength) return "Idempotency-Key is longer than 255 characters.";
  for (char ch : key) {
    if (ch < 0x20 || ch > 0x7e) return "Idempotency-Key must be printable ASCII characters.";
  }
  return std::nullopt;
}

}  // namespace

IdempotencyStart idempotency_start(Database& db, const Clock& clock, const Request& req,
                                   std::string_view account_id) {
  std::string_view key = req.header("Idempotency-Key");
  if (key.empty() || !is_write(req.method)) return {};
  if (auto why = malformed(key)) return {error_response({ErrorCode::kInvalidRequest, *why}), nullptr};
  std::string request_text;
  request_text.reserve(req.method.size() + req.path.size() + req.query.size() + 3);
  request_text.append(req.method).append(" ").append(req.path).append("?").append(req.query);
  auto ticket = std::make_shared<IdempotencyTicket>(
      IdempotencyTicket{db, std::string(account_id), std::string(key), sha256_hex(request_text + "\n" + sha256_hex(req.body))});
  const int64_t now = clock.now_ms();
  IdempotencyClaim claim;
  auto claimed = db.write([&](Connection& c) -> Result<void> {
    PARLEY_ASSIGN_OR_RETURN(claim, IdempotencyRepo::claim(c, ticket->account_id, ticket->key, ticket->fingerprint,
                                                          now, now + kLockMs, now + kKeptMs));
    return {};
  });
  if (!claimed.ok()) return {error_response(claimed.error()), nullptr};
  switch (claim.outcome) {
    case IdempotencyClaim::Outcome::kClaimed:
      return {std::nullopt, std::move(ticket)};
    case IdempotencyClaim::Outcome::kAnswered:
      return {replay(claim.answer), nullptr};
    case IdempotencyClaim::Outcome::kInUse:
      return {error_response({ErrorCode::kIdempotencyKeyInUse,
                              "A request with this Idempotency-Key is still running; retry once it has finished."}),
              nullptr};
    case IdempotencyClaim::Outcome::kMismatch:
      break;
  }
  return {error_response({ErrorCode::kIdempotencyKeyReused,
                          "This Idempotency-Key was used for a different request (method, path or body); use a new "
                          "key for a new request."}),
          nullptr};
}

Response idempotency_finish(std::shared_ptr<const IdempotencyTicket> ticket, Response response) {
  if (response.deferred) {
    response.deferred = [ticket, start = std::move(response.deferred)](std::shared_ptr<Responder> inner) {
      start(std::make_shared<KeepingResponder>(std::move(inner), ticket));
    };
    return response;
  }
  if (response.finish_on_pool) {
    response.finish_on_pool = [ticket, finish = std::move(response.finish_on_pool)] {
      return idempotency_finish(ticket, finish());
    };
    return response;
  }
  ticket->settle(response, response.body);
  return response;
}

}  // namespace parley
