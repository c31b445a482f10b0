#include "fake_llm_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>

#include "loopback_listener.h"
#include "stand_in_http.h"

namespace parley::e2e {

namespace {
bool is_embeddings(const std::string& path) {
  const std::string suffix = "/embeddings";
  return path.size() >= suffix.size() &&
         path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string sse_body(const std::vector<std::string>& chunks, bool done) {
  std::string out;
  for (const auto& c : chunks) out += "data: " + c + "\n\n";
  if (done) out += "data: [DONE]\n\n";
  return out;
}

std::string text_chunk(const std::string& text) {
  nlohmann::json j = {
      {"id", "chatcmpl-1"},
      {"object", "chat.completion.chunk"},
      {"choices", {{{"index", 0}, {"delta", {{"content", text}}}, {"finish_reason", nullptr}}}}};
  return j.dump();
}

std::string tool_chunk(int index, const std::string& id, const std::string& name,
                       const std::string& arguments) {
  nlohmann::json call = {{"index", index}};
  if (!id.empty()) {
    call["id"] = id;
    call["type"] = "function";
  }
  nlohmann::json fn = nlohmann::json::object();
  if (!name.empty()) fn["name"] = name;
  if (!arguments.empty()) fn["arguments"] = arguments;
  call["function"] = fn;
  nlohmann::json j = {{"object", "chat.completion.chunk"},
                      {"choices", {{{"index", 0}, {"delta", {{"tool_calls", {call}}}}}}}};
  return j.dump();
}

std::string finish_chunk(const std::string& reason) {
  nlohmann::json j = {
      {"object", "chat.completion.chunk"},
      {"choices",
       {{{"index", 0}, {"delta", nlohmann::json::object()}, {"finish_reason", reason}}}}};
  return j.dump();
}

ScriptedResponse tool_calls_reply(const std::vector<FakeToolCall>& calls) {
  std::vector<std::string> chunks;
  for (size_t i = 0; i < calls.size(); ++i) {
    chunks.push_back(tool_chunk(static_cast<int>(i), calls[i].id, calls[i].name, ""));
    chunks.push_back(tool_chunk(static_cast<int>(i), "", "", calls[i].arguments));
  }
  chunks.push_back(finish_chunk("tool_calls"));
  return {200, "text/event-stream", {sse_body(chunks)}};
}

ScriptedResponse tool_calls_json_reply(const std::vector<FakeToolCall>& calls) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& c : calls) {
    list.push_back({{"id", c.id},
                    {"type", "function"},
                    {"function", {{"name", c.name}, {"arguments", c.arguments}}}});
  }
  nlohmann::json j = {
      {"object", "chat.completion"},
      {"choices",
       {{{"index", 0},
         {"message", {{"role", "assistant"}, {"content", nullptr}, {"tool_calls", list}}},
         {"finish_reason", "tool_calls"}}}}};
  return {200, "application/json", {j.dump()}};
}

ScriptedResponse text_reply(const std::string& text) {
  return {200, "text/event-stream", {sse_body({text_chunk(text), finish_chunk("stop")})}};
}

std::vector<std::string> split_every(const std::string& body, size_t size) {
  std::vector<std::string> out;
  for (size_t i = 0; i < body.size(); i += size) out.push_back(body.substr(i, size));
  return out;
}

std::vector<float> fake_embedding(const std::string& text,
                                  const std::map<std::string, std::string>& aliases) {
  std::vector<float> v(kFakeEmbeddingDimensions, 0.0f);
  auto add_word = [&](std::string word) {
    if (word.empty()) return;
    if (auto it = aliases.find(word); it != aliases.end()) word = it->second;
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (unsigned char c : word) h = (h ^ c) * 1099511628211ull;
    v[h % kFakeEmbeddingDimensions] += 1.0f;
  };
  std::string word;
  for (unsigned char c : text) {
    if (std::isalnum(c) && c < 128) {
      word += static_cast<char>(std::tolower(c));
    } else {
      add_word(word);
      word.clear();
    }
  }
  add_word(word);
  double norm = 0;
  for (float x : v) norm += static_cast<double>(x) * x;
  if (norm > 0)
    for (float& x : v) x = static_cast<float>(x / std::sqrt(norm));
  return v;
}

FakeLlmServer::FakeLlmServer() {
  auto listener = listen_on_loopback(64);
  listen_fd_ = listener.fd;
  port_ = listener.port;
  acceptor_ = std::thread([this] { accept_loop(); });
}

FakeLlmServer::~FakeLlmServer() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  ::shutdown(listen_fd_, SHUT_RDWR);
  ::close(listen_fd_);
  acceptor_.join();
  for (auto& t : workers_) t.join();
}

std::string FakeLlmServer::base_url() const { return "http://127.0.0.1:" + std::to_string(port_); }

