#include "engine/agent_tools.h"

#include <algorithm>
#include <atomic>

#include "core/json.h"
#include "core/log.h"

namespace parley {

namespace {
constexpr size_t kMaxCachedSessions = 10'000;

std::string error_result(std::string_view message) {
  JsonWriter w;
  w.begin_object().key("error").string(message).end_object();
  return w.str();
}

ToolSpec web_search_spec() {
  return {
      std::string(kWebSearchTool),
      "Searches the web. Use it when the question needs current or outside information the "
      "knowledge does not hold; the results give each page's title, address and text.",
      R"({"type":"object","properties":{"query":{"type":"string","description":"What to search for"}},"required":["query"]})"};
}
}  // namespace

std::optional<McpSession> McpSessionCache::find(const std::string& key, int64_t now_ms) const {
  std::lock_guard lock(mu_);
  auto it = entries_.find(key);
  if (it == entries_.end() || it->second.expires_ms <= now_ms) return std::nullopt;
  return it->second.session;
}

void McpSessionCache::put(const std::string& key, McpSession session, int64_t now_ms,
                          int64_t keep_ms) {
  std::lock_guard lock(mu_);
  if (entries_.size() >= kMaxCachedSessions && entries_.count(key) == 0) {
    // Expired entries go first; when none has, the whole cache (lists are cheap to learn again).
    std::erase_if(entries_, [now_ms](const auto& e) { return e.second.expires_ms <= now_ms; });
    if (entries_.size() >= kMaxCachedSessions) entries_.clear();
  }
  entries_[key] = {std::move(session), now_ms + keep_ms};
}

void McpSessionCache::drop(const std::string& key) {
  std::lock_guard lock(mu_);
  entries_.erase(key);
}

std::string mcp_function_name(std::string_view server, std::string_view tool) {
  std::string name = std::string(kMcpToolPrefix) + std::string(server) + "_" + std::string(tool);
  for (char& c : name)
    if (c == '.') c = '_';
  if (name.size() > 64) name.resize(64);
  return name;
}

void AgentTools::prepare(const ReplyRequest& request) {
  deadline_ms_ = request.deadline_ms;
  const ToolSettings& tools = request.settings->tools;
  if (!tools.any()) return;
  if (guard_ == nullptr) {
    log_warn("agent_tools_unavailable", {{"reason", "no address guard"}});
    return;
  }
  for (const auto& s : tools.mcp_servers) {
    if (s.allowed_tools.empty()) continue;  // nothing it may offer
    Server server{s, {}, {}, std::nullopt};
    server.endpoint.url = s.url;
    if (!s.header_name.empty()) {
      auto opened = options_.secret_box
                        ? options_.secret_box->open(s.header_sealed, request.agent_id)
                        : Result<std::string>(ApiError::internal("no key"));
      if (!opened.ok()) {
        log_warn("mcp_secret_unusable", {{"agent", std::string_view(request.agent_id)},
                                         {"server", std::string_view(s.name)}});
        continue;
      }
      server.endpoint.headers.emplace_back(s.header_name, std::move(*opened));
    }
    auto target = guard_->tool_target(s.url);
    if (!target.ok()) {
      log_warn("mcp_server_refused", {{"agent", std::string_view(request.agent_id)},
                                      {"server", std::string_view(s.name)}});
      continue;
    }
    server.endpoint.pin = std::move(*target);
    server.endpoint.ca_bundle = guard_->ca_bundle();
    server.endpoint.max_result_bytes = options_.max_result_bytes;
    server.cache_key = request.agent_id + '\n' + s.name + '\n' + s.url + '\n' + s.header_sealed;
    servers_.push_back(std::move(server));
  }
  const WebSearchSetting& web = tools.web_search;
  if (!web.enabled) return;
  WebSearchCall call;
  call.provider = web.provider;
  call.url = web.url;
  call.max_results = web.max_results;
  call.fetch_pages = web.fetch_pages;
  call.ca_bundle = guard_->ca_bundle();
  if (!web.api_key_sealed.empty()) {
    auto opened = options_.secret_box
                      ? options_.secret_box->open(web.api_key_sealed, request.agent_id)
                      : Result<std::string>(ApiError::internal("no key"));
    if (!opened.ok()) {
      log_warn("web_search_secret_unusable", {{"agent", std::string_view(request.agent_id)}});
      return;
    }
    call.api_key = std::move(*opened);
  }
  auto target = guard_->tool_target(web_search_url(call));
  if (!target.ok()) {
    log_warn("web_search_refused", {{"agent", std::string_view(request.agent_id)}});
    return;
  }
  call.pin = std::move(*target);
  search_ = std::move(call);
}

void AgentTools::list(std::function<void()> ready) {
  const int64_t now = clock_.now_ms();
  auto pending = std::make_shared<std::atomic<size_t>>(1);  // one for this function itself
  auto shared_ready = std::make_shared<std::function<void()>>(std::move(ready));
  auto finished_one = [pending, shared_ready] {
    if (pending->fetch_sub(1, std::memory_order_acq_rel) == 1) (*shared_ready)();
  };
  for (size_t i = 0; i < servers_.size(); ++i) {
    Server& server = servers_[i];
    if (auto cached = cache_.find(server.cache_key, now)) {
      server.session = std::move(cached);
      continue;
    }
    pending->fetch_add(1, std::memory_order_relaxed);
    McpEndpoint endpoint = server.endpoint;
    endpoint.timeout_ms = call_timeout();
    mcp_open_session(endpoint, [this, i, finished_one](Result<McpSession> opened) {
      Server& s = servers_[i];
      if (opened.ok()) {
        cache_.put(s.cache_key, *opened, clock_.now_ms(), options_.session_cache_ms);
        std::lock_guard lock(mu_);
        s.session = std::move(*opened);
      } else {
        log_warn("mcp_server_unavailable", {{"server", std::string_view(s.setting.name)},
                                            {"error", std::string_view(opened.error().message)}});
      }
      finished_one();
    });
  }
  finished_one();
}

std::vector<ToolSpec> AgentTools::specs() {
  std::vector<ToolSpec> out;
  std::lock_guard lock(mu_);
  auto& offered = offered_;
  offered.clear();
  for (size_t i = 0; i < servers_.size(); ++i) {
    const Server& server = servers_[i];
    if (!server.session) continue;
    for (const auto& tool : server.session->tools) {
      const auto& allowed = server.setting.allowed_tools;
      if (std::find(allowed.begin(), allowed.end(), tool.name) == allowed.end()) continue;
      std::string name = mcp_function_name(server.setting.name, tool.name);
      if (offered.count(name) != 0) continue;
      ToolSpec spec{
          name,
          tool.description.empty() ? "A tool of " + server.setting.name + "." : tool.description,
          tool.input_schema};
      offered[name] = {i, tool.name, spec};
      out.push_back(std::move(spec));
    }
  }
  if (search_) out.push_back(web_search_spec());
  return out;
}

bool AgentTools::handles(std::string_view function_name) const {
  if (function_name == kWebSearchTool) return search_.has_value();
  return function_name.rfind(kMcpToolPrefix, 0) == 0;
}

int64_t AgentTools::call_timeout() const {
  int64_t left = deadline_ms_ > 0 ? deadline_ms_ - clock_.now_ms() : options_.call_timeout_ms;
  return std::max<int64_t>(1, std::min(left, options_.call_timeout_ms));
}

void AgentTools::run(const ToolCall& call, std::function<void(std::string)> done) {
  if (deadline_ms_ > 0 && clock_.now_ms() >= deadline_ms_)
    return done(error_result("No time is left for tools in this reply."));
  if (call.name == kWebSearchTool && search_) {
    auto args = parse_json_value(call.arguments);
    std::string query;
    if (args.ok() && args->IsObject()) query = std::string(string_member(*args, "query"));
    if (is_blank(query)) return done(error_result("'query' is required."));
    WebSearchCall search = *search_;
    search.query = query.substr(0, 400);
    search.timeout_ms = call_timeout();
    const ApiActionCaller* guard = guard_;
    ThreadPool& pool = blocking_;
    web_search(
        std::move(search), [guard](std::string_view url) { return guard->tool_target(url); },
        [&pool](std::function<void()> work) { pool.post(std::move(work)); },
        [this, done = std::move(done)](Result<std::vector<WebPage>> pages) {
          if (!pages.ok()) return done(error_result(pages.error().message));
          {
            std::lock_guard lock(mu_);
            for (const auto& p : *pages) {
              bool seen = false;
              for (const auto& w : web_) seen = seen || w.url == p.url;
              if (!seen) web_.push_back({"", citation_title(p.title, p.url), p.url, true});
            }
          }
          done(web_results_json(*pages));
        });
    return;
  }
  auto it = offered_.find(call.name);
  if (it == offered_.end()) return done(error_result("unknown tool"));  // never offered: not called
  size_t index = it->second.server;
  McpEndpoint endpoint;
  McpSession session;
  {
    std::lock_guard lock(mu_);
    endpoint = servers_[index].endpoint;
    session = *servers_[index].session;
  }
  endpoint.timeout_ms = call_timeout();
  mcp_call_tool(
      endpoint, session, it->second.tool, call.arguments,
      [this, index, done = std::move(done)](McpCallResult result) {
        if (result.new_session) {
          Server& s = servers_[index];
          cache_.put(s.cache_key, *result.new_session, clock_.now_ms(), options_.session_cache_ms);
          std::lock_guard lock(mu_);
          s.session = std::move(result.new_session);
        }
        if (result.is_error)
          log_info("mcp_tool_failed", {{"server", std::string_view(servers_[index].setting.name)}});
        done(std::move(result.text));
      });
}

std::vector<SourceRef> AgentTools::web_sources() const {
  std::lock_guard lock(mu_);
  return web_;
}

}  // namespace parley
