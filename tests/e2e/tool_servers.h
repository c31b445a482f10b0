// The stand-ins an agent's tools reach in the end-to-end tests: tests/clients/support/
// tool_servers.mjs (a remote MCP server made with the official MCP SDK, a SearXNG JSON API, a
// Brave-shaped search API and the pages their results point at), run by Node as a child process
// on a loopback port. Needs tests/clients' packages installed (scripts/test.sh installs them;
// by hand: `cd tests/clients && npm ci`). Not thread-safe; stops the process when destroyed.
#pragma once

#include <curl/curl.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>

#include "harness.h"

namespace parley::e2e {

class ToolServers {
 public:
  ToolServers() {
    const std::string clients = std::string(PARLEY_TEST_DATA_DIR) + "/../clients";
    if (!std::filesystem::exists(clients + "/node_modules/@modelcontextprotocol/sdk"))
      throw std::runtime_error("tests/clients has no node_modules: run `npm ci` there first");
    int out[2];
    if (pipe(out) != 0) throw std::runtime_error("pipe failed");
    pid_ = fork();
    if (pid_ == 0) {
      dup2(out[1], 1);
      close(out[0]);
      if (chdir(clients.c_str()) != 0) _exit(127);
      execlp("node", "node", "support/tool_servers.mjs", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(out[1]);
    std::string line;
    char c;
    while (read(out[0], &c, 1) == 1 && c != '\n') line += c;
    close(out[0]);
    auto parsed = Json::parse(line, nullptr, false);
    if (!parsed.is_object() || !parsed.contains("port")) {
      stop();
      throw std::runtime_error("tool_servers.mjs did not start: " + line);
    }
    base_url_ = "http://127.0.0.1:" + std::to_string(parsed["port"].get<int>());
  }
  ~ToolServers() { stop(); }
  ToolServers(const ToolServers&) = delete;
  ToolServers& operator=(const ToolServers&) = delete;

  const std::string& base_url() const { return base_url_; }
  // {"calls": [{tool, args, auth}], "requests": [{method, path, auth, session}],
  //  "searches": [{q, …}], "pages": [{path, agent}]}
  Json log() const { return Json::parse(get("/log")); }
  void reset() const { get("/reset"); }

 private:
  static size_t append(char* data, size_t size, size_t n, void* out) {
    static_cast<std::string*>(out)->append(data, size * n);
    return size * n;
  }
  std::string get(const std::string& path) const {
    std::string body;
    CURL* curl = curl_easy_init();
    curl_easy_setopt(curl, CURLOPT_URL, (base_url_ + path).c_str());
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 10000L);
    curl_easy_perform(curl);
    curl_easy_cleanup(curl);
    return body;
  }
  void stop() {
    if (pid_ <= 0) return;
    kill(pid_, SIGTERM);
    int status;
    waitpid(pid_, &status, 0);
    pid_ = -1;
  }

  pid_t pid_ = -1;
  std::string base_url_;
};

}  // namespace parley::e2e
