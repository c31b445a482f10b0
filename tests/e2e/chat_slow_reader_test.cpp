// A client that asks for a streamed reply and then reads nothing: once the socket's buffers are
// full the server's write cannot finish, and after the read timeout the server gives up on the
// connection, so the thread writing the reply is not held for ever.
#include <unistd.h>

#include <chrono>
#include <thread>

#include "chat_llm_support.h"

namespace parley::e2e {
namespace {

TEST(ChatSlowReader, AStreamedReplyNobodyReadsIsAbandonedAfterTheReadTimeout) {
  FakeLlmServer llm;
  Env env = unlimited();
  env["PARLEY_LLM_API_KEY"] = "sk-test";
  Server server(env, {"--llm-base-url", llm.base_url(), "--llm-model", "m", "--chat-timeout-ms", "20000",
                      "--read-timeout-s", "1"});
  auto c = chat_setup(server, kOpenAi);
  std::vector<std::string> chunks;
  std::string text(64 * 1024, 'w');
  for (int i = 0; i < 128; ++i) chunks.push_back(text_chunk(text));  // 8 MiB of reply
  chunks.push_back(finish_chunk("stop"));
  llm.script({{200, "text/event-stream", split_every(sse_body(chunks), 1 << 20)}});

  int fd = connect_loopback(server.port(), 4096);  // a small receive buffer fills sooner
  ASSERT_GE(fd, 0);
  std::string body = R"({"message":"Tell me everything","stream":true})";
  std::string request = "POST /api/v1/agents/" + c.agent + "/chat HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                        c.key + "\r\nContent-Type: application/json\r\nContent-Length: " +
                        std::to_string(body.size()) + "\r\n\r\n" + body;
  ASSERT_EQ(write(fd, request.data(), request.size()), static_cast<ssize_t>(request.size()));

  // The request's log line is written when the server is done with it.
  std::string logged = "\"path\":\"/api/v1/agents/" + c.agent + "/chat\",\"status\":200";
  bool done = false;
  for (int i = 0; i < 100 && !done; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    done = server.log().find(logged) != std::string::npos;
  }
  EXPECT_TRUE(done) << "the streamed reply is still being written to a client that reads nothing";
  close(fd);
  // The server still answers.
  EXPECT_EQ(server.request({"GET", "/healthz", "", {}}).status, 200);
}

}  // namespace
}  // namespace parley::e2e
