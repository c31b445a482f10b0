// Replies that wait hold no thread: a request that waited past its deadline before any thread
// got to it is answered 504 at its deadline and stores nothing; a streamed reply whose reader
// stops reading pauses the read of the provider's stream (and resumes it when the reader does);
// many calls waiting on a slow provider wait together on the outbound loop.
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <thread>

#include "chat_support.h"
#include "fake_llm_server.h"
#include "https_receiver.h"

namespace parley::e2e {
namespace {

using SteadyClock = std::chrono::steady_clock;

double seconds_since(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

struct Timed {
  HttpResponse response;
  double seconds = 0;
};

std::future<Timed> chat_later(const Server& s, const ChatSetup& c, const std::string& session) {
  return std::async(std::launch::async, [&s, c, session] {
    auto start = SteadyClock::now();
    Timed t{chat(s, c, {{"message", "What are your opening hours?"}, {"sessionId", session}}), 0};
    t.seconds = seconds_since(start);
    return t;
  });
}

TEST(LiveReplies, ARequestQueuedPastItsDeadlineGets504AtTheDeadlineAndNothingIsStored) {
  // One reply thread and an engine that takes 1.5 s of it: the first chat has the thread, the
  // second waits for it and then runs past its deadline, the third cannot start before its
  // deadline at all.
  Server s(unlimited(), {"--reply-threads", "1", "--engine-delay-ms", "1500", "--chat-timeout-ms", "2000"});
  auto c = chat_setup(s);
  auto first = chat_later(s, c, "first");
  // Long enough for the first to reach the reply thread before the others on a loaded machine,
  // short enough that the others still wait for it past their deadline.
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  auto second = chat_later(s, c, "second");
  auto third = chat_later(s, c, "third");

  Timed a = first.get();
  EXPECT_EQ(a.response.status, 200) << a.response.body;
  for (auto* f : {&second, &third}) {
    Timed t = f->get();
    EXPECT_EQ(t.response.status, 504) << t.response.body;
    EXPECT_EQ(t.response.error_code(), "timeout");
    EXPECT_NE(t.response.error_message().find("longer than 2 seconds"), std::string::npos)
        << t.response.body;
    // At the deadline, counted from the request's arrival; not when a thread got to it.
    EXPECT_GE(t.seconds, 1.9);
    EXPECT_LT(t.seconds, 2.6);
  }
  // The queued runs end (the third one without running its engine) and store nothing: only the
  // first exchange is there.
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  auto counts = agent_counts(s, c);
  EXPECT_EQ(counts["conversations"], 1) << counts.dump();
  EXPECT_EQ(counts["messages"], 2) << counts.dump();
}

// A client socket that reads only when told to, with a small receive buffer and small segments,
// so that the kernel takes little of the reply for it (on loopback, with 64 KB segments, the
// server's send buffer alone would grow to megabytes).
class SlowReader {
 public:
  explicit SlowReader(uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    int small = 4096;
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    int segment = 536;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_MAXSEG, &segment, sizeof segment);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  }
  ~SlowReader() { ::close(fd_); }
  bool connected() const { return connected_; }
  void send_all(const std::string& data) {
    size_t off = 0;
    while (off < data.size()) {
      ssize_t n = ::send(fd_, data.data() + off, data.size() - off, MSG_NOSIGNAL);
      if (n <= 0) return;
      off += static_cast<size_t>(n);
    }
  }
  // Reads until `marker` has arrived (or the peer closed); returns everything read so far.
  const std::string& read_until(const std::string& marker) {
    char buf[16384];
    while (in_.find(marker) == std::string::npos) {
      ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) break;
      in_.append(buf, static_cast<size_t>(n));
    }
    return in_;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
  std::string in_;
};

// The text of a chunked body, and whether it ended with its terminating chunk.
std::pair<std::string, bool> dechunk(std::string_view body) {
  std::string text;
  size_t at = 0;
  while (at < body.size()) {
    size_t eol = body.find("\r\n", at);
    if (eol == std::string_view::npos) break;
    size_t size = std::stoul(std::string(body.substr(at, eol - at)), nullptr, 16);
    if (size == 0) return {text, true};
    text += body.substr(eol + 2, size);
    at = eol + 2 + size + 2;
  }
  return {text, false};
}

TEST(LiveReplies, AReaderThatStopsReadingPausesTheProviderReadUntilItReadsAgain) {
  // The provider streams 2,000 events of 1 KB of text each, padded to 16 KB on the wire: 32 MB in
  // all, far more than the sockets between it and the reader can hold.
  constexpr size_t kEvents = 2000;
  const std::string piece(1024, 'a');
  const std::string pad(15 * 1024, 'p');
  std::vector<std::string> events;
  size_t total = 0;
  for (size_t i = 0; i < kEvents; ++i) {
    std::string event = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + piece +
                        "\"}}],\"pad\":\"" + pad + "\"}\n\n";
    total += event.size();
    events.push_back(std::move(event));
  }
  events.push_back("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n");
  total += events.back().size();
  FakeLlmServer llm;
  llm.script({{200, "text/event-stream", events}});
  Server s(unlimited(), {"--llm-base-url", llm.base_url(), "--llm-model", "m", "--chat-timeout-ms", "30000"});
  auto c = chat_setup(s, R"({"engine":"openai"})");

  SlowReader reader(s.port());
  ASSERT_TRUE(reader.connected());
  std::string body = R"({"message":"Tell me everything","stream":true})";
  reader.send_all("POST /api/v1/agents/" + c.agent + "/chat HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                  "Authorization: Bearer " + c.key + "\r\nContent-Type: application/json\r\n" +
                  "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
  std::string head = reader.read_until("\r\n\r\n");
  ASSERT_EQ(head.rfind("HTTP/1.1 200", 0), 0u) << head.substr(0, 200);

  // The reader takes nothing more: the server stops reading the provider, whose writes then
  // stall well before the end of its stream.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  size_t stalled_at = llm.body_bytes_written();
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  EXPECT_EQ(llm.body_bytes_written(), stalled_at) << "the provider kept being read";
  EXPECT_LT(stalled_at, total / 2);

  // Reading again resumes the provider's stream, and the whole reply arrives and is stored.
  std::string all = reader.read_until("\r\n0\r\n\r\n");
  EXPECT_EQ(llm.body_bytes_written(), total);
  size_t body_at = all.find("\r\n\r\n") + 4;
  auto [text, complete] = dechunk(std::string_view(all).substr(body_at));
  EXPECT_TRUE(complete);
  EXPECT_EQ(text.size(), kEvents * piece.size());
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto counts = agent_counts(s, c);
  EXPECT_EQ(counts["messages"], 2) << counts.dump();
}

TEST(LiveReplies, ManyRepliesWaitOnASlowProviderAtOnce) {
  // 48 chats whose provider takes 1 s each, on a server with 2 reply threads and 4 request
  // threads: waiting holds no thread, so all are answered in about one provider time.
  FakeLlmServer llm;
  // An empty first piece, then 1 s, then the reply.
  llm.script({{200, "text/event-stream", {"", sse_body({text_chunk("Open all day."), finish_chunk("stop")})}, 1000, 0}});
  Server s(unlimited(), {"--llm-base-url", llm.base_url(), "--llm-model", "m", "--reply-threads", "2",
                 "--blocking-threads", "4", "--chat-timeout-ms", "10000"});
  auto c = chat_setup(s, R"({"engine":"openai"})");
  auto start = SteadyClock::now();
  std::vector<std::future<HttpResponse>> replies;
  for (int i = 0; i < 48; ++i) {
    replies.push_back(std::async(std::launch::async, [&s, &c, i] {
      return chat(s, c, {{"message", "When are you open?"}, {"stream", i % 2 == 1}});
    }));
  }
  int ok = 0;
  for (auto& f : replies) {
    HttpResponse r = f.get();
    EXPECT_EQ(r.status, 200) << r.body;
    if (r.status == 200) ++ok;
  }
  double took = seconds_since(start);
  EXPECT_EQ(ok, 48);
  // Nothing is left in flight, and the gauges say so.
  auto metrics = s.get("/metrics", "").body;
  EXPECT_NE(metrics.find("\nparley_replies_in_flight 0\n"), std::string::npos) << metrics.substr(0, 300);
  EXPECT_NE(metrics.find("\nparley_outbound_transfers_in_flight 0\n"), std::string::npos);
  // With a thread per waiting reply this would take 12 provider times (48 / 4 threads).
  EXPECT_LT(took, 4.0) << "replies waited for threads";
  EXPECT_EQ(llm.requests().size(), 48u);
}

TEST(LiveReplies, AServerStoppedWhileRepliesWaitOnTheProviderAnswersThemAndExitsCleanly) {
  // Eight replies wait on a provider that answers after 2 s; the server is told to stop
  // meanwhile. It lets them finish, each is answered 200 with the provider's reply, and it exits 0
  // (its outbound loop stopped and joined on the way out) and logs that it stopped.
  FakeLlmServer llm;
  llm.script({{200,
               "text/event-stream",
               {"", sse_body({text_chunk("Open at nine."), finish_chunk("stop")})},
               2000,
               0}});
  Server s(unlimited(), {"--llm-base-url", llm.base_url(), "--llm-model", "m", "--chat-timeout-ms",
                         "10000", "--log-flush-ms", "1"});
  auto c = chat_setup(s, R"({"engine":"openai"})");
  std::vector<std::future<HttpResponse>> replies;
  for (int i = 0; i < 8; ++i) {
    replies.push_back(std::async(std::launch::async, [&s, &c, i] {
      return chat(s, c, {{"message", "When are you open?"}, {"stream", i % 2 == 1}});
    }));
  }
  auto deadline = SteadyClock::now() + std::chrono::seconds(2);
  while (llm.requests().size() < 8 && SteadyClock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(llm.requests().size(), 8u);
  EXPECT_EQ(s.stop(SIGTERM), 0);
  EXPECT_NE(s.log().find("\"msg\":\"stopped\""), std::string::npos);
  for (int i = 0; i < 8; ++i) {
    HttpResponse r = replies[static_cast<size_t>(i)].get();
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_NE(r.body.find("Open at nine."), std::string::npos) << r.body;
  }
}

TEST(LiveReplies, TheServersProviderIsTrustedThroughTheCaFileItNames) {
  // An https provider with a self-signed certificate: without --llm-ca-file the TLS check refuses
  // it and the call never arrives; with it, the completion request reaches the provider (which
  // answers nothing usable, so the chat ends 500 either way).
  char tpl[] = "/tmp/parley-llm-ca-XXXXXX";
  std::string dir = mkdtemp(tpl);
  make_self_signed_certificate(dir);
  HttpsReceiver provider(dir + "/cert.pem", dir + "/key.pem");
  std::string base = "https://127.0.0.1:" + std::to_string(provider.port());
  {
    Server s(unlimited(), {"--llm-base-url", base, "--llm-model", "m"});
    auto c = chat_setup(s, R"({"engine":"openai"})");
    auto r = chat(s, c, {{"message", "Hello"}});
    EXPECT_EQ(r.status, 500) << r.body;
    EXPECT_EQ(r.error_code(), "internal_error");
    EXPECT_TRUE(provider.received().empty());
  }
  Server s(unlimited(), {"--llm-base-url", base, "--llm-model", "m", "--llm-ca-file", dir + "/cert.pem"});
  auto c = chat_setup(s, R"({"engine":"openai"})");
  auto r = chat(s, c, {{"message", "Hello"}});
  EXPECT_EQ(r.status, 500) << r.body;
  EXPECT_EQ(r.error_message(), "The language model provider did not give a usable reply.");
  auto calls = provider.received_on("/v1/chat/completions");
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(Json::parse(calls[0].body)["model"], "m");
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

TEST(LiveReplies, ACaFileThatDoesNotExistStopsTheServerNamingTheOption) {
  auto r = run_process({PARLEY_BINARY, "serve", "--listen", "127.0.0.1:0", "--llm-ca-file", "/nonexistent/ca.pem"},
                       {{"PARLEY_DATA_DIR", "/tmp"}});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE((r.err + r.out).find("--llm-ca-file"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace parley::e2e
