// The part of a connection (http/session.h) that answers later: a handler's Response::later gets
// a Responder (http/deferred_responder.h), and this sends what the Responder is told, on the
// connection's thread: a whole response, or a chunked body written as its pieces come (those
// handed over together go out in one write), and the fallback answer at its expiry. A base of
// Session (CRTP): it reads and writes the Session's connection state, which befriends it. Internal
// to src/http; runs on the connection's thread only.
#pragma once

#include <utility>  // must precede Asio under C++20 with Boost 1.74

#include <boost/asio.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "http/deferred_responder.h"
#include "http/message.h"
#include "http/wire.h"

namespace parley::http_session {

template <typename Session>
class DeferredAnswers {
 protected:
  using Deferred = DeferredResponder<Session>;
  using SteadyClock = std::chrono::steady_clock;

  // Hands the handler's deferred answer a Responder; nothing is sent until it says what.
  void adopt_deferred(Response shell) {
    Session& s = self();
    s.handled_inline_ = false;
    // The connection may wait long for its answer: its read buffer is given back meanwhile unless
    // a pipelined request waits in it (read_more() makes a new one).
    if (s.begin_ == s.end_) {
      std::vector<char>().swap(s.in_);
      s.begin_ = s.end_ = 0;
    }
    auto d = std::make_shared<Deferred>(s.shared_from_this(), std::move(shell.headers),
                                        s.shared_.deferreds);
    deferred_ = d;
    stream_end_ = StreamEnd::kOpen;
    try {
      shell.deferred(d);
    } catch (const std::exception&) {
      if (d->claim())
        deferred_send(*d, s.shared_.hooks.on_error(ApiError::internal("The server failed to handle the request."),
                                                   s.request_));
    }
  }

  // The exchange has ended (the session is about to read the next request or close): a producer
  // waiting for room stops waiting, and a late call of the old Responder finds nothing to touch.
  void end_deferred() {
    if (!deferred_) return;
    deferred_->gone();
    deferred_.reset();
    if (expiry_) expiry_->cancel();
  }

  void closing_deferred() {
    if (expiry_) expiry_->cancel();
    if (deferred_) deferred_->gone();
  }

 private:
  friend Deferred;
  enum class StreamEnd { kOpen, kComplete, kAborted };

  Session& self() { return static_cast<Session&>(*this); }

  // Whether `d` still owns the exchange; when the connection closed meanwhile, the exchange ends.
  bool live(const Deferred& d) {
    if (deferred_.get() != &d) return false;
    if (!self().closed_) return true;
    end_stream(/*ok=*/false);
    return false;
  }

  void deferred_send(Deferred& d, Response r) {
    if (!live(d) || streaming_) return;
    for (auto& h : d.headers()) r.headers.push_back(std::move(h));
    if (expiry_) expiry_->cancel();
    self().send(std::move(r));
  }

  void deferred_begin(Deferred& d, Response head) {
    if (!live(d) || streaming_) return;
    if (expiry_) expiry_->cancel();
    for (auto& h : d.headers()) head.headers.push_back(std::move(h));
    streaming_ = true;
    Session& s = self();
    s.status_ = head.status;
    ResponseHead h = s.head_of(head, s.keep_alive());
    h.chunked = true;
    std::string bytes;
    write_response_head(bytes, h);
    chunks_.push_back(std::move(bytes));
    flush_soon();
  }

  void deferred_write(Deferred& d, std::string framed) {
    size_t n = framed.size();
    if (!live(d) || !streaming_ || stream_end_ != StreamEnd::kOpen) return d.drained(n, /*gone=*/true);
    chunks_.push_back(std::move(framed));
    chunk_bytes_ += n;
    flush_soon();
  }

