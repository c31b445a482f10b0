// Live views as server-sent events, for the dashboard's live-chat inbox and the widget's
// conversation: a stream answers `look()` (a JSON document, e.g. the inbox) at once as
// `event: NAME`, and again each time what it returns changes. One thread per process looks again
// at every open stream every `interval_ms` (250 ms), so a change made by any node of a cluster is
// seen, the same way, within that time; no thread waits on a stream between looks. A stream silent
// for `heartbeat_ms` gets a comment line (`: keep-alive`), which keeps proxies from closing it.
// When look() fails (the conversation is gone), the stream sends `event: error` with the usual
// error object and ends. A client too slow to take what was sent is skipped until it has caught
// up, and then gets the latest state, not every state in between.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"
#include "http/message.h"

namespace parley {

class ChangeFeed {
 public:
  struct Options {
    int64_t interval_ms = 250;
    int64_t heartbeat_ms = 15'000;
    size_t max_streams = 10'000;  // beyond: 503 unavailable
  };
  explicit ChangeFeed(Options options);
  ~ChangeFeed();  // stop()s
  // Ends every open stream and refuses new ones (503); for the server's shutdown. Idempotent.
  void stop();
  ChangeFeed(const ChangeFeed&) = delete;
  ChangeFeed& operator=(const ChangeFeed&) = delete;

  using Look = std::function<Result<std::string>()>;
  // The answer to a request for the stream. `look` runs on the feed's thread; it must be safe there.
  Response stream(std::string event_name, Look look);

  size_t open_streams() const;

 private:
  struct Stream {
    std::shared_ptr<Responder> out;
    std::string event_name;
    Look look;
    std::string last;
    std::chrono::steady_clock::time_point last_sent;
  };
  void loop();
  // Looks at one stream; false when it has ended.
  bool refresh(Stream& s, std::chrono::steady_clock::time_point now);

  Options options_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::shared_ptr<Stream>> streams_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace parley
