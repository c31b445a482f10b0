// The tools an agent's settings give the `openai` engine beyond its own (model/tool_settings.h):
// each allowed tool of its remote MCP servers, offered as "mcp_<server>_<tool>", and
// `web_search`. One AgentTools serves one reply: prepare() checks every address with the URL
// guard (once per reply; the calls are pinned to the address checked then) and opens the
// secrets; list() learns the servers' tools (kept per agent and settings in McpSessionCache, so
// most replies ask nothing); run() calls one tool and hands back the text the model reads.
// A tool that is not allowed is never offered and never called; a tool that fails (refused
// address, timeout, error status, `isError`) is told to the model as an error result, never
// the reply's failure. The pages web search used are collected as `web: true` sources.
// Threading: prepare() blocks (it resolves names) and runs on the reply's starting thread;
// list() and run() return at once and call back on the outbound loop or a blocking thread;
// several run() calls may be under way at once. McpSessionCache is thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/secret_box.h"
#include "core/thread_pool.h"
#include "engine/api_actions.h"
#include "engine/mcp_client.h"
#include "engine/openai_client.h"
#include "engine/reply_engine.h"
#include "engine/web_search.h"

namespace parley {

inline constexpr std::string_view kWebSearchTool = "web_search";
inline constexpr std::string_view kMcpToolPrefix = "mcp_";

struct AgentToolOptions {
  int64_t call_timeout_ms = 10'000;       // one tool call (each HTTP request of it)
  size_t max_result_bytes = 16 * 1024;    // of a tool's result handed to the model
  int64_t session_cache_ms = 5 * 60'000;  // how long a server's session and tool list are kept
  const SecretBox* secret_box = nullptr;  // opens the settings' secrets; null: none open
};

// The sessions and tool lists of remote MCP servers, per agent and server settings (the name,
// address and sealed secret: a settings change is a new entry). Bounded; thread-safe.
class McpSessionCache {
 public:
  std::optional<McpSession> find(const std::string& key, int64_t now_ms) const;
  void put(const std::string& key, McpSession session, int64_t now_ms, int64_t keep_ms);
  void drop(const std::string& key);

 private:
  struct Entry {
    McpSession session;
    int64_t expires_ms = 0;
  };
  mutable std::mutex mu_;
  std::map<std::string, Entry> entries_;
};

// The function name a server's tool is offered as (letters, digits, '_' and '-', at most 64).
std::string mcp_function_name(std::string_view server, std::string_view tool);

class AgentTools {
 public:
  AgentTools(const Clock& clock, const ApiActionCaller* guard, ThreadPool& blocking,
             McpSessionCache& cache, const AgentToolOptions& options)
      : clock_(clock), guard_(guard), blocking_(blocking), cache_(cache), options_(options) {}

  // The servers and provider that pass the guard and whose secrets open; the others are left
  // out (and logged). `deadline_ms`: the reply's, which bounds every call.
  void prepare(const ReplyRequest& request);
  // Learns the tools of every prepared server, then calls `ready` (on any thread).
  void list(std::function<void()> ready);
  // The tools to offer, after list() (and before any run()).
  std::vector<ToolSpec> specs();
  bool handles(std::string_view function_name) const;
  // Runs one call the model made; `done` receives the text the model reads.
  void run(const ToolCall& call, std::function<void(std::string)> done);
  // The pages web search handed the model so far, once each.
  std::vector<SourceRef> web_sources() const;

 private:
  struct Server {
    McpServerSetting setting;
    McpEndpoint endpoint;
    std::string cache_key;
    std::optional<McpSession> session;
  };
  struct Offered {
    size_t server = 0;
    std::string tool;
    ToolSpec spec;
  };
  int64_t call_timeout() const;

  const Clock& clock_;
  const ApiActionCaller* guard_;
  ThreadPool& blocking_;
  McpSessionCache& cache_;
  AgentToolOptions options_;
  int64_t deadline_ms_ = 0;
  std::vector<Server> servers_;
  std::map<std::string, Offered> offered_;  // by function name
  std::optional<WebSearchCall> search_;     // set when web search is on and usable
  mutable std::mutex mu_;                   // guards servers_' sessions and web_
  std::vector<SourceRef> web_;
};

}  // namespace parley
