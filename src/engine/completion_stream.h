// Decoding of an OpenAI-compatible streamed chat completion: SseParser splits the raw bytes of a
// `text/event-stream` body into event data (however the bytes were split into reads), and
// CompletionAssembler applies each `chat.completion.chunk` to the reply being built: text deltas
// are handed on as they arrive, tool calls are assembled from their fragments (index, id,
// function.name, function.arguments); a provider that answers with one JSON `chat.completion`
// instead is read the same way. Neither is shared across threads; one per stream.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace parley {

// One tool call the model asked for; `arguments` is the JSON text the model wrote.
struct ToolCall {
  std::string id;
  std::string name;
  std::string arguments;
};

// What a finished completion holds besides the text already streamed.
struct Completion {
  std::string text;
  std::vector<ToolCall> tool_calls;
  std::string finish_reason;  // "stop", "tool_calls", "length", ... ("" when the model gave none)
};

class SseParser {
 public:
  // Receives the data of each complete event (multi-line data joined with '\n').
  using DataHandler = std::function<Result<void>(std::string_view data)>;
  explicit SseParser(DataHandler on_data) : on_data_(std::move(on_data)) {}

  // Feeds the next bytes of the body; an error from the handler stops the stream, as does a line
  // or an event's data past 1 MiB.
  Result<void> feed(std::string_view bytes);
  // The body ended: a last event without its blank line is still delivered.
  Result<void> finish();

 private:
  Result<void> line(std::string_view line);
  Result<void> dispatch();

  DataHandler on_data_;
  std::string pending_;  // bytes of an incomplete line
  std::string data_;     // data lines of the current event
  bool has_data_ = false;
};

class CompletionAssembler {
 public:
  // `on_text` receives each text delta; returning false asks the stream to stop.
  using TextHandler = std::function<bool(std::string_view piece)>;
  explicit CompletionAssembler(TextHandler on_text) : on_text_(std::move(on_text)) {}

  // Applies one event's data: a chunk object, or the `[DONE]` marker. A chunk that is not JSON
  // (or nested deeper than kMaxJsonDepth), a reply past 4 MiB, or an error object inside the
  // stream, is an internal error (the provider's words are not passed on: they may quote the
  // request).
  Result<void> apply(std::string_view data);
  // Applies a whole `chat.completion` object, for a provider that answers in JSON although the
  // request asked for a stream: its message's text (handed on in one piece) and tool calls.
  Result<void> apply_whole(std::string_view body);

  bool done() const { return done_; }
  // True when the text handler asked to stop.
  bool cancelled() const { return cancelled_; }
  Completion take() { return std::move(completion_); }

 private:
  size_t size() const;  // bytes of text and tool calls assembled so far

  TextHandler on_text_;
  Completion completion_;
  bool done_ = false;
  bool cancelled_ = false;
};

}  // namespace parley
