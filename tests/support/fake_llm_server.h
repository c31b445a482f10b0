// FakeLlmServer: a real HTTP server on a loopback port that stands in for an OpenAI-compatible
// provider in tests. Each request is answered with the next scripted response (the last one is
// repeated): a status, a content type and the body written in pieces, with optional pauses
// between them, so tests can split a stream at awkward byte boundaries or stall past a deadline.
// Requests are recorded for the test to read. Thread-safe; stops (and interrupts any pause) when
// destroyed.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
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
// A whole body split into pieces of `size` bytes.
std::vector<std::string> split_every(const std::string& body, size_t size);

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
};

}  // namespace parley::e2e
