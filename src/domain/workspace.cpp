#include "domain/workspace.h"

#include <algorithm>
#include <set>

#include "core/json.h"
#include "store/agent_repo.h"

namespace parley {

namespace {
Result<AgentRecord> agent_of(Connection& c, std::string_view account_id,
                             std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(auto a, AgentRepo::find(c, account_id, agent_id));
  if (!a) return ApiError::not_found("No agent " + std::string(agent_id) + " in this account.");
  return std::move(*a);
}

WorkspaceStatus status_of(const std::optional<WorkspaceConnectionRecord>& r) {
  WorkspaceStatus out;
  if (!r) return out;
  out.connected = true;
  out.workspace_name = r->workspace_name;
  out.connected_at = r->connected_at;
  return out;
}

ApiError not_connected() {
  return {ErrorCode::kConflict,
          "No Notion workspace is connected to this agent; connect one first."};
}

// A person waits for a console request: Notion gets less time, fewer attempts and shorter
// Retry-After waits than the import worker gives it.
NotionOptions interactive(NotionOptions o) {
  o.max_attempts = std::min(o.max_attempts, 3);
  o.max_retry_wait_ms = std::min<int64_t>(o.max_retry_wait_ms, 5'000);
  o.timeout_ms = std::min<int64_t>(o.timeout_ms, 15'000);
  return o;
}

// A Notion error of a call made with the stored token, as the console answers it.
ApiError stored_token_error(ApiError e) {
  if (e.code == ErrorCode::kUnauthorized || e.code == ErrorCode::kForbidden)
    return {ErrorCode::kConflict, e.message + " Connect the workspace again with a valid token."};
  e.code = ErrorCode::kUnavailable;
  return e;
}

Result<std::string> open_token(const WorkspaceServices& w, const WorkspaceConnectionRecord& r) {
  if (w.secret_box == nullptr)
    return ApiError{ErrorCode::kUnavailable,
                    "This server has no secret key to open the workspace's token."};
  auto token = w.secret_box->open(r.token_sealed, r.agent_id);
  if (!token.ok()) return ApiError{ErrorCode::kUnavailable, token.error().message};
  return token;
}

Result<std::optional<WorkspaceConnectionRecord>> read_connection(Services& s,
                                                                 std::string_view account_id,
                                                                 std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
  PARLEY_TRY(agent_of(c, account_id, agent_id));
  return WorkspaceRepo::connection(c, agent_id);
}

Result<std::vector<std::string>> canonical_ids(const std::vector<std::string>& page_ids) {
  if (page_ids.empty()) return ApiError::invalid("'pageIds' must name at least one page.");
  if (page_ids.size() > kMaxPagesPerImport)
    return ApiError::invalid("'pageIds' may name at most " + std::to_string(kMaxPagesPerImport) +
                             " pages.");
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (size_t i = 0; i < page_ids.size(); ++i) {
    auto id = canonical_notion_id(page_ids[i]);
    if (!id)
      return ApiError::invalid(
          "'pageIds[" + std::to_string(i) +
          "]' must be a Notion page id (32 hexadecimal digits, dashes allowed).");
    if (seen.insert(*id).second) out.push_back(*id);
  }
  return out;
}

void wake(WorkspaceServices& w) {
  if (w.pages_queued) w.pages_queued();
}
}  // namespace

Result<WorkspaceStatus> connect_workspace(Services& s, WorkspaceServices& w,
                                          std::string_view account_id, std::string_view agent_id,
                                          std::string_view member_id, std::string_view token) {
  if (is_blank(token)) return ApiError::invalid("'token' must not be empty.");
  if (utf8_length(token) > kMaxTokenChars)
    return ApiError::invalid("'token' must be at most " + std::to_string(kMaxTokenChars) +
                             " characters.");
  for (char ch : token)
    if (static_cast<unsigned char>(ch) <= ' ' || static_cast<unsigned char>(ch) >= 0x7f)
      return ApiError::invalid(
          "'token' must be printable ASCII without spaces, as Notion shows it.");
  {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
    PARLEY_TRY(agent_of(c, account_id, agent_id));
  }
  if (w.secret_box == nullptr || w.notion_sender == nullptr)
    return ApiError{
        ErrorCode::kUnavailable,
        "Workspace connections are off: this server has no secret key (--secret-key-file)."};
  NotionClient client(*w.notion_sender, interactive(w.notion), std::string(token), w.wait);
  auto bot = client.me();
  if (!bot.ok()) {
    ApiError e = bot.error();
    if (e.code == ErrorCode::kUnavailable || e.code == ErrorCode::kRateLimited ||
        e.code == ErrorCode::kInternal) {
      e.code = ErrorCode::kUnavailable;
      return e;
    }
    return ApiError::invalid("'token' was refused: " + e.message);
  }
  WorkspaceConnectionRecord r;
  r.agent_id = std::string(agent_id);
  r.account_id = std::string(account_id);
  r.token_sealed = w.secret_box->seal(token, agent_id, s.random);
  r.key_id = w.secret_box->key_id();
  r.bot_id = bot->id;
  r.workspace_name = bot->workspace_name;
  if (!member_id.empty()) r.connected_by = std::string(member_id);
  r.connected_at = s.clock.now_ms();
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(agent_of(c, account_id, agent_id));  // not deleted meanwhile
    return WorkspaceRepo::save_connection(c, r);
  }));
  return status_of(r);
}