void FakeLlmServer::script(std::vector<ScriptedResponse> responses) {
  std::lock_guard lock(mu_);
  script_ = std::move(responses);
  next_ = 0;
}

std::vector<RecordedRequest> FakeLlmServer::requests() const {
  std::lock_guard lock(mu_);
  return requests_;
}

void FakeLlmServer::clear_requests() {
  std::lock_guard lock(mu_);
  requests_.clear();
}

void FakeLlmServer::set_embedding_aliases(std::map<std::string, std::string> aliases) {
  std::lock_guard lock(mu_);
  aliases_ = std::move(aliases);
}

void FakeLlmServer::script_embeddings(std::optional<ScriptedResponse> response) {
  std::lock_guard lock(mu_);
  embeddings_script_ = std::move(response);
}

std::vector<RecordedRequest> FakeLlmServer::embedding_requests() const {
  std::lock_guard lock(mu_);
  std::vector<RecordedRequest> out;
  for (const auto& r : requests_)
    if (is_embeddings(r.path)) out.push_back(r);
  return out;
}

std::vector<std::string> FakeLlmServer::embedding_inputs(const RecordedRequest& request) {
  std::vector<std::string> out;
  auto body = nlohmann::json::parse(request.body, nullptr, false);
  if (body.is_object() && body["input"].is_array())
    for (const auto& i : body["input"])
      if (i.is_string()) out.push_back(i.get<std::string>());
  return out;
}

bool FakeLlmServer::pause(int ms) {
  std::unique_lock lock(mu_);
  return !stop_cv_.wait_for(lock, std::chrono::milliseconds(ms), [this] { return stopping_; });
}

void FakeLlmServer::accept_loop() {
  accept_until(listen_fd_, mu_, workers_, [this] { return stopping_; }, [this](int fd) { serve(fd); });
}

void FakeLlmServer::serve(int fd) {
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  std::string in;
  char buf[8192];
  size_t header_end = std::string::npos;
  while ((header_end = in.find("\r\n\r\n")) == std::string::npos) {
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) {
      ::close(fd);
      return;
    }
    in.append(buf, static_cast<size_t>(n));
  }
  RecordedRequest req;
  std::string head = in.substr(0, header_end);
  size_t line_end = head.find("\r\n");
  std::string request_line = head.substr(0, line_end);
  size_t sp1 = request_line.find(' ');
  size_t sp2 = request_line.find(' ', sp1 + 1);
  req.method = request_line.substr(0, sp1);
  req.path = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
  size_t pos = line_end + 2;
  while (pos < head.size()) {
    size_t e = head.find("\r\n", pos);
    if (e == std::string::npos) e = head.size();
    std::string line = head.substr(pos, e - pos);
    size_t colon = line.find(':');
    if (colon != std::string::npos) {
      std::string value = line.substr(colon + 1);
      value.erase(0, value.find_first_not_of(' '));
      req.headers[ascii_lower(line.substr(0, colon))] = value;
    }
    pos = e + 2;
  }
  size_t length =
      req.headers.count("content-length") ? std::stoul(req.headers["content-length"]) : 0;
  req.body = in.substr(header_end + 4);
  while (req.body.size() < length) {
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    req.body.append(buf, static_cast<size_t>(n));
  }
  ScriptedResponse response;
  {
    std::lock_guard lock(mu_);
    requests_.push_back(req);
    if (is_embeddings(req.path)) {
      if (embeddings_script_) {
        response = *embeddings_script_;
      } else {
        nlohmann::json data = nlohmann::json::array();
        auto inputs = embedding_inputs(req);
        for (size_t i = 0; i < inputs.size(); ++i)
          data.push_back({{"object", "embedding"},
                          {"index", i},
                          {"embedding", fake_embedding(inputs[i], aliases_)}});
        nlohmann::json body = {{"object", "list"}, {"data", data}, {"model", "fake"}};
        response = {200, "application/json", {body.dump()}};
      }
    } else if (!script_.empty()) {
      response = script_[std::min(next_, script_.size() - 1)];
      ++next_;
    }
  }
  std::string head_out = "HTTP/1.1 " + std::to_string(response.status) + " " +
                         status_reason(response.status) +
                         "\r\nContent-Type: " + response.content_type +
                         "\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n";
  bool ok = send_all(fd, head_out);
  for (size_t i = 0; ok && i < response.pieces.size(); ++i) {
    if (i > 0 && response.pause_ms > 0 && !pause(response.pause_ms)) break;
    ok = send_all(fd, response.pieces[i]);
    if (ok) body_bytes_ += response.pieces[i].size();
  }
  if (ok && response.stall_ms > 0) pause(response.stall_ms);
  ::shutdown(fd, SHUT_RDWR);
  ::close(fd);
}

}  // namespace parley::e2e
