// Agents: their settings and the denormalised counters and training state the Agent resource
// shows (kept in the row and updated in the same transaction as what they count, so reading an
// agent never scans its conversations).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/db.h"

namespace parley {

struct AgentRecord {
  std::string id;
  std::string account_id;
  std::string name;
  bool is_private = false;
  std::string settings = "{}";  // JSON object
  std::string status = "untrained";
  std::optional<int64_t> trained_at;
  int64_t characters = 0;
  int64_t conversations_count = 0;
  int64_t messages_count = 0;
  int64_t leads_count = 0;
  int64_t sources_count = 0;
  int64_t created_at = 0;
  int64_t updated_at = 0;
  // The widget identity secret, sealed with the server's key (core/secret_box.h, bound to the
  // agent's id), and when it was made; nothing while the agent has none.
  std::optional<std::string> identity_secret_sealed;
  std::optional<int64_t> identity_secret_at;
};

// Which counter of an agent to move.
enum class AgentCounter { kConversations, kMessages, kLeads, kSources };

class AgentRepo {
 public:
  static Result<void> insert(Connection& c, const AgentRecord& a);
  // The agent if it exists and belongs to `account_id`.
  static Result<std::optional<AgentRecord>> find(Connection& c, std::string_view account_id,
                                                 std::string_view id);
  // Any account's agent (operator tools and workers).
  static Result<std::optional<AgentRecord>> find_any(Connection& c, std::string_view id);
  static Result<std::vector<AgentRecord>> list(Connection& c, std::string_view account_id);
  // Holds the agent's row until the transaction ends (Connection::lock_row): taken before a
  // read-modify-write of the agent or a check of what it owns (training characters). False when
  // there is no such agent.
  static Result<bool> lock(Connection& c, std::string_view id);
  // lock() without waiting (store/pipelined.h lock_row_later): held before the next statement
  // runs; `found` is set when the answer comes back with the next statement that waits.
  static Result<void> lock_later(Connection& c, std::string_view id, bool& found);
  static Result<void> update(Connection& c, const AgentRecord& a);
  // Replaces the agent's sealed identity secret (and its time); nothing else of the agent moves.
  static Result<void> set_identity_secret(Connection& c, std::string_view id,
                                          std::string_view sealed, int64_t at);
  // Agents (at most `limit`, by id) whose identity secret was sealed by another key than
  // `key_id` (the key id is part of the sealed text, core/secret_box.h): id and key id.
  static Result<std::vector<std::pair<std::string, std::string>>> identity_secrets_sealed_by_others(
      Connection& c, std::string_view key_id, int64_t limit);
  static Result<void> add_to_counter(Connection& c, std::string_view id, AgentCounter counter,
                                     int64_t delta);
  // lock_later() by moving the agent's counters by `expected` (by AgentCounter) at once: one
  // statement takes the row and counts what the unit of work is expected to add. What it then
  // counts (add_to_counter) is written at its end only where it differs from `expected`.
  static Result<void> lock_counting_later(Connection& c, std::string_view id,
                                          const std::array<int64_t, 4>& expected, bool& found);
};

}  // namespace parley
