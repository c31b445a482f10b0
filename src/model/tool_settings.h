// An agent's tools beyond its own settings, as types: the remote MCP servers whose tools the
// `openai` engine may call (`mcpServers`) and web search (`webSearch`). Read with the rest of the
// settings (model/agent_settings.h) and as leniently: an entry that is not well formed is skipped.
// The header secret of an MCP server is kept as stored, sealed with the server's key
// (core/secret_box.h, bound to the agent's id); only the engine opens it, for the call.
// Immutable once read; safe to share between threads.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parley {

// Remote MCP servers an agent may have at most, and tool names each may allow.
inline constexpr size_t kMaxMcpServers = 10;
inline constexpr size_t kMaxMcpAllowedTools = 50;

// One entry of `mcpServers`.
struct McpServerSetting {
  std::string name;           // letters, digits, '_' and '-', up to 20; unique per agent
  std::string url;            // the Streamable HTTP endpoint, e.g. "https://mcp.example.com/mcp"
  std::string header_name;    // `headerName`: sent with every request when not empty
  std::string header_sealed;  // `headerValue` as stored: sealed (SecretBox), never in clear
  std::vector<std::string> allowed_tools;  // `allowedTools`: the only tools offered and called
};

// Web search providers.
inline constexpr std::string_view kSearxng = "searxng";
inline constexpr std::string_view kBraveSearch = "brave";

// Results of one search handed to the model at most, and the default.
inline constexpr int64_t kMaxWebResults = 10;
inline constexpr int64_t kDefaultWebResults = 3;

// `webSearch`.
struct WebSearchSetting {
  bool enabled = false;                      // `enabled`
  std::string provider{kSearxng};            // `provider`: searxng (default) or brave
  std::string url;                           // `url`: the SearXNG instance (or Brave's API base)
  std::string api_key_sealed;                // `apiKey` as stored, sealed (Brave's token)
  int64_t max_results = kDefaultWebResults;  // `maxResults`, 1 to 10
  bool fetch_pages = true;                   // `fetchPages`: read the pages, not only snippets
};

struct ToolSettings {
  std::vector<McpServerSetting> mcp_servers;
  WebSearchSetting web_search;
  bool any() const { return !mcp_servers.empty() || web_search.enabled; }
};

// Letters, digits, '_' and '-', 1 to `max` characters (an MCP server's name).
bool is_tool_identifier(std::string_view name, size_t max);
// An MCP tool name as allowed: 1 to 64 of letters, digits, '_', '-' and '.'.
bool is_mcp_tool_name(std::string_view name);

}  // namespace parley
