// Live views as server-sent events, for the dashboard's live-chat inbox and the widget's
// conversation: a stream answers `look()` (a JSON document, e.g. the inbox) at once as
// `event: NAME`, and again each time what it returns changes. One thread per process looks again
// at every open stream every `interval_ms` (250 ms when idle; a pass over many streams takes
// longer), so a change made by any node of a cluster is seen the same way; no thread waits on a
// stream between looks. A stream silent for `heartbeat_ms` gets a comment line (`: keep-alive`),
// which keeps proxies from closing it and finds clients that left. When look() fails (the
// conversation is gone, the member's token ended), the stream sends `event: error` with the usual
// error object and ends. A client too slow to take what was sent is skipped until it has caught
// up, and then gets the latest state, not every state in between.
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
    int64_t interval_ms = 250;
    int64_t heartbeat_ms = 15'000;
    size_t max_streams = 10'000;
    size_t reserved_for_members = 1'000;  // of max_streams, never taken by anonymous streams
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

  using Look = std::function<Result<std::string>()>;
  // The answer to a request for the stream. `look` runs on the feed's thread; it must be safe there.
  Response stream(std::string event_name, Look look, std::vector<Share> shares);

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
    std::string last;
    std::chrono::steady_clock::time_point last_sent;
  };
  void loop();
  // Looks at one stream; false when it has ended.
  bool refresh(Stream& s, std::chrono::steady_clock::time_point now);
  // Under mu_: gives back what a stream held.
  void release(const std::vector<Share>& shares);

  Options options_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::shared_ptr<Stream>> streams_;
  size_t held_ = 0;                                  // streams open or about to open
  std::unordered_map<std::string, size_t> per_key_;  // the same, per owner key
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace parley
