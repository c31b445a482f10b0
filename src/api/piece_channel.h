// Hands reply text from the engine's thread to the thread that writes the HTTP response: the
// handler waits for the first piece (or the end, or the deadline) before choosing between a JSON
// error and a streamed 200; the stream then drains the rest. Thread-safe; shared by both sides.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace parley {

class PieceChannel {
 public:
  // Engine side. push() returns false once the reader has given up.
  bool push(std::string_view piece);
  void finish(Result<void> outcome);

  // Reader side. Waits until a piece is ready or the engine finished, at most `wait`; returns
  // false on timeout.
  bool wait_ready(std::chrono::milliseconds wait);
  // The text written since the last call (every waiting piece, joined, so that a fast engine
  // costs one chunk), or nothing once the engine finished and all text was taken.
  std::optional<std::string> next();
  // The engine's outcome; valid after next() returned nothing or wait_ready() with finished().
  Result<void> outcome();
  bool finished();
  bool has_piece();
  void abandon();

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::string> pieces_;
  bool finished_ = false;
  bool abandoned_ = false;
  std::optional<ApiError> error_;
};

}  // namespace parley
