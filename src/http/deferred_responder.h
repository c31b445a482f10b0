// The Responder (http/message.h) of a deferred answer, for one connection's Session
// (http/session.h): every call hands its work to the connection's own thread, which checks that
// the exchange is still this responder's before touching the connection. The calls run there in
// the order they were made, from whichever threads: they join one queue, drained by one posted
// task (Asio alone would not keep that order: what the connection's own thread posts waits in a
// private queue until its handler returns, behind what other threads post meanwhile, so a head
// begun there could arrive after the body a pool thread wrote). Counts the bytes of a streamed
// body not yet written, for back-pressure. It holds its connection until it is destroyed or the
// server stops (http/deferred_registry.h). Internal to src/http. Thread-safe.
#pragma once

#include <utility>  // must precede Asio under C++20 with Boost 1.74

#include <boost/asio/post.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "http/deferred_registry.h"
#include "http/message.h"
#include "http/wire.h"

namespace parley::http_session {

// `Session` befriends this class: the deferred_* functions it calls run on the connection's thread.
template <typename Session>
class DeferredResponder final : public Responder,
                                public HoldsConnection,
                                public std::enable_shared_from_this<DeferredResponder<Session>> {
 public:
  using Deferred = DeferredResponder;
  DeferredResponder(std::shared_ptr<Session> session,
                    std::vector<std::pair<std::string_view, std::string>> headers,
                    std::shared_ptr<DeferredRegistry> registry)
      : session_(std::move(session)), headers_(std::move(headers)), registry_(std::move(registry)) {
    registry_->add(this);
  }
  ~DeferredResponder() {
    registry_->remove(this, [this] { session_.reset(); });
  }

  bool claim() override {
    bool expected = false;
    return claimed_.compare_exchange_strong(expected, true);
  }
  void send(Response r) override {
    post([r = std::move(r)](Session& s, Deferred& d) mutable { s.deferred_send(d, std::move(r)); });
  }
  void begin(Response head) override {
    post([head = std::move(head)](Session& s, Deferred& d) mutable {
      s.deferred_begin(d, std::move(head));
    });
  }
  bool write(std::string_view piece) override {
    if (piece.empty()) return !gone_.load();
    std::string framed;
    framed.reserve(piece.size() + 12);
    append_chunk_size(framed, piece.size());
    framed.append(piece.data(), piece.size()).append("\r\n", 2);
    {
      std::lock_guard lock(mu_);
      if (gone_.load()) return false;
      pending_ += framed.size();
    }
    post([framed = std::move(framed)](Session& s, Deferred& d) mutable {
      s.deferred_write(d, std::move(framed));
    });
    return true;
  }
  bool behind(std::function<void()> resume) override {
    std::lock_guard lock(mu_);
    if (gone_.load() || pending_ <= kHighWater) return false;
    resume_ = std::move(resume);
    return true;
  }
  void end() override {
    post([](Session& s, Deferred& d) { s.deferred_end(d, /*complete=*/true); });
  }
  void abort() override {
    post([](Session& s, Deferred& d) { s.deferred_end(d, /*complete=*/false); });
  }
  void expire_at(std::chrono::steady_clock::time_point at,
                 std::function<Response()> fallback) override {
    post([at, fallback = std::move(fallback)](Session& s, Deferred& d) mutable {
      s.deferred_expire(d, at, std::move(fallback));
    });
  }

  // On the connection's thread: `n` bytes were written, or (`gone`) will never be.
  void drained(size_t n, bool gone) {
    std::function<void()> resume;
    {
      std::lock_guard lock(mu_);
      pending_ -= std::min(pending_, n);
      if (gone) gone_.store(true);
      if (resume_ && (gone_.load() || pending_ <= kHighWater / 4)) resume = std::move(resume_);
    }
    if (resume) resume();
  }
  void gone() { drained(0, true); }
  // The server has stopped: what is written from now on is refused.
  Released let_go() override {
    std::lock_guard lock(mu_);
    gone_.store(true);
    return {std::move(session_), std::move(resume_)};
  }
  std::vector<std::pair<std::string_view, std::string>>& headers() { return headers_; }

 private:
  using Op = std::function<void(Session&, Deferred&)>;

  // Queues `fn` behind the calls made before it; the first of a run posts the task that drains.
  template <typename Fn>
  void post(Fn fn) {
    {
      std::lock_guard lock(ops_mu_);
      ops_.emplace_back(std::move(fn));
      if (drain_posted_) return;
      drain_posted_ = true;
    }
    // Once the server has stopped, nothing is posted: its event loops are gone.
    registry_->while_open([this] {
      boost::asio::post(session_->socket_().get_executor(),
                        [self = this->shared_from_this()] { self->drain(); });
    });
  }

  // On the connection's thread: runs the queued calls in order, and any queued while they ran.
  void drain() {
    // Never null here: drain() runs on an I/O thread, and let_go() once those have stopped.
    if (session_ == nullptr) return;
    std::vector<Op> ops;
    for (;;) {
      {
        std::lock_guard lock(ops_mu_);
        if (ops_.empty()) {
          drain_posted_ = false;
          return;
        }
        ops.swap(ops_);
      }
      for (Op& op : ops) op(*session_, *this);
      ops.clear();
    }
  }

  std::shared_ptr<Session> session_;  // until destroyed or the server stops (let_go())
  std::vector<std::pair<std::string_view, std::string>> headers_;  // the handler's (gate chain's)
  std::shared_ptr<DeferredRegistry> registry_;
  std::atomic<bool> claimed_{false};
  std::atomic<bool> gone_{false};
  std::mutex mu_;
  size_t pending_ = 0;  // bytes handed to write() and not yet written
  std::function<void()> resume_;
  std::mutex ops_mu_;
  std::vector<Op> ops_;        // calls not yet run on the connection's thread, oldest first
  bool drain_posted_ = false;  // a drain() is posted and has not yet found the queue empty
};

}  // namespace parley::http_session