Result<WorkspaceStatus> workspace_status(Services& s, std::string_view account_id,
                                         std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(auto r, read_connection(s, account_id, agent_id));
  return status_of(r);
}

Result<WorkspaceStatus> disconnect_workspace(Services& s, std::string_view account_id,
                                             std::string_view agent_id) {
  const int64_t now = s.clock.now_ms();
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    PARLEY_TRY(agent_of(c, account_id, agent_id));
    PARLEY_TRY(WorkspaceRepo::remove_connection(c, agent_id));
    PARLEY_TRY(WorkspaceRepo::fail_unfinished(
        c, agent_id, "workspace_disconnected",
        "The workspace was disconnected before the page was read.", now));
    return {};
  }));
  return WorkspaceStatus{};
}

Result<WorkspacePageListing> list_workspace_pages(Services& s, WorkspaceServices& w,
                                                  std::string_view account_id,
                                                  std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(auto connection, read_connection(s, account_id, agent_id));
  if (!connection) return not_connected();
  PARLEY_ASSIGN_OR_RETURN(std::string token, open_token(w, *connection));
  NotionClient client(*w.notion_sender, interactive(w.notion), std::move(token), w.wait);
  auto shared = client.shared_pages();
  if (!shared.ok()) return stored_token_error(shared.error());
  std::set<std::string> imported;
  {
    PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
    PARLEY_ASSIGN_OR_RETURN(auto rows, WorkspaceRepo::pages(c, agent_id));
    for (const auto& row : rows)
      if (row.source_id || row.state == "queued" || row.state == "running")
        imported.insert(row.page_id);
  }
  WorkspacePageListing out;
  out.truncated = shared->truncated;
  for (auto& page : shared->pages) {
    bool is_imported = imported.count(page.id) > 0;
    out.pages.push_back({std::move(page), is_imported});
  }
  return out;
}

