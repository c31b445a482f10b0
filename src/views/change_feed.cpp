#include "views/change_feed.h"

#include <algorithm>

#include "http/responses.h"
#include "views/server_events.h"

namespace parley {

ChangeFeed::ChangeFeed(Options options) : options_(options) {
  thread_ = std::thread([this] { loop(); });
}

ChangeFeed::~ChangeFeed() { stop(); }

void ChangeFeed::request_stop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
}

void ChangeFeed::stop() {
  request_stop();
  if (thread_.joinable()) thread_.join();
}

size_t ChangeFeed::open_streams() const {
  std::lock_guard lock(mu_);
  return streams_.size();
}

namespace {
constexpr std::string_view kVisitorsShare = "visitors";
}  // namespace

ChangeFeed::Share ChangeFeed::visitors_share() const {
  size_t reserved = std::min(options_.reserved_for_members, options_.max_streams);
  return {std::string(kVisitorsShare), options_.max_streams - reserved};
}

void ChangeFeed::release(const std::vector<Share>& shares) {
  --held_;
  for (const auto& s : shares) {
    auto it = per_key_.find(s.key);
    if (it != per_key_.end() && --it->second == 0) per_key_.erase(it);
  }
}

ChangeFeed::Look ChangeFeed::whole(std::function<Result<std::string>()> document) {
  using Seen = Result<std::optional<std::string>>;
  return [document = std::move(document)](std::string& cursor) -> Seen {
    PARLEY_ASSIGN_OR_RETURN(std::string now, document());
    if (now == cursor) return std::optional<std::string>();
    cursor = now;
    return std::optional<std::string>(std::move(now));
  };
}

Response ChangeFeed::stream(std::string event_name, Look look, std::vector<Share> shares) {
  // The first look is made now, on the request's thread, so a missing conversation is a plain 404.
  // Read before the first look: a change after it, made before the stream joins the passes, is
  // then looked for at once (a pass may have read the epoch without this stream in it).
  const uint64_t before = options_.changes ? options_.changes() : 0;
  std::string cursor;
  auto first = look(cursor);
  if (!first.ok()) return error_response(first.error());
  {
    std::lock_guard lock(mu_);
    if (stop_) return error_response({ErrorCode::kUnavailable, "The server is shutting down."});
    if (held_ >= options_.max_streams)
      return error_response({ErrorCode::kUnavailable, "Too many live streams are open on this server; try again shortly."});
    for (const auto& s : shares) {
      auto it = per_key_.find(s.key);
      if (s.key == kVisitorsShare &&
          (s.max == 0 || (it != per_key_.end() && it->second >= s.max))) {
        return error_response(
            {ErrorCode::kUnavailable,
             "Too many anonymous live streams are open on this server; try again shortly."});
      }
      if (it != per_key_.end() && it->second >= s.max) {
        Response r = error_response({ErrorCode::kRateLimited, "Too many live streams are open for this " +
                                                                  s.key.substr(0, s.key.find(':')) +
                                                                  "; close one first."});
        r.header("Retry-After", "5");
        return r;
      }
    }
    ++held_;
    for (const auto& s : shares) ++per_key_[s.key];
  }
  return Response::later([this, event_name = std::move(event_name), look = std::move(look), shares = std::move(shares),
                          cursor = std::move(cursor), before,
                          first = std::move(first).value()](std::shared_ptr<Responder> out) mutable {
    if (!out->claim()) {
      std::lock_guard lock(mu_);
      release(shares);
      return;
    }
    Response head;
    head.status = 200;
    head.content_type = "text/event-stream";
    head.header("Cache-Control", "no-store");
    head.header("X-Accel-Buffering", "no");  // proxies pass each event on as it comes
    out->begin(std::move(head));
    if (first) out->write(server_event(event_name, *first));
    auto s = std::make_shared<Stream>(Stream{std::move(out), std::move(event_name), std::move(look), std::move(shares),
                                             std::move(cursor), std::chrono::steady_clock::now()});
    std::lock_guard lock(mu_);
    if (stop_) {
      s->out->end();
      release(s->shares);
      return;
    }
    if (options_.changes && options_.changes() != before) {
      s->pending = true;
      recheck_ = true;
    }
    streams_.push_back(std::move(s));
  });
}

bool ChangeFeed::refresh(Stream& s, std::chrono::steady_clock::time_point now) {
  // A client that has not taken what was sent yet is looked at again once it has.
  if (s.out->behind([] {})) {
    s.pending = true;
    return true;
  }
  s.pending = false;
  auto seen = s.look(s.cursor);
  if (!seen.ok()) {
    s.out->write(server_event("error", error_response(seen.error()).body));
    s.out->end();
    return false;
  }
  if (*seen) {
    s.last_sent = now;
    return s.out->write(server_event(s.event_name, **seen));
  }
  return keep_alive(s, now);
}

bool ChangeFeed::keep_alive(Stream& s, std::chrono::steady_clock::time_point now) {
  if (now - s.last_sent < std::chrono::milliseconds(options_.heartbeat_ms)) return true;
  if (s.out->behind([] {})) return true;
  s.last_sent = now;
  return s.out->write(kKeepAliveLine);
}

void ChangeFeed::loop() {
  using std::chrono::milliseconds;
  constexpr milliseconds kTick{50};          // how often the change counter is read
  constexpr milliseconds kScanEvery{1'000};  // keep-alives and streams that caught up
  std::unique_lock lock(mu_);
  uint64_t seen = options_.changes ? options_.changes() : 0;
  auto last_pass = std::chrono::steady_clock::now();
  auto last_scan = last_pass;
  while (!cv_.wait_for(lock, kTick, [this] { return stop_; })) {
    auto now = std::chrono::steady_clock::now();
    // Read before the looks: a change made during a pass moves it again, so the next pass sees it.
    uint64_t epoch = options_.changes ? options_.changes() : seen + 1;
    bool pass = (epoch != seen && now - last_pass >= milliseconds(options_.interval_ms)) ||
                now - last_pass >= milliseconds(options_.idle_look_ms);
    if (!pass && !recheck_ && now - last_scan < kScanEvery) continue;
    recheck_ = false;
    if (pass) {
      seen = epoch;
      last_pass = now;
    }
    last_scan = now;
    std::vector<std::shared_ptr<Stream>> open = streams_;
    lock.unlock();
    std::vector<Stream*> ended;
    for (auto& s : open) {
      bool alive = pass || s->pending ? refresh(*s, now) : keep_alive(*s, now);
      if (!alive) ended.push_back(s.get());
      // A shutdown does not wait for the rest of a pass.
      std::lock_guard check(mu_);
      if (stop_) break;
    }
    lock.lock();
    std::erase_if(streams_, [&](const std::shared_ptr<Stream>& s) {
      if (std::find(ended.begin(), ended.end(), s.get()) == ended.end()) return false;
      release(s->shares);
      return true;
    });
  }
  // Stopping: every open stream ends here, on this thread, while the server still runs.
  for (auto& s : streams_) {
    s->out->end();
    release(s->shares);
  }
  streams_.clear();
}

}  // namespace parley
