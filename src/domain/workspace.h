// Workspace pages as knowledge (docs/decisions/workspace.md): an agent's Notion connection (the
// integration token checked with Notion, then sealed with the server's key and never shown
// again), the pages shared with the integration, and the queue of page imports and refreshes
// that the import worker (domain/workspace_import.h) turns into `workspace` sources. Shared by
// the console and the node; stateless and thread-safe (state lives in the database).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/secret_box.h"
#include "store/services.h"
#include "store/workspace_repo.h"
#include "workspace/notion_client.h"

namespace parley {

inline constexpr size_t kMaxPagesPerImport = 100;
inline constexpr size_t kMaxTokenChars = 500;

// What workspace operations need beside the database.
struct WorkspaceServices {
  const SecretBox* secret_box = nullptr;  // null: no key configured, so nothing can be connected
  HttpSender* notion_sender = nullptr;
  NotionOptions notion;
  std::function<void()> pages_queued;  // wakes the import worker; may be empty
  NotionWait wait = sleeping_wait();   // waits of calls made while a person waits (console)
};

struct WorkspaceStatus {
  bool connected = false;
  std::optional<std::string> workspace_name;
  std::optional<int64_t> connected_at;
};

struct WorkspacePageListing {
  struct Item {
    NotionPage page;
    bool imported = false;  // the page is (or is being) an agent's source
  };
  std::vector<Item> pages;
  bool truncated = false;
};

// Checks `token` with Notion (GET /v1/users/me) and stores it sealed as the agent's connection,
// replacing any earlier one. 400 naming 'token' when Notion refuses it; 404 for another
// account's agent; 503 when the server has no secret key or Notion cannot be reached.
Result<WorkspaceStatus> connect_workspace(Services& s, WorkspaceServices& w,
                                          std::string_view account_id, std::string_view agent_id,
                                          std::string_view member_id, std::string_view token);
Result<WorkspaceStatus> workspace_status(Services& s, std::string_view account_id,
                                         std::string_view agent_id);
// Forgets the token; imported sources stay; pages waiting to be imported fail.
Result<WorkspaceStatus> disconnect_workspace(Services& s, std::string_view account_id,
                                             std::string_view agent_id);

// The pages shared with the agent's integration. 409 conflict when no workspace is connected or
// Notion refuses the stored token; 503 when Notion cannot be reached.
Result<WorkspacePageListing> list_workspace_pages(Services& s, WorkspaceServices& w,
                                                  std::string_view account_id,
                                                  std::string_view agent_id);

// Queues the pages (Notion ids, dashed or not) for import: new pages, and pages imported before
// (read again; unchanged ones cost nothing). 400 naming 'pageIds' or the bad item; 409 without a
// connection. Returns the pages' rows.
Result<std::vector<WorkspacePageRecord>> queue_page_imports(
    Services& s, WorkspaceServices& w, std::string_view account_id, std::string_view agent_id,
    const std::vector<std::string>& page_ids);
// "Refresh now": queues every page the agent imported to be compared with Notion again (one
// page: queue_page_imports with its id). 409 without a connection.
Result<std::vector<WorkspacePageRecord>> queue_workspace_refresh(Services& s, WorkspaceServices& w,
                                                                 std::string_view account_id,
                                                                 std::string_view agent_id);
// The refresh step for a caller inside its own write transaction (a scheduler queuing an agent's
// automatic refresh): queues every page of the agent that became a source, when a workspace is
// connected; returns how many were queued (0 without a connection). Wake the import worker
// (WorkspaceServices::pages_queued) once the transaction is committed, or let it poll.
Result<int64_t> requeue_imported_pages(Connection& c, std::string_view agent_id, int64_t now);
// The agent's imported and queued pages, most recently requested first.
Result<std::vector<WorkspacePageRecord>> list_page_imports(Services& s, std::string_view account_id,
                                                           std::string_view agent_id);

// At start: every stored token must open with this node's key. An error naming the other keys
// (and how to fix it) when some were sealed with another key, or when there is no key at all.
Result<void> check_workspace_secrets(Database& db, const SecretBox* secret_box);

}  // namespace parley