Result<std::vector<WorkspacePageRecord>> queue_page_imports(
    Services& s, WorkspaceServices& w, std::string_view account_id, std::string_view agent_id,
    const std::vector<std::string>& page_ids) {
  PARLEY_ASSIGN_OR_RETURN(auto ids, canonical_ids(page_ids));
  const int64_t now = s.clock.now_ms();
  std::vector<WorkspacePageRecord> out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    out.clear();
    PARLEY_ASSIGN_OR_RETURN(auto agent, agent_of(c, account_id, agent_id));
    PARLEY_ASSIGN_OR_RETURN(auto connection, WorkspaceRepo::connection(c, agent.id));
    if (!connection) return not_connected();
    for (const auto& id : ids) {
      PARLEY_ASSIGN_OR_RETURN(auto row, WorkspaceRepo::page(c, agent.id, id));
      if (!row) {
        WorkspacePageRecord r;
        r.agent_id = agent.id;
        r.page_id = id;
        r.account_id = agent.account_id;
        r.requested_at = now;
        PARLEY_TRY(WorkspaceRepo::insert_page(c, r));
      } else {
        PARLEY_TRY(WorkspaceRepo::requeue_page(c, agent.id, id, now));
      }
      PARLEY_ASSIGN_OR_RETURN(auto stored, WorkspaceRepo::page(c, agent.id, id));
      if (stored) out.push_back(std::move(*stored));
    }
    return {};
  }));
  wake(w);
  return out;
}

Result<int64_t> requeue_imported_pages(Connection& c, std::string_view agent_id, int64_t now) {
  PARLEY_ASSIGN_OR_RETURN(auto connection, WorkspaceRepo::connection(c, agent_id));
  if (!connection) return int64_t{0};
  PARLEY_ASSIGN_OR_RETURN(auto rows, WorkspaceRepo::pages(c, agent_id));
  int64_t queued = 0;
  for (const auto& row : rows) {
    // Pages that became sources; a page removed or never imported waits for an import.
    if (!row.source_id) continue;
    PARLEY_ASSIGN_OR_RETURN(bool requeued,
                            WorkspaceRepo::requeue_page(c, agent_id, row.page_id, now));
    queued += requeued ? 1 : 0;
  }
  return queued;
}

Result<std::vector<WorkspacePageRecord>> queue_workspace_refresh(Services& s, WorkspaceServices& w,
                                                                 std::string_view account_id,
                                                                 std::string_view agent_id) {
  const int64_t now = s.clock.now_ms();
  std::vector<WorkspacePageRecord> out;
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    out.clear();
    PARLEY_ASSIGN_OR_RETURN(auto agent, agent_of(c, account_id, agent_id));
    PARLEY_ASSIGN_OR_RETURN(auto connection, WorkspaceRepo::connection(c, agent.id));
    if (!connection) return not_connected();
    PARLEY_TRY(requeue_imported_pages(c, agent.id, now));
    PARLEY_ASSIGN_OR_RETURN(auto rows, WorkspaceRepo::pages(c, agent.id));
    for (auto& row : rows)
      if (row.source_id) out.push_back(std::move(row));
    return {};
  }));
  wake(w);
  return out;
}

Result<std::vector<WorkspacePageRecord>> list_page_imports(Services& s, std::string_view account_id,
                                                           std::string_view agent_id) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
  PARLEY_TRY(agent_of(c, account_id, agent_id));
  return WorkspaceRepo::pages(c, agent_id);
}

Result<void> check_workspace_secrets(Database& db, const SecretBox* secret_box) {
  PARLEY_ASSIGN_OR_RETURN(Connection & c, db.read());
  PARLEY_ASSIGN_OR_RETURN(auto others,
                          WorkspaceRepo::other_key_ids(c, secret_box ? secret_box->key_id() : ""));
  if (others.empty()) return {};
  std::string listed;
  for (const auto& [id, n] : others)
    listed += (listed.empty() ? "" : ", ") + id + " (" + std::to_string(n) +
              (n == 1 ? " token)" : " tokens)");
  std::string mine =
      secret_box ? "this node's key is " + secret_box->key_id() : "this node has no secret key";
  return ApiError::invalid(
      "Stored workspace tokens were sealed with another secret key: " + listed + "; " + mine +
      ". Start every node with the key they were sealed with (--secret-key-file, "
      "PARLEY_SECRET_KEY_FILE or "
      "PARLEY_SECRET_KEY), or disconnect those workspaces with `parley admin workspace disconnect "
      "--agent ID`.");
}

}  // namespace parley
