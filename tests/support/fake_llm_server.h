// FakeLlmServer: a real HTTP server on a loopback port that stands in for an OpenAI-compatible
// provider in tests. Each request is answered with the next scripted response (the last one is
// repeated): a status, a content type and the body written in pieces, with optional pauses
// between them, so tests can split a stream at awkward byte boundaries or stall past a deadline.
// Requests are recorded for the test to read. `POST …/embeddings` is answered apart from the
// script: with fake_embedding() of each input (a deterministic bag-of-words vector), unless a
// test scripts the embeddings answer too. Thread-safe; stops (and interrupts any pause) when
// destroyed.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace parley::e2e {

struct ScriptedResponse {
  int status = 200;
  std::string content_type = "text/event-stream";
  std::vector<std::string> pieces;  // written one after another, each flushed
  int pause_ms = 0;                 // between pieces
  int stall_ms = 0;                 // after the last piece, before closing
};

struct RecordedRequest {
  std::string method;
  std::string path;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
};

// An SSE body from chunk objects: "data: <json>\n\n" each, then "data: [DONE]\n\n".
std::string sse_body(const std::vector<std::string>& chunks, bool done = true);
// A chunk with a text delta.
std::string text_chunk(const std::string& text);
// A chunk with one tool-call fragment (empty id/name/arguments are left out).
std::string tool_chunk(int index, const std::string& id, const std::string& name,
                       const std::string& arguments);
// A chunk that only carries the finish reason.
std::string finish_chunk(const std::string& reason);
// One tool call the fake provider answers with.
struct FakeToolCall {
  std::string id;
  std::string name;
  std::string arguments;  // JSON text
};
// A streamed answer that calls tools: each call in two fragments (name, then arguments), then
// finish_reason "tool_calls".
ScriptedResponse tool_calls_reply(const std::vector<FakeToolCall>& calls);
// The same answer as one JSON `chat.completion`, as a provider that does not stream sends it.
ScriptedResponse tool_calls_json_reply(const std::vector<FakeToolCall>& calls);
// A streamed text answer ending with finish_reason "stop".
ScriptedResponse text_reply(const std::string& text);
// A whole body split into pieces of `size` bytes.
std::vector<std::string> split_every(const std::string& body, size_t size);

// The fake provider's embedding of a text: each word (a run of ASCII letters and digits, lower-
// cased, replaced by its alias when it has one) adds 1 to the dimension its hash picks, and the
// vector is scaled to norm 1. Texts that share no word are orthogonal unless an alias joins two
// words (or a hash collides): aliases let a test build a text that shares no word with a
// question and still lies close to it.
inline constexpr size_t kFakeEmbeddingDimensions = 512;
std::vector<float> fake_embedding(const std::string& text,
                                  const std::map<std::string, std::string>& aliases = {});

class FakeLlmServer {
 public:
  FakeLlmServer();
  ~FakeLlmServer();
  FakeLlmServer(const FakeLlmServer&) = delete;
  FakeLlmServer& operator=(const FakeLlmServer&) = delete;

  // "http://127.0.0.1:PORT"
  std::string base_url() const;
  void script(std::vector<ScriptedResponse> responses);
  std::vector<RecordedRequest> requests() const;
  void clear_requests();
  // Words the fake embedding treats as one (word → the word it counts as).
  void set_embedding_aliases(std::map<std::string, std::string> aliases);
  // Answers every embeddings request with `response` instead; nothing: computed vectors again.
  void script_embeddings(std::optional<ScriptedResponse> response);
  // The recorded requests to …/embeddings, and the inputs they carried.
  std::vector<RecordedRequest> embedding_requests() const;
  static std::vector<std::string> embedding_inputs(const RecordedRequest& request);
  // Bytes of scripted pieces handed to the kernel so far (a piece counts once written whole).
  size_t body_bytes_written() const { return body_bytes_.load(); }

 private:
  void accept_loop();
  void serve(int fd);
  bool pause(int ms);  // false when stopping

  int listen_fd_ = -1;
  uint16_t port_ = 0;
  std::thread acceptor_;
  std::vector<std::thread> workers_;
  mutable std::mutex mu_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;
  std::vector<ScriptedResponse> script_;
  size_t next_ = 0;
  std::vector<RecordedRequest> requests_;
  std::map<std::string, std::string> aliases_;
  std::optional<ScriptedResponse> embeddings_script_;
  std::atomic<size_t> body_bytes_{0};
};

}  // namespace parley::e2e
