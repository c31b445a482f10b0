// Live views as server-sent events, for the dashboard's live-chat inbox and the widget's
// conversation: a stream answers its first `look()` at once as `event: NAME`, and again each time
// a look finds something new. A look is given the stream's cursor (what its events have covered
// so far; empty at first) and returns what changed since, moving the cursor: the widget's stream
// sends the messages after the last one it sent, not the whole conversation again.
//
// One thread per process does the looking, and only when something may have changed: it reads
// `Options::changes` (the database's data epoch, which moves with every commit of this process,
// and on PostgreSQL with every other node's announced commit) every 50 ms and makes a pass over
// the open streams when it moved, at most one pass per `interval_ms`. With no change known, a
// pass every `idle_look_ms` (30 s) catches what no epoch tells of (a session that ran out by
// time; a logout or a removal is a write and is seen at once). So idle streams cost no database
// work; no thread waits on a stream between looks. A stream silent for `heartbeat_ms` gets a
// comment line (`: keep-alive`), which keeps proxies from closing it and finds clients that left.
// When a look fails (the conversation is gone, the member's token ended), the stream sends
// `event: error` with the usual error object and ends. A client too slow to take what was sent is
// skipped until it has caught up, and then looked at again.
//
// Limits: at most `max_streams` open in the process (503 unavailable beyond), and at most the
// given number per owner key (a member, a conversation, a client address; 429 rate_limited
// beyond), so one client cannot hold the process's streams. Anonymous streams (the widget's) also
// take visitors_share(): together they may hold all but `reserved_for_members` of the process's
// streams (503 unavailable beyond), so visitors can never starve the team's inbox.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "core/result.h"
#include "http/message.h"

namespace parley {

class ChangeFeed {
 public:
  struct Options {
    int64_t interval_ms = 250;     // at most one pass over the streams per interval
    int64_t idle_look_ms = 30'000;  // a pass at least this often, changes or not
    int64_t heartbeat_ms = 15'000;
    size_t max_streams = 10'000;
    size_t reserved_for_members = 1'000;  // of max_streams, never taken by anonymous streams
    // A counter that moves when data may have changed (Database::data_epoch). None: a pass every
    // interval, as if it always moved.
    std::function<uint64_t()> changes;
  };
  // An owner's share: at most `max` streams open under `key` at once.
  struct Share {
    std::string key;
    size_t max = 0;
  };
  explicit ChangeFeed(Options options);
  ~ChangeFeed();  // stop()s
  ChangeFeed(const ChangeFeed&) = delete;
  ChangeFeed& operator=(const ChangeFeed&) = delete;

  // The share every anonymous stream takes besides its own (see above).
  Share visitors_share() const;

  // Given the stream's cursor, the event's data when there is something to send (moving the
  // cursor), nullopt when nothing changed, or an error that ends the stream.
  using Look = std::function<Result<std::optional<std::string>>(std::string& cursor)>;
  // The answer to a request for the stream. `look` runs on the feed's thread; it must be safe there.
  Response stream(std::string event_name, Look look, std::vector<Share> shares);
  // A look for a small document sent whole: the cursor is the document last sent.
  static Look whole(std::function<Result<std::string>()> document);

  // Refuses new streams and has the feed's thread end the open ones; returns at once (for the
  // server's shutdown, on an I/O thread).
  void request_stop();
  // request_stop(), then waits for the feed's thread; every stream has ended when it returns.
  // Idempotent; must run while the HTTP server that answered the streams still exists.
  void stop();

  size_t open_streams() const;

 private:
  struct Stream {
    std::shared_ptr<Responder> out;
    std::string event_name;
    Look look;
    std::vector<Share> shares;
    std::string cursor;
    std::chrono::steady_clock::time_point last_sent;
    bool pending = false;  // skipped by a pass while behind: looked at once it has caught up
  };
  void loop();
  // Looks at one stream; false when it has ended.
  bool refresh(Stream& s, std::chrono::steady_clock::time_point now);
  // Sends the keep-alive line when the stream has been silent too long; false when it has ended.
  bool keep_alive(Stream& s, std::chrono::steady_clock::time_point now);
  // Under mu_: gives back what a stream held.
  void release(const std::vector<Share>& shares);

  Options options_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::shared_ptr<Stream>> streams_;
  size_t held_ = 0;                                  // streams open or about to open
  std::unordered_map<std::string, size_t> per_key_;  // the same, per owner key
  bool stop_ = false;
  bool recheck_ = false;  // a stream joined pending: look at the pending ones at the next tick
  std::thread thread_;
};

}  // namespace parley
