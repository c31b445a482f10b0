#include "store/export_queries.h"

#include <unordered_map>

namespace parley {

Result<std::vector<ExportedConversation>> ExportQueries::batch(Connection& c,
                                                               std::string_view agent_id,
                                                               const ExportKey& after,
                                                               int64_t to_ms, int64_t limit) {
  std::vector<ExportedConversation> out;
  static const std::string conversations = "SELECT " + std::string(ConversationRepo::columns()) +
                                           ", contact_id FROM conversations WHERE agent_id = $1 "
                                           "AND (created_at > $2 OR (created_at = $2 AND id > $3)) "
                                           "AND created_at < $4 ORDER BY created_at, id LIMIT $5";
  PARLEY_TRY(c.query(conversations, {agent_id, after.created_at, after.id, to_ms, limit},
                     [&](const Row& r) {
                       ExportedConversation e;
                       e.conversation = ConversationRepo::read_row(r);
                       e.contact_id = r.opt_text(r.column_count() - 1);
                       out.push_back(std::move(e));
                     }));
  if (out.empty()) return out;
  // The messages of exactly these conversations: the same key range, up to the batch's last.
  std::unordered_map<std::string, size_t> at;
  for (size_t i = 0; i < out.size(); ++i) at.emplace(out[i].conversation.id, i);
  const auto& last = out.back().conversation;
  PARLEY_TRY(
      c.query("SELECT m.id, m.conversation_id, m.seq, m.role, m.content, m.author_name, m.sources, "
              "m.created_at, "
              "m.outcome, m.confidence, m.rating, m.rated_at FROM conversations v JOIN messages m "
              "ON m.conversation_id = v.id WHERE v.agent_id = $1 "
              "AND (v.created_at > $2 OR (v.created_at = $2 AND v.id > $3)) "
              "AND (v.created_at < $4 OR (v.created_at = $4 AND v.id <= $5)) ORDER BY "
              "v.created_at, v.id, m.seq",
              {agent_id, after.created_at, after.id, last.created_at, last.id}, [&](const Row& r) {
                auto it = at.find(std::string(r.text_view(1)));
                if (it == at.end()) return;
                ExportedMessage m;
                m.message.id = r.text(0);
                m.message.conversation_id = r.text(1);
                m.message.seq = r.int64(2);
                m.message.role = r.text(3);
                m.message.content = r.text(4);
                m.message.author_name = r.opt_text(5);
                m.message.sources = r.text(6);
                m.message.created_at = r.int64(7);
                m.outcome = r.opt_text(8);
                if (!r.is_null(9)) m.confidence = r.real(9);
                m.rating = r.opt_text(10);
                m.rated_at = r.opt_int64(11);
                out[it->second].messages.push_back(std::move(m));
              }));
  return out;
}

}  // namespace parley
