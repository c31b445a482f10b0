#include "store/agent_repo.h"

namespace parley {

namespace {
#define AGENT_COLUMNS                                                                              \
  "id, account_id, name, private, settings, status, trained_at, characters, conversations_count, " \
  "messages_count, leads_count, sources_count, created_at, updated_at"
// What is read: the columns an insert writes, then the identity secret (written on its own).
#define AGENT_READ_COLUMNS AGENT_COLUMNS ", identity_secret, identity_secret_at"

AgentRecord read_agent(const Row& r) {
  AgentRecord a;
  a.id = r.text(0);
  a.account_id = r.text(1);
  a.name = r.text(2);
  a.is_private = r.boolean(3);
  a.settings = r.text(4);
  a.status = r.text(5);
  a.trained_at = r.opt_int64(6);
  a.characters = r.int64(7);
  a.conversations_count = r.int64(8);
  a.messages_count = r.int64(9);
  a.leads_count = r.int64(10);
  a.sources_count = r.int64(11);
  a.created_at = r.int64(12);
  a.updated_at = r.int64(13);
  a.identity_secret_sealed = r.opt_text(14);
  a.identity_secret_at = r.opt_int64(15);
  return a;
}
}  // namespace

Result<void> AgentRepo::insert(Connection& c, const AgentRecord& a) {
  PARLEY_TRY(c.execute("INSERT INTO agents (" AGENT_COLUMNS
                       ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
                       {a.id, a.account_id, a.name, int64_t{a.is_private}, a.settings, a.status,
                        db_opt(a.trained_at), a.characters, a.conversations_count, a.messages_count,
                        a.leads_count, a.sources_count, a.created_at, a.updated_at}));
  return {};
}

Result<std::optional<AgentRecord>> AgentRepo::find(Connection& c, std::string_view account_id,
                                                   std::string_view id) {
  std::optional<AgentRecord> out;
  PARLEY_TRY(c.query("SELECT " AGENT_READ_COLUMNS " FROM agents WHERE id = $1 AND account_id = $2",
                     {id, account_id}, [&](const Row& r) { out = read_agent(r); }));
  return out;
}

Result<std::optional<AgentRecord>> AgentRepo::find_any(Connection& c, std::string_view id) {
  std::optional<AgentRecord> out;
  PARLEY_TRY(c.query("SELECT " AGENT_READ_COLUMNS " FROM agents WHERE id = $1", {id},
                     [&](const Row& r) { out = read_agent(r); }));
  return out;
}

Result<std::vector<AgentRecord>> AgentRepo::list(Connection& c, std::string_view account_id) {
  std::vector<AgentRecord> out;
  PARLEY_TRY(c.query("SELECT " AGENT_READ_COLUMNS
                     " FROM agents WHERE account_id = $1 ORDER BY created_at DESC, id DESC",
                     {account_id}, [&](const Row& r) { out.push_back(read_agent(r)); }));
  return out;
}

Result<bool> AgentRepo::lock(Connection& c, std::string_view id) {
  return c.lock_row("agents", id);
}

Result<void> AgentRepo::update(Connection& c, const AgentRecord& a) {
  PARLEY_TRY(c.execute(
      "UPDATE agents SET name = $2, private = $3, settings = $4, status = $5, trained_at = $6,"
      " characters = $7, updated_at = $8 WHERE id = $1",
      {a.id, a.name, int64_t{a.is_private}, a.settings, a.status, db_opt(a.trained_at),
       a.characters, a.updated_at}));
  return {};
}

Result<void> AgentRepo::set_identity_secret(Connection& c, std::string_view id,
                                            std::string_view sealed, int64_t at) {
  PARLEY_TRY(
      c.execute("UPDATE agents SET identity_secret = $2, identity_secret_at = $3 WHERE id = $1",
                {id, sealed, at}));
  return {};
}

Result<std::vector<std::pair<std::string, std::string>>>
AgentRepo::identity_secrets_sealed_by_others(Connection& c, std::string_view key_id,
                                             int64_t limit) {
  // "v1.<16 hex digits of the key id>.<...>"
  std::vector<std::pair<std::string, std::string>> out;
  PARLEY_TRY(
      c.query("SELECT id, substr(identity_secret, 4, 16) FROM agents"
              " WHERE identity_secret IS NOT NULL AND substr(identity_secret, 4, 16) <> $1"
              " ORDER BY id LIMIT $2",
              {key_id, limit}, [&](const Row& r) { out.emplace_back(r.text(0), r.text(1)); }));
  return out;
}

Result<void> AgentRepo::add_to_counter(Connection& c, std::string_view id, AgentCounter counter,
                                       int64_t delta) {
  std::string_view sql;
  switch (counter) {
    case AgentCounter::kConversations:
      sql = "UPDATE agents SET conversations_count = conversations_count + $2 WHERE id = $1";
      break;
    case AgentCounter::kMessages:
      sql = "UPDATE agents SET messages_count = messages_count + $2 WHERE id = $1";
      break;
    case AgentCounter::kLeads:
      sql = "UPDATE agents SET leads_count = leads_count + $2 WHERE id = $1";
      break;
    case AgentCounter::kSources:
      sql = "UPDATE agents SET sources_count = sources_count + $2 WHERE id = $1";
      break;
  }
  PARLEY_TRY(c.execute(sql, {id, delta}));
  return {};
}

}  // namespace parley