  void deferred_end(Deferred& d, bool complete) {
    if (!live(d) || !streaming_ || stream_end_ != StreamEnd::kOpen) return;
    if (!complete) {
      // Cut short: what waits is dropped and the connection closed without the last chunk.
      stream_end_ = StreamEnd::kAborted;
      if (!chunk_writing_) end_stream(/*ok=*/false);
      return;
    }
    stream_end_ = StreamEnd::kComplete;
    chunks_.push_back("0\r\n\r\n");
    flush_soon();
  }

  void deferred_expire(Deferred& d, SteadyClock::time_point at, std::function<Response()> fallback) {
    if (!live(d)) return;
    Session& s = self();
    if (!expiry_) expiry_.emplace(s.socket_().get_executor());
    expiry_->expires_at(at);
    expiry_->async_wait([session = s.shared_from_this(), d = deferred_,
                         fallback = std::move(fallback)](boost::system::error_code ec) mutable {
      if (ec || !session->live(*d)) return;
      if (d->claim()) session->deferred_send(*d, fallback());
    });
  }

  // Writes what is queued once the handlers already waiting on this thread have run, so that the
  // pieces an engine hands over together (the head, text, the last chunk) go out in one write.
  void flush_soon() {
    if (flush_posted_ || chunk_writing_) return;  // a write under way writes the rest after it
    flush_posted_ = true;
    Session& s = self();
    boost::asio::post(s.socket_().get_executor(), [session = s.shared_from_this()] {
      session->flush_posted_ = false;
      session->write_chunks();
    });
  }

  // Writes what the stream has queued, all of it at once; one write at a time.
  void write_chunks() {
    Session& s = self();
    if (chunk_writing_ || s.closed_) return;
    if (chunks_.empty() || stream_end_ == StreamEnd::kAborted) {
      if (stream_end_ != StreamEnd::kOpen) end_stream(stream_end_ == StreamEnd::kComplete);
      return;
    }
    chunk_writing_ = true;
    writing_.clear();
    std::swap(writing_, chunks_);
    size_t piece_bytes = chunk_bytes_;
    chunk_bytes_ = 0;
    buffers_.clear();
    for (const auto& c : writing_) buffers_.push_back(boost::asio::buffer(c));
    // The client has the read timeout to take each write; the timer closes the connection after.
    s.deadline_ = SteadyClock::now() + std::chrono::seconds(s.shared_.options.read_timeout_s);
    boost::asio::async_write(s.stream_, buffers_, [session = s.shared_from_this(), piece_bytes](
                                                      boost::system::error_code ec, size_t) {
      session->chunk_writing_ = false;
      session->deadline_ = SteadyClock::time_point::max();  // waiting for the next piece is not the client's time
      if (session->deferred_) session->deferred_->drained(piece_bytes, /*gone=*/static_cast<bool>(ec));
      if (ec) {
        session->stream_end_ = StreamEnd::kAborted;
        return session->end_stream(/*ok=*/false);
      }
      session->write_chunks();
    });
  }

  // The stream is over (complete, cut short, or its client gone): the exchange ends.
  void end_stream(bool ok) {
    Session& s = self();
    ok = ok && !s.closed_;
    chunks_.clear();
    chunk_bytes_ = 0;
    streaming_ = false;
    s.after_response(ok && s.keep_alive());
  }

  std::shared_ptr<Deferred> deferred_;            // the answer under way, while one is
  std::optional<boost::asio::steady_timer> expiry_;  // sends its fallback
  StreamEnd stream_end_ = StreamEnd::kOpen;
  bool streaming_ = false;      // the head of a chunked body was queued
  bool chunk_writing_ = false;  // a write of queued chunks is under way
  bool flush_posted_ = false;   // flush_soon() is waiting to run
  std::vector<std::string> chunks_;   // framed chunks waiting to be written
  std::vector<std::string> writing_;  // the chunks of the write under way
  std::vector<boost::asio::const_buffer> buffers_;
  size_t chunk_bytes_ = 0;  // bytes of Responder::write() pieces in chunks_ (the head is not counted)
};

}  // namespace parley::http_session
