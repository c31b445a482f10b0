#include "store/lead_repo.h"

#include "store/agent_repo.h"

namespace parley {

namespace {
#define LEAD_COLUMNS                                                                          \
  "id, agent_id, account_id, person_key, email, phone, name, custom_fields, form_id, source, \
   conversation_id, collected_at, last_seen_at, submission_count"

LeadRecord read_lead(const Row& r) {
  LeadRecord l;
  l.id = r.text(0);
  l.agent_id = r.text(1);
  l.account_id = r.text(2);
  l.person_key = r.text(3);
  l.email = r.opt_text(4);
  l.phone = r.opt_text(5);
  l.name = r.opt_text(6);
  l.custom_fields = r.text(7);
  l.form_id = r.opt_text(8);
  l.source = r.text(9);
  l.conversation_id = r.opt_text(10);
  l.collected_at = r.int64(11);
  l.last_seen_at = r.int64(12);
  l.submission_count = r.int64(13);
  return l;
}
}  // namespace

Result<LeadSaved> LeadRepo::save(Connection& c, const LeadRecord& lead) {
  // One statement: a second submission of the same person, even at the same moment, finds the
  // first one's row (UNIQUE (agent_id, person_key)) and is counted on it.
  std::optional<LeadRecord> stored;
  PARLEY_TRY(c.query(
      "INSERT INTO leads (" LEAD_COLUMNS
      ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) "
      "ON CONFLICT (agent_id, person_key) DO UPDATE SET "
      "email = COALESCE(excluded.email, leads.email), "
      "phone = COALESCE(excluded.phone, leads.phone), "
      "name = COALESCE(excluded.name, leads.name), "
      "custom_fields = CASE WHEN excluded.custom_fields = '[]' THEN leads.custom_fields "
      "ELSE excluded.custom_fields END, "
      "form_id = COALESCE(excluded.form_id, leads.form_id), "
      "conversation_id = COALESCE(leads.conversation_id, excluded.conversation_id), "
      "last_seen_at = CASE WHEN leads.last_seen_at > excluded.last_seen_at "
      "THEN leads.last_seen_at ELSE excluded.last_seen_at END, "
      "submission_count = leads.submission_count + 1 "
      "RETURNING " LEAD_COLUMNS,
      {lead.id, lead.agent_id, lead.account_id, lead.person_key, db_opt(lead.email),
       db_opt(lead.phone), db_opt(lead.name), lead.custom_fields, db_opt(lead.form_id),
       lead.source, db_opt(lead.conversation_id), lead.collected_at, lead.collected_at,
       int64_t{1}},
      [&](const Row& r) { stored = read_lead(r); }));
  if (!stored) return ApiError::internal("The lead was not stored.");
  bool created = stored->id == lead.id;  // an existing lead keeps its own id
  if (created) PARLEY_TRY(AgentRepo::add_to_counter(c, lead.agent_id, AgentCounter::kLeads, 1));
  return LeadSaved{std::move(*stored), created};
}

Result<std::optional<LeadRecord>> LeadRepo::find(Connection& c, std::string_view account_id,
                                                 std::string_view id) {
  std::optional<LeadRecord> out;
  PARLEY_TRY(c.query("SELECT " LEAD_COLUMNS " FROM leads WHERE id = $1 AND account_id = $2",
                     {id, account_id}, [&](const Row& r) { out = read_lead(r); }));
  return out;
}

std::string_view LeadRepo::columns() { return LEAD_COLUMNS; }
LeadRecord LeadRepo::read_row(const Row& r) { return read_lead(r); }

}  // namespace parley
