// Workspace connections and imported workspace pages (store/migrations/0040_workspace.sql). A
// page row is also the import queue's item: queued → running (claimed with a lease) → done or
// failed, and queued again by a refresh. Stateless; every function runs on the connection given.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/db.h"

namespace parley {

struct WorkspaceConnectionRecord {
  std::string agent_id;
  std::string account_id;
  std::string token_sealed;
  std::string key_id;
  std::string bot_id;
  std::optional<std::string> workspace_name;
  std::optional<std::string> connected_by;
  int64_t connected_at = 0;
};

struct WorkspacePageRecord {
  std::string agent_id;
  std::string page_id;
  std::string account_id;
  std::optional<std::string> source_id;
  std::optional<std::string> title;
  std::optional<std::string> url;
  std::optional<std::string> last_edited_time;
  std::optional<int64_t> content_read_at;
  std::string state = "queued";  // queued, running, done, failed
  std::optional<std::string> outcome;
  std::optional<std::string> error_code;
  std::optional<std::string> error_message;
  std::optional<int64_t> lease_until;
  int64_t requested_at = 0;
  std::optional<int64_t> finished_at;
};

class WorkspaceRepo {
 public:
  // Inserts or replaces the agent's connection.
  static Result<void> save_connection(Connection& c, const WorkspaceConnectionRecord& r);
  static Result<std::optional<WorkspaceConnectionRecord>> connection(Connection& c,
                                                                     std::string_view agent_id);
  static Result<bool> remove_connection(Connection& c, std::string_view agent_id);
  // Key ids of stored tokens other than `key_id`, with how many tokens each sealed.
  static Result<std::vector<std::pair<std::string, int64_t>>> other_key_ids(
      Connection& c, std::string_view key_id);

  static Result<std::optional<WorkspacePageRecord>> page(Connection& c, std::string_view agent_id,
                                                         std::string_view page_id);
  // The agent's page rows, most recently requested first.
  static Result<std::vector<WorkspacePageRecord>> pages(Connection& c, std::string_view agent_id);
  static Result<void> insert_page(Connection& c, const WorkspacePageRecord& r);
  // Rewrites every field but the key and account.
  static Result<void> update_page(Connection& c, const WorkspacePageRecord& r);
  // Queues the page again unless it is queued or running; false when it was left as it is.
  static Result<bool> requeue_page(Connection& c, std::string_view agent_id,
                                   std::string_view page_id, int64_t now);

  // The oldest queued page, or a running one whose lease ended (its node stopped).
  static Result<std::optional<WorkspacePageRecord>> next_claimable(Connection& c, int64_t now);
  // Moves the page to running until `lease_until` if it is still claimable; false when another
  // worker took it first.
  static Result<bool> claim(Connection& c, std::string_view agent_id, std::string_view page_id,
                            int64_t now, int64_t lease_until);
  static Result<void> renew_lease(Connection& c, std::string_view agent_id,
                                  std::string_view page_id, int64_t lease_until);
  // Puts every running page back in the queue (a single-node restart).
  static Result<int64_t> requeue_running(Connection& c);
  // Queued or running pages of agents whose connection is gone fail with the reason.
  static Result<int64_t> fail_unfinished(Connection& c, std::string_view agent_id,
                                         std::string_view code, std::string_view message,
                                         int64_t now);
};

}  // namespace parley
