#include "store/knowledge_form_repo.h"

namespace parley {

Result<void> KnowledgeFormRepo::save(Connection& c, std::string_view agent_id, int64_t version,
                                     int64_t format, std::string_view form, int64_t now) {
  PARLEY_TRY(c.execute(
      "INSERT INTO knowledge_index_forms (agent_id, version, format, form, bytes, created_at)"
      " VALUES ($1, $2, $3, $4, $5, $6)"
      " ON CONFLICT (agent_id) DO UPDATE SET version = excluded.version,"
      " format = excluded.format, form = excluded.form, bytes = excluded.bytes,"
      " created_at = excluded.created_at"
      " WHERE knowledge_index_forms.version <= excluded.version",
      {agent_id, version, format, DbBlob{form}, static_cast<int64_t>(form.size()), now}));
  return {};
}

Result<std::optional<StoredKnowledgeForm>> KnowledgeFormRepo::find(Connection& c,
                                                                   std::string_view agent_id,
                                                                   int64_t version) {
  std::optional<StoredKnowledgeForm> out;
  PARLEY_TRY(
      c.query("SELECT version, format, form FROM knowledge_index_forms WHERE agent_id = $1 AND "
              "version = $2",
              {agent_id, version}, [&](const Row& r) {
                out = StoredKnowledgeForm{r.int64(0), r.int64(1), std::string(r.blob_view(2))};
              }));
  return out;
}

Result<std::optional<int64_t>> KnowledgeFormRepo::stored_version(Connection& c,
                                                                 std::string_view agent_id) {
  return c.query_int("SELECT version FROM knowledge_index_forms WHERE agent_id = $1", {agent_id});
}

}  // namespace parley
